package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/toolgen-go/toolgen/internal/toolname"
	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// ValidToolName reports whether name is a valid tool name: 1 to 128 ASCII
// letters, digits, '_', '-' and '.', as MCP allows and the explorer's URLs
// need no escaping for.
func ValidToolName(name string) bool { return toolname.Valid(name) }

var (
	contentType  = reflect.TypeFor[Content]()
	contentsType = reflect.TypeFor[[]Content]()
	resultPtr    = reflect.TypeFor[*Result]()
)

// NewTool builds a [Tool] from a Go function by reflection, for tools made
// without the generator. The input and output schemas follow the rules
// toolgen applies to source (see the README), so that a function gives the
// same schemas either way, except for descriptions from doc comments, which
// only source has. Tags (json, jsonschema) apply as they do for toolgen. A
// type lists its enum values with a ToolgenEnum() []any method and gives its
// own schema with ToolgenSchema() json.RawMessage, the counterparts of the
// //toolgen:enum and //toolgen:schema directives.
//
// In must be a struct, or a pointer to one; its fields are the arguments.
// Out is converted as generated code converts it: a string is one text
// content; [Content], []Content and *[Result] are used as they are; any
// other type becomes structured content (its JSON also sent as text) and
// gets an output schema.
//
// The handler decodes the arguments into In with encoding/json; the server
// has validated them against the input schema first. Set Title,
// Annotations, Examples and the other descriptor fields on the result.
func NewTool[In, Out any](name, description string, fn func(context.Context, In) (Out, error)) (Tool, error) {
	if !ValidToolName(name) {
		return Tool{}, fmt.Errorf("runtime.NewTool: invalid tool name %q", name)
	}
	if fn == nil {
		return Tool{}, fmt.Errorf("runtime.NewTool %s: nil function", name)
	}
	inType := reflect.TypeFor[In]()
	st := inType
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() != reflect.Struct {
		return Tool{}, fmt.Errorf("runtime.NewTool %s: the input type %s must be a struct or a pointer to one", name, inType)
	}
	in, err := typeschema.ForType(typeschema.Reflect(st))
	if err != nil {
		return Tool{}, fmt.Errorf("runtime.NewTool %s: input: %w", name, err)
	}
	t := Tool{Name: name, Description: description}
	if t.InputSchema, err = in.MarshalJSON(); err != nil {
		return Tool{}, fmt.Errorf("runtime.NewTool %s: input: %w", name, err)
	}

	outType := reflect.TypeFor[Out]()
	if outType == reflect.TypeFor[Result]() {
		return Tool{}, fmt.Errorf("runtime.NewTool %s: return *runtime.Result, not runtime.Result", name)
	}
	convert, hint, structured := resultConverter[Out](outType)
	if structured {
		out, err := typeschema.ForOutput(typeschema.Reflect(outType))
		if err != nil {
			return Tool{}, fmt.Errorf("runtime.NewTool %s: result: %w", name, err)
		}
		if t.OutputSchema, err = out.MarshalJSON(); err != nil {
			return Tool{}, fmt.Errorf("runtime.NewTool %s: result: %w", name, err)
		}
	}
	t.Signature = typeschema.Signature(name, t.InputSchema, t.OutputSchema, hint)
	t.Handler = func(ctx context.Context, args json.RawMessage) (*Result, error) {
		var in In
		if err := DecodeArgs(args, &in); err != nil {
			return nil, err
		}
		out, err := fn(ctx, in)
		if err != nil {
			return nil, err
		}
		return convert(out)
	}
	return t, nil
}

// MustNewTool is [NewTool] that panics on an error, for tool lists built
// in package variables.
func MustNewTool[In, Out any](name, description string, fn func(context.Context, In) (Out, error)) Tool {
	t, err := NewTool(name, description, fn)
	if err != nil {
		panic(err)
	}
	return t
}

// resultConverter returns how a function's result becomes a [Result], the
// signature's result hint, and whether the result is structured.
func resultConverter[Out any](t reflect.Type) (func(Out) (*Result, error), string, bool) {
	switch {
	case t == contentType:
		return func(o Out) (*Result, error) { return ContentResult(any(o).(Content)), nil }, "content", false
	case t == contentsType:
		return func(o Out) (*Result, error) { return ContentResult(any(o).([]Content)...), nil }, "content", false
	case t == resultPtr:
		return func(o Out) (*Result, error) { return any(o).(*Result), nil }, "content", false
	case t.Kind() == reflect.String:
		return func(o Out) (*Result, error) { return TextResult(reflect.ValueOf(o).String()), nil }, "string", false
	}
	return func(o Out) (*Result, error) { return StructuredResult(o) }, "", true
}
