// Package typeschema holds toolgen's one rule set for turning Go types into
// JSON Schemas (draft 2020-12), and for rendering a tool's compact signature
// from its schemas.
//
// The rules run over the [Type] interface, which the generator implements
// with go/types (and reads doc comments and directives from source) and the
// runtime implements with reflect. Keeping the rules here, behind that
// interface, is what makes a schema generated at build time identical to one
// built at run time for the same Go type.
//
// The package imports only the standard library: the runtime, and so every
// generated server, depends on it. That is also why its [Schema] is its own
// small model rather than invopop/jsonschema's: the generator's
// dependencies must not reach a server binary, and the same model has to
// serve both sides. It writes keywords in a fixed order, so schemas are
// deterministic and property order is field order.
package typeschema
