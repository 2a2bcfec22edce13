package runtime

import (
	"crypto/rand"
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

// formatUUID writes a UUID's 16 bytes in its usual form. Each byte goes
// to a position known when compiling, so that no index is checked at run
// time: a REST call formats three ids, and hex.Encode over the five groups
// cost about three times as many instructions.
func formatUUID(b [16]byte) string {
	var s [36]byte
	put := func(i int, c byte) { s[i], s[i+1] = hexDigits[c>>4], hexDigits[c&0x0f] }
	put(0, b[0])
	put(2, b[1])
	put(4, b[2])
	put(6, b[3])
	s[8] = '-'
	put(9, b[4])
	put(11, b[5])
	s[13] = '-'
	put(14, b[6])
	put(16, b[7])
	s[18] = '-'
	put(19, b[8])
	put(21, b[9])
	s[23] = '-'
	put(24, b[10])
	put(26, b[11])
	put(28, b[12])
	put(30, b[13])
	put(32, b[14])
	put(34, b[15])
	return string(s[:])
}

const hexDigits = "0123456789abcdef"
