package gen

import (
	"encoding/json"
	"go/token"
	"time"
)

// The model: what the loaders produce and the emitter writes out. Loading Go
// (load.go, over go/packages) and loading a tools.yaml (yaml.go) each give
// a *unit; the emitter (emit*.go) sees nothing else. Everything in it is
// plain data: Go types are rendered at load time into typeExprs, schemas are
// JSON, and no go/types value or YAML node is kept, as stringer's loader
// returns its own values and sqlc's code generators see one request value.

// runtimePath is the import path of the runtime, which generated code
// calls (the generator itself does not import it).
const runtimePath = "github.com/toolgen-go/toolgen/runtime"

// unit is the model of one generated file: a package's tools and prompts.
type unit struct {
	path    string // the output file
	pkgName string
	pkgPos  token.Position // a tools.yaml's package: (its first line when defaulted)
	pkgPath string         // import path; "" for a tools.yaml, whose own types are unqualified
	source  string         // what it was generated from, for the header
	kit     toolkit

	tools   []*tool
	prompts []*prompt
	// forms are the types the package asks for with runtime.ElicitAs
	// (forms.go), in the order of their first call.
	forms []*form
	// receivers are the named types whose methods are tools, in the order
	// of their first tool: each gets a Tools method (code-first).
	receivers []*receiver
	// defaultFuncs are the functions that apply defaults after decoding
	// (see defaults.go), each once.
	defaultFuncs []*objDefaults

	// imports names the packages the file's typeExprs refer to, by path.
	imports map[string]importName

	// Code-first: the guards that make the file fail to compile once the
	// code it was generated from changed.
	guards []guard

	// Schema-first: h is a Handlers value whose methods serve the tools,
	// and decls are the Go types of the schemas.
	handlers bool
	decls    []*declaredType
}

// importName is the name a generated file refers to a package by: its own
// name, or an alias where that name is taken in the generating package.
type importName struct {
	name  string
	alias bool
}

// tool is one tool's descriptor and the call behind it.
type tool struct {
	name, title, description string
	version, toolkit         string
	annotations              annotations
	input, output            json.RawMessage // compact JSON
	examples                 []json.RawMessage
	secrets                  []string // the ids of the secrets it declares
	scopes                   []string // the scopes a caller needs to see and call it
	rate                     rateLimit
	timeout                  time.Duration // zero: the server's CallTimeout
	approval                 string        // who approves each call: "operator", "client"; "" for nobody
	task                     string        // whether MCP calls run as tasks: "optional", "required"; "" never
	signature                string
	pos                      token.Position

	idents idents // the names of its generated pieces
	call   *call
	// recv is the type whose method the tool is, or nil for a function
	// of the package (and for a tools.yaml tool).
	recv *receiver
}

// receiver is a named type with tool methods: (*T).Tools lists them,
// each handler calling the method on the Tools method's receiver.
type receiver struct {
	name string    // T
	ptr  *typeExpr // *T
}

// funcTools reports whether the file has a package-level Tools: for
// tools.yaml always; code-first, for its function tools, or when there are
// no method tools either (a package whose tools were removed keeps an
// empty Tools).
func (u *unit) funcTools() bool {
	if u.handlers || len(u.receivers) == 0 {
		return true
	}
	for _, t := range u.tools {
		if t.recv == nil {
			return true
		}
	}
	return false
}

type annotations struct {
	readOnly, destructive, idempotent, openWorld *bool
}

func (a annotations) empty() bool {
	return a.readOnly == nil && a.destructive == nil && a.idempotent == nil && a.openWorld == nil
}

// prompt is an MCP prompt: a //toolgen:prompt function, or a tools.yaml
// template.
type prompt struct {
	name, title, description string
	args                     []promptArg
	pos                      token.Position

	idents   idents
	call     *call  // code-first
	template string // schema-first: a text/template over the arguments
}

type promptArg struct {
	name, description string
	required          bool
}

// idents are the package-level names of one tool's or prompt's generated
// pieces (see names.go).
type idents struct {
	input, output string // the schema constants (tools)
	handler       string // the handler function
	decode        string // the arguments' decoder, when it has one
	encode        string // the structured result's encoder, when it has one
}

