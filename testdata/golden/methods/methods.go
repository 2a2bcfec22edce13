// Package methods covers tool methods: //toolgen:tool on methods of named
// types, with pointer and value receivers, beside a plain function.
package methods

import (
	"context"
	"fmt"
	"strings"
)

// Store holds the notes its tools read and write: what a database handle
// or a client would be in a real server.
type Store struct {
	Notes  map[string]string
	Prefix string
}

// NoteInput names a note.
type NoteInput struct {
	// Key of the note.
	Key string `json:"key"`
}

// Get returns a note.
//
//toolgen:tool name=get_note readonly
func (s *Store) Get(ctx context.Context, in NoteInput) (string, error) {
	n, ok := s.Notes[in.Key]
	if !ok {
		return "", fmt.Errorf("no note %q", in.Key)
	}
	return s.Prefix + n, nil
}

// Put saves a note. A flat-parameter method.
//
//toolgen:tool name=put_note idempotent
func (s *Store) Put(key, text string) error {
	s.Notes[key] = text
	return nil
}

// Count counts the notes; a value receiver.
//
//toolgen:tool name=count_notes
func (s Store) Count() int { return len(s.Notes) }

// Greeter is a second type with a tool method.
type Greeter string

// Greet greets someone with the greeter's greeting.
//
//toolgen:tool
func (g Greeter) Greet(ctx context.Context, in NoteInput) (string, error) {
	return string(g) + ", " + in.Key, nil
}

// Shout is a plain function, served by the package's Tools.
//
//toolgen:tool
func Shout(ctx context.Context, in NoteInput) (string, error) { return strings.ToUpper(in.Key), nil }

// NotATool is a method without a directive.
func (s *Store) NotATool() {}
