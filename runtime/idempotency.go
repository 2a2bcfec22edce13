package runtime

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
	"github.com/toolgen-go/toolgen/runtime/internal/uuid"
)

// Idempotent calls. A caller-given key (OXP's call_id, an Idempotency-Key
// header on /v1 and the explorer's /call; [Call].IdempotencyKey) makes a
// call happen once. The key, scoped to the caller, names the call's record:
// its id is derived from them, so that the store's unique id (enforced by
// the database, across every replica that shares it) is what decides
// which call runs. A repeat never runs the tool: it answers the recorded
// outcome of the first, waits for it while it runs, and is refused when it
// names another tool or other arguments.

// HeaderIdempotencyKey is the header that carries a call's idempotency key
// on /v1 and the explorer.
const HeaderIdempotencyKey = httpkit.HeaderIdempotencyKey

// idempotentID is the record id of the call with key by caller: a UUID
// (version 8, RFC 9562) from their SHA-256.
func idempotentID(caller, key string) string {
	return derivedID("toolgen idempotency\x00" + caller + "\x00" + key)
}

// derivedID is a UUID (version 8, RFC 9562) from the SHA-256 of s.
func derivedID(s string) string {
	sum := sha256.Sum256([]byte(s))
	var b [16]byte
	copy(b[:], sum[:16])
	b[6] = b[6]&0x0f | 0x80
	b[8] = b[8]&0x3f | 0x80
	return uuid.Format(b)
}

// retryID is the id of the call with a key after the one whose record
// has id was refused before its handler ran (retried, it runs): the next
// in the key's chain, the same on every replica.
func retryID(id string) string { return derivedID("toolgen idempotency retry\x00" + id) }

// errRepeat stops a call whose key was used before, with the outcome that
// answers it: the first call's, from its record.
type errRepeat struct{ out *Outcome }

func (*errRepeat) Error() string { return "repeated idempotency key" }

// Messages of a repeat that cannot be answered.
const (
	msgKeyReused = "This idempotency key was used for another call (another tool or other arguments); use a new key."
	msgKeyBusy   = "A call with this idempotency key is still running; retry later for its outcome."
)

// replay answers a repeat of the call whose record has id: the recorded
// outcome, once there is one; nil when that call was refused at its
// approval (rejected, expired, cancelled): a refusal before the handler
// ran is not the key's outcome, and the repeat runs.
func (s *Server) replay(ctx context.Context, rc *recording, t *Tool) *Outcome {
	o := &Outcome{Tool: t}
	conflict := func(msg string, retry bool) *Outcome {
		te := &ToolError{Message: msg, CanRetry: retry}
		if retry {
			te.RetryAfter = time.Second
		}
		o.Status, o.Err, o.Result = StatusConflict, te, ErrorResult(msg)
		return o
	}
	wait := 20 * time.Millisecond
	for {
		rec, err := s.history.Get(ctx, rc.rec.ID)
		if err != nil {
			s.log.ErrorContext(ctx, "history store failed", "op", "replay", "err", err)
			te := &ToolError{Message: msgUnrecorded, CanRetry: true, RetryAfter: time.Second}
			o.Status, o.Err, o.Result = StatusUnrecorded, te, ErrorResult(te.Message)
			return o
		}
		if rec.Tool != rc.rec.Tool || !equalJSON(rec.Input, s.redacted(&rc.rec).Input) {
			return conflict(msgKeyReused, false)
		}
		switch rec.Status {
		case history.Success:
			ct := s.compiled.get(t)
			o.Status, o.Result = StatusOK, shape(ct, recordedResult(rec.Result, ct.output.wrap))
		case history.Failed:
			if a := rec.Approval; a != nil && a.Decision != answerApprove {
				return nil
			}
			msg := "The tool failed."
			if rec.Error != nil {
				msg = *rec.Error
			}
			o.Status, o.Err, o.Result = StatusFailed, &ToolError{Message: msg}, ErrorResult(msg)
		default: // still running, on this replica or another
			if rec.Deadline != nil && time.Now().After(*rec.Deadline) || ctx.Err() != nil {
				return conflict(msgKeyBusy, true)
			}
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return conflict(msgKeyBusy, true)
			}
			wait = min(2*wait, 500*time.Millisecond)
			continue
		}
		o.InvocationID = rec.ID
		if rec.DurationMS != nil {
			o.Duration = time.Duration(*rec.DurationMS * float64(time.Millisecond))
		}
		return o
	}
}

// recordedResult is the result a record keeps (its value, as /v1 and OXP
// give it: Server.ResultValue) as a Result: a string is its text; a list
// of content blocks, what a result without structured content keeps
// (unless the tool's structured results are wrapped, when a list is one),
// those blocks, images and resources as they were; anything else
// structured content with its JSON as text.
func recordedResult(v json.RawMessage, wrapped bool) *Result {
	var text string
	if err := json.Unmarshal(v, &text); err == nil {
		return TextResult(text)
	}
	if len(v) == 0 || string(v) == "null" {
		return &Result{Content: []Content{}}
	}
	if blocks, ok := contentBlocks(v); ok && !wrapped {
		return &Result{Content: blocks}
	}
	return &Result{Content: []Content{Text(string(v))}, StructuredContent: json.RawMessage(bytes.Clone(v))}
}

// equalJSON reports whether a and b are the same JSON value, whatever their
// spacing and key order.
func equalJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	return bytes.Equal(jsoncheck.Canonical(a), jsoncheck.Canonical(b))
}

// contentBlocks reads v as a list of content blocks of the kinds a result
// has, written as a result's blocks are and nothing else (a structured
// array of objects with a "type" and more members is not one); false for
// anything else, an empty list included (it is as likely an empty
// structured result).
func contentBlocks(v json.RawMessage) ([]Content, bool) {
	if b := bytes.TrimSpace(v); len(b) == 0 || b[0] != '[' {
		return nil, false
	}
	var blocks []Content
	if json.Unmarshal(v, &blocks) != nil || len(blocks) == 0 {
		return nil, false
	}
	for _, c := range blocks {
		switch c.Type {
		case ContentText, ContentImage, ContentAudio, ContentResource, ContentResourceLink:
		default:
			return nil, false
		}
	}
	again, err := json.Marshal(blocks)
	if err != nil || !bytes.Equal(jsoncheck.Canonical(again), jsoncheck.Canonical(v)) {
		return nil, false
	}
	return blocks, true
}
