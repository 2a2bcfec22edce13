package policy

import (
	"testing"
	"time"
)

func TestValidScope(t *testing.T) {
	for s, want := range map[string]bool{
		"issues:read": true, "admin": true, "a/b.c-d_e~!#$%&'()*+": true,
		"": false, "has space": false, `quo"te`: false, `back\slash`: false, "a,b": false, "tab\t": false, "é": false,
	} {
		if got := ValidScope(s); got != want {
			t.Errorf("ValidScope(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestParseRate(t *testing.T) {
	for s, want := range map[string]struct {
		n   int
		per time.Duration
	}{"10/m": {10, time.Minute}, "1/s": {1, time.Second}, "3600/h": {3600, time.Hour}} {
		n, per, err := ParseRate(s)
		if err != nil || n != want.n || per != want.per {
			t.Errorf("ParseRate(%q) = %d, %s, %v", s, n, per, err)
		}
		if got := FormatRate(n, per); got != s {
			t.Errorf("FormatRate(%d, %s) = %q, want %q", n, per, got, s)
		}
	}
	for _, s := range []string{"", "10", "10/d", "0/m", "-1/m", "+1/m", "x/m", "1.5/m", "10/", "/m", "2000000000/s"} {
		if _, _, err := ParseRate(s); err == nil {
			t.Errorf("ParseRate(%q) accepted", s)
		}
	}
}

func TestParseTimeout(t *testing.T) {
	if d, err := ParseTimeout("1m30s"); err != nil || d != 90*time.Second {
		t.Errorf("1m30s: %s %v", d, err)
	}
	for _, s := range []string{"", "30", "0s", "-1s", "25h", "soon"} {
		if _, err := ParseTimeout(s); err == nil {
			t.Errorf("ParseTimeout(%q) accepted", s)
		}
	}
}

func TestParseTask(t *testing.T) {
	for _, s := range []string{"optional", "required"} {
		if got, err := ParseTask(s); err != nil || got != s {
			t.Errorf("ParseTask(%q) = %q, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "Optional", "always", "forbidden", "optional,required", " required"} {
		if _, err := ParseTask(s); err == nil {
			t.Errorf("ParseTask(%q) accepted", s)
		}
	}
}

func TestParseApproval(t *testing.T) {
	for _, s := range []string{"operator", "client"} {
		if got, err := ParseApproval(s); err != nil || got != s {
			t.Errorf("ParseApproval(%q) = %q, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "Operator", "user", "none", "operator,client", " client"} {
		if _, err := ParseApproval(s); err == nil {
			t.Errorf("ParseApproval(%q) accepted", s)
		}
	}
}