// call is how a handler reaches the Go code behind a tool or prompt: it
// decodes the arguments into in and calls fn with them.
type call struct {
	// recv names the value whose method is called: "h", a Handlers
	// (tools.yaml), or "t", a *T (a tool method of T); "" for a function
	// of the package. recvType is its type.
	recv     string
	recvType *typeExpr
	// bound: the handler is a plain function of (ctx, recv, args), made a
	// runtime.Handler by the file's toolgenBind, rather than a function
	// of recv returning a closure (tools.yaml's tools; see emitBind).
	bound bool
	fn    string
	ctx   bool      // pass the context first
	in    *typeExpr // what the arguments decode into; nil for none
	inPtr bool      // pass &in
	// spread lists the fields of in passed as arguments, in order: the
	// flat form, whose in is a struct of the parameters. Empty: pass in.
	spread []string
	result resultKind
	res    *typeExpr // the result type, or nil
	err    bool      // the last result is an error
	// defaults are the defaults of in's properties, or nil for none.
	defaults *objDefaults
	// read is how the decoder decode reads in (decode.go); nil when in is
	// left to runtime.DecodeArgs alone. write is how the encoder encode
	// writes a structured result (encode.go); nil when it is left to
	// runtime.StructuredResult alone. Tools of one type share one
	// decoder (encoder), which the first of them declares.
	read, write                    *jsonPlan
	decode, encode                 *codec
	declaresDecode, declaresEncode bool
}

// resultKind is how a function's result becomes a tool or prompt result.
type resultKind int

const (
	resultNone       resultKind = iota // the function returns only an error, or nothing
	resultText                         // a string type: one text content (or a text prompt)
	resultContent                      // runtime.Content
	resultContents                     // []runtime.Content
	resultResult                       // *runtime.Result, as is
	resultStructured                   // anything else: structured content and an output schema
	resultMessages                     // []runtime.PromptMessage (prompts)
)

// typeExpr is a Go type expression as plain data, enough to write it out.
type typeExpr struct {
	kind typeKind
	// exprNamed: the package's import path ("" for a predeclared type or
	// one the generated file declares) and the name; type arguments.
	path, name string
	args       []*typeExpr
	elem       *typeExpr // exprPointer, exprSlice, exprArray, exprMap, exprChan
	key        *typeExpr // exprMap
	len        int64     // exprArray
	dir        chanDir   // exprChan
	fields     []field   // exprStruct
	// exprFunc: parameter and result types; variadic: the last parameter
	// is ...elem of its slice type.
	params, results []*typeExpr
	variadic        bool
}

type typeKind int

const (
	exprNamed typeKind = iota
	exprPointer
	exprSlice
	exprArray
	exprMap
	exprChan
	exprStruct
	exprFunc
	exprAny // interface{}
)

type chanDir int

const (
	chanBoth chanDir = iota
	chanSend
	chanRecv
)

// field is a struct field of a typeExpr or a typeDecl.
type field struct {
	name     string // "" when embedded
	typ      *typeExpr
	tag      string // the raw struct tag
	doc      string // declarations only
	embedded bool
}

func named(path, name string) *typeExpr { return &typeExpr{kind: exprNamed, path: path, name: name} }

// isString reports whether t is the predeclared string type.
func (t *typeExpr) isString() bool { return t.kind == exprNamed && t.path == "" && t.name == "string" }

// guard is `var _ typ = value`: it compiles only while typ is what it was
// when the file was generated.
type guard struct {
	typ *typeExpr
	// Exactly one of: the struct type typ had (written as its zero
	// value), or the function that must still have type typ.
	structure *typeExpr
	fn        string
}

// declaredType is a named type the generated file declares (schema-first).
type declaredType struct {
	name       string
	doc        string      // its doc comment, a sentence that starts with name
	fields     []field     // a struct type
	underlying *typeExpr   // else: type name underlying
	alias      bool        // type name = underlying
	consts     []enumConst // an enum's values
}

// enumConst is an enum value: the constant's name, its Go literal and its
// doc comment.
type enumConst struct {
	name, literal, doc string
}

// rateLimit is a tool's declared rate limit: n calls per period, per
// caller; zero when it declares none.
type rateLimit struct {
	n   int
	per time.Duration
}
