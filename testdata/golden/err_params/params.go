package params

import "context"

type In struct {
	// X.
	X string `json:"x"`
}

// Unknown names a parameter the function does not have.
//
//toolgen:tool
//toolgen:param y description="No such."
func Unknown(x string) error { return nil }

// Twice documents a parameter twice.
//
//toolgen:tool
//toolgen:param x description="One."
//toolgen:param x description="Two."
func Twice(x string) error { return nil }

// Struct takes a struct.
//
//toolgen:tool
//toolgen:param x description="A field."
func Struct(ctx context.Context, in In) error { return nil }

// Keys has a keyword that does not apply.
//
//toolgen:tool
//toolgen:param n description="N." minLength=1
func Keys(n int) error { return nil }

// Unknown key.
//
//toolgen:tool
//toolgen:param s description="S." fast
func UnknownKey(s string) error { return nil }

// A value of the wrong type.
//
//toolgen:tool
//toolgen:param b description="B." default=maybe
func WrongType(b bool) error { return nil }

// A quoted value that does not end.
//
//toolgen:tool
//toolgen:param s description="S.
func Unterminated(s string) error { return nil }

// NoName gives no name.
//
//toolgen:tool
//toolgen:param description="What?"
func NoName(x string) error { return nil }

// BadDefault has a default outside its bounds.
//
//toolgen:tool
//toolgen:param n description="N." minimum=1 default=0
func BadDefault(n int) error { return nil }

// NotATool has a param but no tool.
//
//toolgen:param x description="X."
func NotATool(x string) error { return nil }
