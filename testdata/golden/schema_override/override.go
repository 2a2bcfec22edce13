// Package override covers //toolgen:schema for types with custom JSON, and
// encoding.TextMarshaler types, which are JSON strings.
package override

import (
	"context"
	"encoding/json"
	"net/netip"
	"strings"
)

// Version is written as "major.minor".
//
//toolgen:schema {"type": "string", "pattern": "^[0-9]+\\.[0-9]+$"}
type Version struct {
	Major, Minor int
}

func (v Version) MarshalJSON() ([]byte, error) {
	return json.Marshal(itoa(v.Major) + "." + itoa(v.Minor))
}

func (v *Version) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	maj, min, _ := strings.Cut(s, ".")
	v.Major, v.Minor = atoi(maj), atoi(min)
	return nil
}

// Flag is true or false or "auto".
//
//toolgen:schema {"anyOf": [{"type": "boolean"}, {"const": "auto"}]}
type Flag json.RawMessage

type Input struct {
	// The version to pin.
	Version Version    `json:"version"`
	Old     *Version   `json:"old,omitempty" jsonschema:"nullable"`
	Flag    Flag       `json:"flag"`
	Addr    netip.Addr `json:"addr"`
}

// Pin pins a version.
//
//toolgen:tool
func Pin(ctx context.Context, in Input) (Version, error) { return in.Version, nil }

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func atoi(s string) int {
	var n int
	_ = json.Unmarshal([]byte(s), &n)
	return n
}
