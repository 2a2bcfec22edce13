package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
)

// Questions in a tool's own Go types. A tool asks its user for a T with
// ElicitAs[T]; toolgen finds the call when it generates the package that
// declares T, writes T's form (its JSON Schema, from the type's fields,
// doc comments and tags, as it writes a tool input's, and a decoder
// without reflection) and registers it when the package is initialised.
// At run time nothing looks at T's fields: ElicitAs asks with the
// registered schema, checks the answer against it and decodes it into a T.

// Form is what ElicitAs needs of a T: the JSON Schema the client shows the
// user (a flat object of strings, numbers, booleans and enums, as MCP
// allows) and the decoder of an answer. toolgen generates one for every T
// a package asks for and registers it with [RegisterForm]; a program may
// register its own for a type toolgen does not see.
type Form[T any] struct {
	// Schema is the requested schema.
	Schema json.RawMessage
	// Decode reads an answer (plain JSON that fits Schema) into v and
	// reports whether it could; false leaves v as it was, and the answer
	// is decoded with encoding/json instead. Nil: always encoding/json.
	Decode func(data []byte, v *T) bool
}

// formKey is the registry's key for the form of a T: a distinct type for
// each T, so that no reflection is needed to tell them apart.
type formKey[T any] struct{}

// registeredForm is a Form with its compiled schema.
type registeredForm[T any] struct {
	Form[T]
	check *compiledTool
}

// forms holds the registered forms, by formKey.
var forms sync.Map

// formCompiles counts the forms' schema compilations (compiledTool wants
// a counter; nothing reads this one).
var formCompiles atomic.Int64

// RegisterForm registers the form ElicitAs[T] asks with, replacing any
// registered before. Generated code calls it from an init function.
func RegisterForm[T any](f Form[T]) {
	forms.Store(formKey[T]{}, &registeredForm[T]{Form: f, check: &compiledTool{src: string(f.Schema), compiles: &formCompiles}})
}

// FormOf returns the form registered for T.
func FormOf[T any]() (Form[T], bool) {
	f, ok := forms.Load(formKey[T]{})
	if !ok {
		return Form[T]{}, false
	}
	return f.(*registeredForm[T]).Form, true
}

// ElicitAs asks the user, through the client, for a T, showing message:
// the form is T's (see [Form]), and an accepted answer is checked against
// it and decoded into the T returned. The Elicitation says what the user
// did: on "decline" or "cancel" the T is the zero value. It asks the way
// [Elicit] does, so it works on whatever path a question takes: in an MCP
// session, in a 2026-07-28 input-required round (an error wrapping
// [ErrInputRequired] until the client has answered), from a task.
//
// An answer that does not fit the form fails with a *[ValidationError]
// (the client should have checked it). A T without a registered form
// fails at once: run toolgen in the package that declares T.
func ElicitAs[T any](ctx context.Context, message string) (T, *Elicitation, error) {
	var zero T
	v, ok := forms.Load(formKey[T]{})
	if !ok {
		return zero, nil, fmt.Errorf("runtime.ElicitAs: no form for %T: run toolgen (go generate) in the package that declares it", zero)
	}
	f := v.(*registeredForm[T])
	e, err := Elicit(ctx, message, f.Schema)
	if err != nil || e == nil || e.Action != "accept" {
		return zero, e, err
	}
	content := e.Content
	if content == nil {
		content = map[string]any{}
	}
	b, err := json.Marshal(content)
	if err != nil {
		return zero, e, fmt.Errorf("runtime.ElicitAs: the answer does not encode: %w", err)
	}
	if err := f.validate(b); err != nil {
		return zero, e, err
	}
	var out T
	if f.Decode != nil && f.Decode(b, &out) {
		return out, e, nil
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return zero, e, &ValidationError{Issues: []ValidationIssue{{Path: "", Message: "the answer does not fit the form", Keyword: "type"}}}
	}
	return out, e, nil
}

// validate checks an answer against the form's schema, as a tool's
// arguments are checked against its input schema.
func (f *registeredForm[T]) validate(b []byte) error {
	v, problem, issues := parseArgs(b)
	if problem != nil {
		return &ValidationError{Malformed: true, Issues: []ValidationIssue{{Path: "", Message: problem.msg, Keyword: "format"}}}
	}
	if len(issues) == 0 {
		issues = f.check.validate(v)
	}
	if len(issues) > 0 {
		return &ValidationError{Issues: issues}
	}
	return nil
}
