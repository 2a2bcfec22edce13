package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgen-go/toolgen/internal/compile"
	"github.com/toolgen-go/toolgen/internal/fastcheck"
	"github.com/toolgen-go/toolgen/internal/typeschema"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

// ValidationIssue is one way in which arguments fail their schema.
type ValidationIssue struct {
	// Path is a JSON Pointer to the failing value ("" is the whole object).
	// For a missing or unexpected property it points at that property.
	Path string `json:"path"`
	// Message says what is wrong.
	Message string `json:"message"`
	// Keyword is the schema keyword that failed ("required", "maximum",
	// "type", ...). "format" marks a body that is not JSON and "schema" a
	// schema that does not compile.
	Keyword string `json:"keyword"`
}

// ValidationError reports arguments that a tool refused: they fail its
// input schema, or could not be read at all.
type ValidationError struct {
	Issues []ValidationIssue
	// Malformed is set when the arguments were not checked against the
	// schema because they are not acceptable JSON: not JSON at all, not
	// valid UTF-8, or nested too deeply. Its one issue says which.
	Malformed bool
}

// Error lists the issues, one a line.
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid arguments:")
	for _, is := range e.Issues {
		b.WriteString("\n- ")
		if is.Path == "" {
			b.WriteString("(root)")
		} else {
			b.WriteString(is.Path)
		}
		b.WriteString(": ")
		b.WriteString(is.Message)
		b.WriteString(" (")
		b.WriteString(is.Keyword)
		b.WriteString(")")
	}
	return b.String()
}

// anyObject is the schema of a tool that declares none.
var anyObject = json.RawMessage(`{"type":"object"}`)

// EffectiveInputSchema is the tool's input schema as every surface serves it: an
// empty one is any object.
func EffectiveInputSchema(t *Tool) json.RawMessage {
	if len(bytes.TrimSpace(t.InputSchema)) == 0 {
		return anyObject
	}
	return t.InputSchema
}

// compiledTool is what the server derives from a tool's schemas once, not
// per call: the input schema compiled, and how its structured results go
// out.
//
// A tool's schemas are derived when it is first used (called, listed,
// described), once, not at NewServer: start-up with a thousand tools does
// not pay for those it never serves. fast, when the schema is one
// fastcheck handles, lets valid arguments skip parseArgs and the
// validator (see checkArgs). Such a schema is known to compile, so its
// jsonschema compile waits further, for the first call that needs it; any
// other schema is compiled with the rest.
type compiledTool struct {
	src, outSrc string // the schemas it was derived from
	output      outputShape
	fast        *fastcheck.Checker

	// values are middleware's per-tool state (Outcome.ToolValue): the
	// metrics series of the tool's calls, found with the rest of what a
	// call looks up once.
	values valueList

	once     sync.Once
	compiles *atomic.Int64 // the cache's counter
	schema   *jsonschema.Schema
	err      error // the input schema does not compile
}

// outputShape is a tool's output schema as the protocols get it. MCP
// requires an object schema and object structured content, so any other
// output is wrapped as {"result": ...}, on every surface alike.
type outputShape struct {
	schema json.RawMessage // nil when the tool has none
	wrap   bool
}

// toolCache keeps each tool's compiledTool. A provider that returns a
// different schema for a tool gets it derived again: the source bytes are
// the key, compared on every call (a memory compare, no allocation).
type toolCache struct {
	mu       sync.RWMutex
	m        map[string]*compiledTool
	compiles atomic.Int64 // how many input schemas were compiled, for tests
}

func (c *toolCache) get(t *Tool) *compiledTool {
	src := EffectiveInputSchema(t)
	c.mu.RLock()
	ct := c.m[t.Name]
	c.mu.RUnlock()
	if ct != nil && ct.src == string(src) && ct.outSrc == string(t.OutputSchema) {
		return ct
	}
	ct = &compiledTool{src: string(src), outSrc: string(t.OutputSchema), output: shapeOutput(t.OutputSchema), compiles: &c.compiles}
	ct.fast = fastcheck.Compile(src, argLimits)
	c.mu.Lock()
	if c.m == nil {
		c.m = make(map[string]*compiledTool)
	}
	if old := c.m[t.Name]; old != nil && old.src == ct.src && old.outSrc == ct.outSrc {
		ct = old // a concurrent first use got there first: one jsonschema compile
	} else {
		c.m[t.Name] = ct
	}
	c.mu.Unlock()
	if ct.fast == nil {
		ct.compile()
	}
	return ct
}

