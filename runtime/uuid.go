package runtime

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
)

// newUUID returns a random (version 4) UUID: a REST call takes three (its
// request, correlation and invocation ids).
func newUUID() string {
	var b [16]byte
	randomBytes(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

// randomChunk is random bytes read ahead from crypto/rand, and how many
// of them are used.
type randomChunk struct {
	b    [512]byte
	used int
}

// randomChunks hold what crypto/rand read ahead: one read of 512 bytes
// makes 32 ids, where a read of 16 bytes for each was a third of an id's
// cost (bench/instructions.sh). A chunk is used by one goroutine at a
// time, and the bytes it hands out are not handed out again.
var randomChunks = sync.Pool{New: func() any { return &randomChunk{used: 512} }}

// randomBytes fills p (at most 512 bytes) from crypto/rand.
func randomBytes(p []byte) {
	c := randomChunks.Get().(*randomChunk)
	if len(c.b)-c.used < len(p) {
		_, _ = rand.Read(c.b[:])
		c.used = 0
	}
	c.used += copy(p, c.b[c.used:])
	randomChunks.Put(c)
}

// formatUUID writes a UUID's 16 bytes in its usual form.
func formatUUID(b [16]byte) string {
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:36], b[10:16])
	return string(s[:])
}
