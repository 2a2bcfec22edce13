package gen

import (
	"encoding/json"
	"go/token"
	"go/types"
)

// The model both inputs are read into and the emitter writes out. Code-first
// and schema-first differ only in how a tool is dispatched.

// unit is one generated file: a package's tools.
type unit struct {
	path    string // the output file
	pkgName string
	pkgPath string // import path ("" when unknown, for a tools.yaml)
	source  string // what it was generated from, for the header
	tools   []*tool
	prompts []*prompt

	// Schema-first only.
	yaml *yamlUnit
}

// tool is one tool's descriptor and how to call it.
type tool struct {
	name, title, description string
	version, toolkit         string
	annotations              annotations
	input, output            json.RawMessage // compact JSON
	examples                 []json.RawMessage
	signature                string
	pos                      token.Position

	fn *funcCall // code-first
}

type annotations struct {
	readOnly, destructive, idempotent, openWorld *bool
}

func (a annotations) empty() bool {
	return a.readOnly == nil && a.destructive == nil && a.idempotent == nil && a.openWorld == nil
}

// resultKind is how a function's result becomes a tool result.
type resultKind int

const (
	resultNone       resultKind = iota // the function returns only an error, or nothing
	resultText                         // string: one text content
	resultContent                      // runtime.Content
	resultContents                     // []runtime.Content
	resultResult                       // *runtime.Result, as is
	resultStructured                   // anything else: structured content and an output schema
)

// funcCall is a code-first tool's Go function.
type funcCall struct {
	name    string
	ctx     bool         // takes a context.Context first
	input   types.Type   // the struct form: the input type (without pointer)
	inPtr   bool         // ... passed as a pointer
	params  []*types.Var // the flat form: the named parameters
	result  resultKind
	resType types.Type
	err     bool // returns an error last
}

// prompt is an MCP prompt: from a //toolgen:prompt function, or a
// tools.yaml template.
type prompt struct {
	name, title, description string
	args                     []promptArg
	pos                      token.Position

	fn       *promptCall // code-first
	template string      // schema-first: a text/template over the arguments
}

type promptArg struct {
	name, description string
	required          bool
}

// promptCall is a //toolgen:prompt function:
// func(ctx context.Context, in T) (string | []runtime.PromptMessage, error).
type promptCall struct {
	name     string
	ctx      bool
	input    types.Type // the struct type of in
	inPtr    bool
	messages bool // returns []runtime.PromptMessage rather than a string
	err      bool
}
