// Package norm holds the rules every history store applies to what it is
// given, so that the memory, SQLite and PostgreSQL stores return the same
// record for the same input. It works on plain values, not on
// history.Record, so that package history itself can use it.
package norm

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Time is t as stores keep it: in UTC, truncated to the millisecond. The
// databases keep milliseconds at best (SQLite as Unix milliseconds), so
// every store truncates, the memory store too: a record reads back the same
// from all of them. It is t.UTC().Truncate(time.Millisecond) (a millisecond
// divides a second, so cutting the nanoseconds is the rounding down), which
// also drops the monotonic clock reading, without Truncate's general
// division: the memory store normalises three times a call.
func Time(t time.Time) time.Time {
	return time.Unix(t.Unix(), int64(t.Nanosecond()/1e6*1e6)).UTC()
}

// TimePtr is Time for an optional time; nil stays nil.
func TimePtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	c := Time(*t)
	return &c
}

// Text is s with every run of invalid UTF-8 and every NUL byte replaced by
// U+FFFD. PostgreSQL's text holds neither, and a store must not fail a call
// (or lose its record) because a tool name or an error message came from a
// malformed request; the other stores do the same so that all agree.
func Text(s string) string {
	if ascii(s) || utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// TextPtr is Text for an optional string, copied; nil stays nil.
func TextPtr(s *string) *string {
	if s == nil {
		return nil
	}
	c := Text(*s)
	return &c
}

// JSON is a private copy of a JSON document, kept byte for byte (not
// re-encoded: key order, spacing, big numbers and escapes such as \u0000
// survive). Empty means absent: nil. Invalid UTF-8 and raw NUL bytes, which
// valid JSON cannot contain, are replaced as in Text.
func JSON(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	if !Plain(b) {
		return bytes.ReplaceAll(bytes.ToValidUTF8(b, []byte("\uFFFD")), []byte{0}, []byte("\uFFFD"))
	}
	return bytes.Clone(b)
}

// Plain reports whether JSON keeps b as it is: valid UTF-8 without a NUL
// byte. A store that copies b anyway may copy it without JSON's copy.
func Plain(b []byte) bool {
	return ascii(b) || utf8.Valid(b) && bytes.IndexByte(b, 0) < 0
}

// ascii reports whether s is ASCII without a NUL byte, which Text and
// Plain keep as it is: what ids, names and nearly all JSON are. It reads
// eight bytes at a time, in one pass where utf8.Valid and IndexByte take
// two; a store checks four strings and two JSON texts a call.
func ascii[T string | []byte](s T) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for len(s) >= 8 {
		x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		// A byte of 0 borrows in x-lo and sets its top bit; one of 0x80
		// or more has it set in x. No other byte sets it in either.
		if (x-lo|x)&hi != 0 {
			return false
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0 || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Statuses, as package history spells them (it cannot be imported here).
const (
	pending = "pending"
	success = "success"
	failed  = "failed"
	expired = "expired" // a human request's (history.RequestExpired)
)

// ErrNoID is returned for a record without an id.
var ErrNoID = errors.New("history: record has no id")

// StartStatus checks a record given to Start and returns the status to
// store: Start records a pending invocation, so an empty status means
// pending and any other is a caller's bug worth reporting.
func StartStatus(id, status string) (string, error) {
	if id == "" {
		return "", ErrNoID
	}
	if status != "" && status != pending {
		return "", fmt.Errorf("history: Start of %q with status %q, want %q", id, status, pending)
	}
	return pending, nil
}

// FinishStatus checks a record given to Finish: a finished invocation
// succeeded or failed.
func FinishStatus(id, status string) error {
	if id == "" {
		return ErrNoID
	}
	if status != success && status != failed {
		return fmt.Errorf("history: Finish of %q with status %q, want %q or %q", id, status, success, failed)
	}
	return nil
}

// Exists is the error for a second Start of the same id: records are an
// audit trail, so a repeated id must not overwrite the first call's record.
func Exists(id string) error {
	return fmt.Errorf("%w: %q", ErrExists, id)
}

// ErrExists is history.ErrExists.
var ErrExists = errors.New("history: invocation already recorded")

// Where is the SQL condition of a filter's fields, for the stores on SQL:
// " WHERE tool = $1 AND ..." (or "" for none) with its arguments in order,
// each normalised by Text. placeholder writes the n-th (1-based) parameter
// in the driver's syntax ("?", "$n").
func Where(tool, status, correlationID, surface string, caller *string, placeholder func(n int) string) (string, []any) {
	var where []string
	var args []any
	for _, c := range []struct{ col, v string }{
		{"tool", tool}, {"status", status}, {"correlation_id", correlationID}, {"surface", surface},
	} {
		if c.v != "" {
			args = append(args, Text(c.v))
			where = append(where, c.col+" = "+placeholder(len(args)))
		}
	}
	if caller != nil {
		args = append(args, Text(*caller))
		where = append(where, "caller = "+placeholder(len(args)))
	}
	if len(where) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(where, " AND "), args
}

// RequestWhere is Where for human requests (history.RequestFilter), on a
// table with the columns status, expires_at, request_type and caller. A
// request whose stored status is pending reads as expired once expires_at
// is not after now (the store's encoding of the current time), so the
// statuses "pending" and "expired" are conditions on both columns, read at
// now: the count and the pages agree with what each request reads as.
func RequestWhere(status, typ string, caller *string, now any, placeholder func(n int) string) (string, []any) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return placeholder(len(args))
	}
	switch status {
	case "":
	case pending:
		where = append(where, "status = 'pending' AND expires_at > "+arg(now))
	case expired:
		where = append(where, "status = 'pending' AND expires_at <= "+arg(now))
	default:
		where = append(where, "status = "+arg(Text(status)))
	}
	if typ != "" {
		where = append(where, "request_type = "+arg(Text(typ)))
	}
	if caller != nil {
		where = append(where, "caller = "+arg(Text(*caller)))
	}
	if len(where) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(where, " AND "), args
}
