// Package main: an error in a type is reported once at its position,
// however many tools and fields reach the type, with its type's name as
// every message spells it (no package qualifier for the package's own
// types); an unknown directive is named as one.
package main

import "context"

// ListFilter filters a listing.
type ListFilter struct {
	// Query to match.
	Query string `json:"query" jsonschema:"pattern=([a-z]"`
}

// SearchInput searches.
type SearchInput struct {
	// Filter to apply.
	Filter ListFilter `json:"filter"`
	// More filters.
	More []ListFilter `json:"more,omitempty"`
}

// Paging pages a listing.
type Paging struct {
	// Limit of results.
	Limit int `json:"limit,omitempty" jsonschema:"minimum=0,default=-1"`
}

// PagedInput pages.
type PagedInput struct {
	// Page to show.
	Page Paging `json:"page"`
}

// List lists.
//
//toolgen:tool
func List(ctx context.Context, in ListFilter) (string, error) { return "", nil }

// Search searches.
//
//toolgen:tool
func Search(ctx context.Context, in SearchInput) (string, error) { return "", nil }

// Find finds.
//
//toolgen:tool
func Find(ctx context.Context, in struct {
	// Where to look.
	Where ListFilter `json:"where"`
}) (string, error) {
	return "", nil
}

// Page pages.
//
//toolgen:tool
func Page(ctx context.Context, in Paging) (string, error) { return "", nil }

// Paged pages too.
//
//toolgen:tool
func Paged(ctx context.Context, in PagedInput) (string, error) { return "", nil }

// Typo has a typo in its directive.
//
//toolgen:tol
func Typo(ctx context.Context, in Paging) (string, error) { return "", nil }

func main() {}
