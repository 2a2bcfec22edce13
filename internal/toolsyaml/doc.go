// Package toolsyaml reads a schema-first tools.yaml (DESIGN.md, "Input 2")
// into a checked model: every key known, every value of the right type,
// every schema compiled against JSON Schema draft 2020-12, each error
// positioned as file:line:col. Schemas are kept exactly as written, key
// order included, as JSON.
package toolsyaml
