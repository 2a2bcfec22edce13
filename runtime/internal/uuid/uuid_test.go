package uuid

import (
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// TestFormatUUID holds Format to hex.Encode over the five groups.
func TestFormatUUID(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		var b [16]byte
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		want := hex.EncodeToString(b[0:4]) + "-" + hex.EncodeToString(b[4:6]) + "-" + hex.EncodeToString(b[6:8]) + "-" + hex.EncodeToString(b[8:10]) + "-" + hex.EncodeToString(b[10:16])
		if got := Format(b); got != want {
			t.Fatalf("Format(%x) = %s, want %s", b, got, want)
		}
	}
}

func BenchmarkNewUUID(b *testing.B) {
	for b.Loop() {
		_ = New()
	}
}
