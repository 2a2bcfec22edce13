// Package contract holds the tools' contract with their callers: the lock
// file (tools.lock) that records every tool's name, version, annotations,
// policy and schemas, and the comparison of two locks that names each
// change, classifies it (breaking, compatible, other) and says whether the
// versions allow it. toolgen -lock writes the lock, toolgen -check compares
// the tools with it, toolgen -diff prints the comparison.
//
// The schema rules are oasdiff's (github.com/oasdiff/oasdiff), run on the
// OpenAPI document toolgen emits for the tools (internal/openapi); see
// schema.go for how its findings become toolgen's rules, and where a rule
// is toolgen's own and why.
package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// FileName is the lock's name, beside the generated file.
const FileName = "tools.lock"

// Format is the lock's format version, its "lock" member.
const Format = 1

// DefaultVersion is a tool's version when neither the tool nor its toolkit
// declares one, as the runtime serves it.
const DefaultVersion = "1.0.0"

// Lock is the contract of one generated file's tools.
type Lock struct {
	// Toolkit is the toolkit's name and version: the version that must be
	// raised to remove or rename a tool.
	Toolkit Toolkit `json:"toolkit"`
	// Tools are sorted by name.
	Tools []Tool `json:"tools"`
}

// Toolkit names the toolkit and its version (DefaultVersion when it
// declares none).
type Toolkit struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Tool is one tool's contract.
type Tool struct {
	// Name is the tool's key in the lock's "tools" object.
	Name    string `json:"-"`
	Version string `json:"version"`
	// Annotations are the MCP hints the tool declares, by their MCP names
	// (readOnlyHint, destructiveHint, idempotentHint, openWorldHint).
	Annotations map[string]bool `json:"annotations,omitempty"`
	Policy      Policy          `json:"policy"`
	// Input is the input schema; Output the output schema as MCP serves
	// it (an object schema), or empty for a tool without one.
	Input  json.RawMessage `json:"input"`
	Output json.RawMessage `json:"output,omitempty"`
}

// Policy is what the pipeline enforces on every call of the tool.
type Policy struct {
	Scopes    []string `json:"scopes,omitempty"`
	Approval  string   `json:"approval,omitempty"`  // "operator", "client"
	Task      string   `json:"task,omitempty"`      // "optional", "required"
	RateLimit string   `json:"ratelimit,omitempty"` // "10/m"
	Timeout   string   `json:"timeout,omitempty"`   // "30s"
}

// Tool returns the tool named name, or nil.
func (l *Lock) Tool(name string) *Tool {
	for i := range l.Tools {
		if l.Tools[i].Name == name {
			return &l.Tools[i]
		}
	}
	return nil
}

// Marshal returns the lock in its canonical form: indented JSON, every
// object's keys sorted (the schemas' too), "tools" an object of one block
// a tool by name, so that a change to one tool is a diff of its lines
// only, under its name.
func (l *Lock) Marshal() ([]byte, error) {
	tools := map[string]Tool{}
	for _, t := range l.Tools {
		tools[t.Name] = t
	}
	raw, err := json.Marshal(struct {
		Lock    int             `json:"lock"`
		Toolkit Toolkit         `json:"toolkit"`
		Tools   map[string]Tool `json:"tools"`
	}{Format, l.Toolkit, tools})
	if err != nil {
		return nil, err
	}
	// Through any: encoding/json writes a map's keys sorted.
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Parse reads a lock. name is what errors call it (a path, or
// "git:REV:path"); an error is "name:line:col: message".
func Parse(name string, data []byte) (*Lock, error) {
	var l struct {
		Lock    *int            `json:"lock"`
		Toolkit Toolkit         `json:"toolkit"`
		Tools   map[string]Tool `json:"tools"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		off := dec.InputOffset()
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case err == io.ErrUnexpectedEOF:
			off = int64(len(data))
		case asErr(err, &se):
			off = se.Offset - 1 // the offending byte
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			key := strings.TrimPrefix(err.Error(), "json: unknown field ")
			if i := bytes.Index(data, []byte(key)); i >= 0 {
				off = int64(i)
			}
		case asErr(err, &te):
			off = te.Offset
		}
		line, col := lineCol(data, off)
		return nil, fmt.Errorf("%s:%d:%d: not a tools.lock: %s", name, line, col, strings.TrimPrefix(err.Error(), "json: "))
	}
	if l.Lock == nil || *l.Lock != Format {
		got := "none"
		if l.Lock != nil {
			got = fmt.Sprint(*l.Lock)
		}
		return nil, fmt.Errorf("%s:1:1: not a tools.lock of format %d (its \"lock\" member: %s); regenerate it with toolgen -lock", name, Format, got)
	}
	lock := &Lock{Toolkit: l.Toolkit}
	for _, name := range sortedKeys(l.Tools) {
		t := l.Tools[name]
		t.Name = name
		lock.Tools = append(lock.Tools, t)
	}
	return lock, nil
}

func asErr[T error](err error, target *T) bool {
	t, ok := err.(T)
	if ok {
		*target = t
	}
	return ok
}

// lineCol is the 1-based line and column of byte offset off in data.
func lineCol(data []byte, off int64) (int, int) {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}
