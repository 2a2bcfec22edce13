// Package defaults covers defaults applied to what a call leaves out:
// prefilled for plain values reached through struct values, and set after
// decoding for objects in arrays, maps and pointers, recursive types,
// embedded pointers and defaults that are not plain values.
package defaults

import (
	"context"
	"encoding/json"
	"time"
)

// Level is a log level.
//
//toolgen:enum
type Level string

const (
	Info  Level = "info"
	Debug Level = "debug"
)

// Paging is embedded by value.
type Paging struct {
	// Page to return.
	Page int `json:"page,omitempty" jsonschema:"default=1"`
}

// Format is nested by value.
type Format struct {
	// Indent of the output.
	Indent int `json:"indent,omitempty" jsonschema:"default=2"`
	// Pretty prints with colour.
	Pretty bool `json:"pretty,omitempty" jsonschema:"default=true"`
}

// SearchInput has only plain defaults through struct values: prefilled.
type SearchInput struct {
	Paging
	// Query to run.
	Query string `json:"query"`
	// Level of the log lines.
	Level Level `json:"level,omitempty" jsonschema:"default=info"`
	// Limit of results; 0 means none.
	Limit int `json:"limit,omitempty" jsonschema:"default=10"`
	// Ratio is a float.
	Ratio float32 `json:"ratio,omitempty" jsonschema:"default=0.5"`
	// Scale is a float whose default has an exponent, written E.
	Scale float64 `json:"scale,omitempty" jsonschema:"default=2.5E3"`
	// Count is sent as a string.
	Count int64 `json:"count,omitempty,string" jsonschema:"default=7"`
	// Tally is sent as a string, and may be left out: its default is
	// decoded (json.Unmarshal does not apply ",string").
	Tally *int64 `json:"tally,omitempty,string" jsonschema:"default=9"`
	// Format of the output.
	Format Format `json:"format,omitzero"`
}

// last is the input of the last call, as the tool saw it (for the test).
var last any

// Search records what it got.
//
//toolgen:tool
func Search(ctx context.Context, in SearchInput) error { last = in; return nil }

// Item is an element of an array.
type Item struct {
	// Name of the item.
	Name string `json:"name"`
	// Qty ordered.
	Qty int `json:"qty,omitempty" jsonschema:"default=1"`
	// Options of the item.
	Options *Options `json:"options,omitempty"`
}

// Options hang off a pointer.
type Options struct {
	// Gift wraps the item.
	Gift bool `json:"gift,omitempty" jsonschema:"default=true"`
	// Note on the wrapping.
	Note string `json:"note,omitempty" jsonschema:"default=none"`
}

// Extra is embedded through a pointer.
type Extra struct {
	// Channel the order came in.
	Channel string `json:"channel,omitempty" jsonschema:"default=web"`
}

// OrderInput has defaults in array items, map values and pointers.
type OrderInput struct {
	*Extra
	// Items ordered.
	Items []Item `json:"items"`
	// Boxes ordered, by label.
	Boxes map[string]Item `json:"boxes,omitempty"`
	// Grid of items.
	Grid [][2]*Item `json:"grid,omitempty"`
	// Shipping options.
	Shipping *Options `json:"shipping,omitempty"`
	// Tags default to a list.
	Tags []string `json:"tags,omitempty" jsonschema:"default=[\"new\"]"`
	// Due defaults to a time.
	Due time.Time `json:"due,omitzero" jsonschema:"default=2026-01-02T03:04:05Z"`
	// Meta is anything.
	Meta any `json:"meta,omitempty" jsonschema:"default={\"a\":1}"`
	// Raw is kept as JSON.
	Raw json.RawMessage `json:"raw,omitempty" jsonschema:"default=[1]"`
	// Retries is a pointer with a plain default.
	Retries *int `json:"retries,omitempty" jsonschema:"default=3"`
	// First item, with a default object whose own defaults apply too.
	First Item `json:"first,omitzero" jsonschema:"default={\"name\":\"sample\"}"`
}

// Order records what it got.
//
//toolgen:tool
func Order(ctx context.Context, in *OrderInput) error { last = in; return nil }

// Node is recursive.
type Node struct {
	// Label of the node.
	Label string `json:"label,omitempty" jsonschema:"default=leaf"`
	// Children of the node.
	Children []Node `json:"children,omitempty"`
}

// Tree records what it got.
//
//toolgen:tool
func Tree(ctx context.Context, in Node) error { last = in; return nil }

// Comments are a named list of a struct that holds the list again: the
// defaults reach every level.
type Comments []Comment

// Comment is one comment and its replies.
type Comment struct {
	// Votes of the comment.
	Votes int `json:"votes,omitempty" jsonschema:"default=1"`
	// Replies to it.
	Replies Comments `json:"replies,omitempty"`
}

// ThreadInput is a thread of comments.
type ThreadInput struct {
	// Comments of the thread.
	Comments Comments `json:"comments"`
}

// Thread records what it got.
//
//toolgen:tool
func Thread(ctx context.Context, in ThreadInput) error { last = in; return nil }

// Store has a tool method whose input has defaults.
type Store struct{}

// Get records what it got.
//
//toolgen:tool name=store_get
func (s *Store) Get(ctx context.Context, in SearchInput) error { last = in; return nil }
