package uuid

import (
	"crypto/rand"
	"sync"
)

// New returns a random (version 4) UUID: a call's invocation id, an
// OXP call's id, a human response's.
func New() string {
	var b [16]byte
	randomBytes(b[:])
	return Format(version4(b))
}

// NewPair returns two new UUIDs, as New does, from one read of
// random bytes and in one string: a request without ids takes two (its
// request and correlation ids).
func NewPair() (string, string) {
	var b [32]byte
	randomBytes(b[:])
	var s [72]byte
	putUUID((*[36]byte)(s[:36]), version4([16]byte(b[:16])))
	putUUID((*[36]byte)(s[36:]), version4([16]byte(b[16:])))
	both := string(s[:])
	return both[:36], both[36:]
}

// version4 marks random bytes as a version 4, variant 1 UUID.
func version4(b [16]byte) [16]byte {
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return b
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

// Format writes a UUID's 16 bytes in its usual form. Each byte goes
// to a position known when compiling, so that no index is checked at run
// time: a REST call writes three ids, and hex.Encode over the five groups
// cost about three times as many instructions.
func Format(b [16]byte) string {
	var s [36]byte
	putUUID(&s, b)
	return string(s[:])
}

// putUUID writes b in a UUID's usual form into s.
func putUUID(s *[36]byte, b [16]byte) {
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
}

const hexDigits = "0123456789abcdef"
