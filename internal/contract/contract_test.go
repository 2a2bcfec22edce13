package contract

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAllows(t *testing.T) {
	for _, c := range []struct {
		old, new string
		ok       bool
	}{
		{"1.0.0", "2.0.0", true},
		{"1.4.2", "2.0.0", true},
		{"1.0.0", "1.9.0", false},
		{"1.0.0", "1.0.0", false},
		{"0.3.0", "0.4.0", true}, // at 0.x, the minor
		{"0.3.0", "0.3.9", false},
		{"0.3.0", "1.0.0", true},
		{"v1.0.0", "v2.0.0", true},
		{"", "2.0.0", true}, // no version: DefaultVersion
		{"1.0.0", "two", false},
	} {
		ok, why := allows("version", c.old, c.new)
		if ok != c.ok || why == "" {
			t.Errorf("allows(%q, %q) = %v, %q; want %v", c.old, c.new, ok, why, c.ok)
		}
	}
	if _, why := allows("version", "0.3.0", "0.3.0"); !strings.Contains(why, "raise it to 0.4.0") {
		t.Errorf("at 0.x: %s", why)
	}
	if why := suggestMinor("1.2.3", "1.2.3"); !strings.Contains(why, "consider 1.3.0") {
		t.Errorf("suggestMinor: %s", why)
	}
	if why := suggestMinor("1.2.3", "1.3.0"); strings.Contains(why, "consider") {
		t.Errorf("suggestMinor with the minor raised: %s", why)
	}
}

func TestMarshalParse(t *testing.T) {
	l := &Lock{Toolkit: Toolkit{"K", "1.0.0"}, Tools: []Tool{
		{Name: "b", Version: "1.0.0", Input: json.RawMessage(`{"type":"object","properties":{"z":{},"a":{}}}`), Policy: Policy{Scopes: []string{"s"}, Timeout: "30s"}},
		{Name: "a", Version: "1.0.0", Input: json.RawMessage(`{"type":"object"}`), Annotations: map[string]bool{"readOnlyHint": true}},
	}}
	data, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if strings.Index(s, `"a": {`) > strings.Index(s, `"b": {`) || strings.Index(s, `"a": {}`) > strings.Index(s, `"z": {}`) {
		t.Errorf("keys not sorted:\n%s", s)
	}
	back, err := Parse("tools.lock", data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := back.Marshal()
	if string(again) != s {
		t.Errorf("not stable through Parse:\n%s\n%s", s, again)
	}
	if back.Tool("b").Policy.Timeout != "30s" || back.Tool("a") == nil || back.Tool("c") != nil {
		t.Errorf("parsed: %+v", back)
	}
	for data, want := range map[string]string{
		`{"lock": 2, "tools": {}}`:                    "x.lock:1:1: not a tools.lock of format 1",
		"{\n  \"lock\": 1,\n  \"tools\": 3\n}":        "x.lock:3:13: not a tools.lock: cannot unmarshal number",
		"{\n  \"lock\": 1,\n  \"extra\": true\n}":     "x.lock:3:3: not a tools.lock: unknown field",
		"{\n  \"lock\": 1,\n  \"tools\": {\"a\": x}}": "x.lock:3:18: not a tools.lock: invalid character 'x'",
	} {
		_, err := Parse("x.lock", []byte(data))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %s...", data, err, want)
		}
	}
}

// A compatible change leaves nothing refused; the annotations and policy
// rules are toolgen's own.
func TestCompareOwnRules(t *testing.T) {
	in := json.RawMessage(`{"type":"object"}`)
	old := &Lock{Toolkit: Toolkit{"K", "1.0.0"}, Tools: []Tool{{Name: "t", Version: "1.0.0", Input: in,
		Annotations: map[string]bool{"readOnlyHint": true}, Policy: Policy{Scopes: []string{"a"}, Approval: "client"}}}}
	new := &Lock{Toolkit: Toolkit{"K", "1.0.0"}, Tools: []Tool{{Name: "t", Version: "1.0.0", Input: in,
		Annotations: map[string]bool{"readOnlyHint": false, "destructiveHint": false}, Policy: Policy{Approval: "operator"}}}}
	changes, err := Compare(old, new)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, c := range changes {
		rules = append(rules, c.Rule+"/"+string(c.Class))
	}
	// Not read-only but not destructive either; a scope dropped; one
	// approval for another.
	want := "annotations-changed/compatible policy-changed/other policy-changed/other"
	if strings.Join(rules, " ") != want || len(Refused(changes)) != 0 {
		t.Errorf("rules %v, want %s", rules, want)
	}
}
