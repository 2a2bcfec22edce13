package history

import (
	"fmt"
	"testing"
)

// FuzzMemKey: an id gets a UUID key only when it is a UUID written the
// canonical way, and then the key's 16 bytes are the UUID's, so no two
// ids share a key.
func FuzzMemKey(f *testing.F) {
	for _, s := range []string{"0a1b2c3d-4e5f-4789-8abc-def012345678", "0A1B2C3D-4E5F-4789-8ABC-DEF012345678",
		"00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "0a1b2c3d-4e5f-4789-8abc-def01234567",
		"0a1b2c3d04e5f-4789-8abc-def012345678", "", "id-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		k := keyOf(id)
		if !k.uuid {
			if k.b != [16]byte{} {
				t.Errorf("keyOf(%q) has bytes %x without being a UUID", id, k.b)
			}
			if canonical(id) {
				t.Errorf("keyOf(%q) is not a UUID key", id)
			}
			return
		}
		b := k.b
		if back := fmt.Sprintf("%x-%x-%x-%x-%x", b[:4], b[4:6], b[6:8], b[8:10], b[10:]); back != id {
			t.Errorf("keyOf(%q) = %x, which is %q", id, b, back)
		}
	})
}

// canonical is the definition keyOf implements.
func canonical(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i := range len(id) {
		c := id[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
	}
	return true
}