// compile compiles the input schema, once.
func (cs *compiledTool) compile() {
	cs.once.Do(func() {
		cs.schema, cs.err = compile.Schema([]byte(cs.src))
		cs.compiles.Add(1)
	})
}

// prune forgets the tools a provider no longer has, once the cache has
// grown well past the current list (a provider whose tool names change
// would otherwise grow it without end).
func (c *toolCache) prune(tools []Tool) {
	c.mu.RLock()
	n := len(c.m)
	c.mu.RUnlock()
	if n <= 2*len(tools)+64 {
		return
	}
	keep := make(map[string]bool, len(tools))
	for i := range tools {
		keep[tools[i].Name] = true
	}
	c.mu.Lock()
	for name := range c.m {
		if !keep[name] {
			delete(c.m, name)
		}
	}
	c.mu.Unlock()
}

// shapeOutput is how a tool's structured results go out (see
// typeschema.ObjectOutput).
func shapeOutput(src json.RawMessage) outputShape {
	schema, wrap := typeschema.ObjectOutput(src)
	return outputShape{schema: schema, wrap: wrap}
}

// validate checks a decoded JSON value (numbers as json.Number) against the
// schema and returns the failing leaves, sorted by path.
func (cs *compiledTool) validate(v any) (issues []ValidationIssue) {
	cs.compile()
	if cs.err != nil {
		return []ValidationIssue{{Path: "", Message: "the tool's input schema does not compile: " + cs.err.Error(), Keyword: "schema"}}
	}
	// parseArgs keeps out what is known to crash the validator (numbers it
	// cannot represent); a panic from anything else must not take the
	// server down either.
	defer func() {
		if p := recover(); p != nil {
			issues = []ValidationIssue{{Path: "", Message: fmt.Sprintf("the arguments could not be validated: %v", p), Keyword: "schema"}}
		}
	}()
	err := cs.schema.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []ValidationIssue{{Path: "", Message: err.Error(), Keyword: "schema"}}
	}
	collectIssues(ve, &issues)
	sort.SliceStable(issues, func(i, j int) bool { return issues[i].Path < issues[j].Path })
	return issues
}

func collectIssues(ve *jsonschema.ValidationError, out *[]ValidationIssue) {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			collectIssues(c, out)
		}
		return
	}
	kw := ve.KeywordLocation[strings.LastIndexByte(ve.KeywordLocation, '/')+1:]
	switch kw {
	case "required":
		for _, name := range quotedNames(ve.Message) {
			*out = append(*out, ValidationIssue{Path: ve.InstanceLocation + "/" + jsoncheck.EscapePointer(name), Message: "missing required property", Keyword: kw})
		}
		return
	case "additionalProperties", "unevaluatedProperties":
		for _, name := range quotedNames(ve.Message) {
			*out = append(*out, ValidationIssue{Path: ve.InstanceLocation + "/" + jsoncheck.EscapePointer(name), Message: "unknown property", Keyword: kw})
		}
		return
	}
	*out = append(*out, ValidationIssue{Path: ve.InstanceLocation, Message: ve.Message, Keyword: kw})
}

// quotedNames extracts the property names that jsonschema/v5 lists in its
// "required" and "additionalProperties" messages: each is written as Go's %q
// with the double quotes left bare and single quotes escaped, between single
// quotes.
func quotedNames(msg string) []string {
	var names []string
	for i := 0; i < len(msg); i++ {
		if msg[i] != '\'' {
			continue
		}
		var raw strings.Builder
		j := i + 1
		for ; j < len(msg) && msg[j] != '\''; j++ {
			switch {
			case msg[j] == '\\' && j+1 < len(msg) && msg[j+1] == '\'':
				raw.WriteByte('\'')
				j++
			case msg[j] == '"':
				raw.WriteString(`\"`)
			case msg[j] == '\\' && j+1 < len(msg):
				raw.WriteByte('\\')
				raw.WriteByte(msg[j+1])
				j++
			default:
				raw.WriteByte(msg[j])
			}
		}
		if name, err := strconv.Unquote(`"` + raw.String() + `"`); err == nil {
			names = append(names, name)
		}
		i = j
	}
	return names
}

// OutputSchema is the output schema every surface serves for t: its own,
// with a scalar wrapped as {"result": ...} (MCP requires an object), or
// nil for none.
func (s *Server) OutputSchema(t *Tool) json.RawMessage {
	return s.compiled.get(t).output.schema
}

// WrapsOutput reports whether t's structured results are wrapped, as
// {"result": value}: MCP requires an object, and t's output schema
// describes something else.
func (s *Server) WrapsOutput(t *Tool) bool {
	return s.compiled.get(t).output.wrap
}
