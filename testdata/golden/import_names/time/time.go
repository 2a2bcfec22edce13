// Package time has the standard library's name: the import_names case's
// generated file imports both, and its Tools text refers to the standard
// one (a tool's timeout) by the name jennifer gave it.
package time

// Span is a length of time in whole days.
type Span struct {
	Days int `json:"days"`
}
