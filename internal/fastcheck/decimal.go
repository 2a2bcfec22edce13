package fastcheck

import (
	"math"
	"math/big"
)

// decimal is the exact value of a JSON number literal, read in place: no
// allocation, no rounding. Its significant digits are whole ++ frac with
// leading and trailing zeros cut off, and its value is
// 0.DIGITS × 10^point. Zero has no digits.
type decimal struct {
	neg         bool
	whole, frac []byte // the significant digits, in two pieces of the literal
	point       int
}

func (d *decimal) len() int { return len(d.whole) + len(d.frac) }

func (d *decimal) digit(i int) byte {
	if i < len(d.whole) {
		return d.whole[i]
	}
	return d.frac[i-len(d.whole)]
}

// isInt reports whether the value is whole, as santhosh-tekuri/jsonschema's
// "integer" asks (3.0 and 1e2 are integers).
func (d *decimal) isInt() bool { return d.len() <= d.point }

// number is a JSON number literal as the scanner found it.
type number struct {
	dec decimal
	// mantissa is the length of the text before the exponent, sign and
	// point included; exp the exponent as written (0 without one).
	mantissa, exp int
	// expOK is false when the exponent does not fit an int.
	expOK bool
}

// scanNumber reads the JSON number at b[i:] and returns it and the index
// after it, or ok false when b[i:] does not start with one.
func scanNumber(b []byte, i int) (n number, end int, ok bool) {
	start := i
	if i < len(b) && b[i] == '-' {
		n.dec.neg = true
		i++
	}
	ws := i
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return n, i, false
	}
	whole := b[ws:i]
	var frac []byte
	if i < len(b) && b[i] == '.' {
		i++
		fs := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == fs {
			return n, i, false
		}
		frac = b[fs:i]
	}
	n.mantissa = i - start
	n.expOK = true
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		neg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			neg = b[i] == '-'
			i++
		}
		es := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if n.exp > 1<<40 {
				n.expOK = false // far past any limit; keep counting digits only
			} else {
				n.exp = n.exp*10 + int(b[i]-'0')
			}
			i++
		}
		if i == es {
			return n, i, false
		}
		if neg {
			n.exp = -n.exp
		}
	}
	n.dec.point = len(whole) + n.exp
	// Leading zeros: they may run from whole into frac ("0.001").
	for len(whole) > 0 && whole[0] == '0' {
		whole = whole[1:]
		n.dec.point--
	}
	if len(whole) == 0 {
		for len(frac) > 0 && frac[0] == '0' {
			frac = frac[1:]
			n.dec.point--
		}
	}
	// Trailing zeros: they may run from frac into whole ("100.000").
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	if len(frac) == 0 {
		for len(whole) > 0 && whole[len(whole)-1] == '0' {
			whole = whole[:len(whole)-1]
		}
	}
	n.dec.whole, n.dec.frac = whole, frac
	if n.dec.len() == 0 {
		n.dec = decimal{} // zero, and -0 is zero
	}
	return n, i, true
}

// maxFloat64 is math.MaxFloat64 exactly. A number no larger in magnitude
// fits a float64; a larger one may still round down to it (the full path
// asks strconv.ParseFloat), but that is left to the full path.
var maxFloat64 = func() decimal {
	n, _, _ := scanNumber([]byte(new(big.Float).SetFloat64(math.MaxFloat64).Text('f', 0)), 0)
	return n.dec
}()

// minInt64 and maxInt64 are the range compile.Int64Range holds integer
// schemas to.
var minInt64, maxInt64 = func() (decimal, decimal) {
	lo, _, _ := scanNumber([]byte("-9223372036854775808"), 0)
	hi, _, _ := scanNumber([]byte("9223372036854775807"), 0)
	return lo.dec, hi.dec
}()

// cmpAbs compares the magnitudes of two decimals.
func cmpAbs(x, y *decimal) int {
	ax, ay := *x, *y
	ax.neg, ay.neg = false, false
	return cmp(&ax, &ay)
}

// cmp compares two decimals exactly: -1, 0 or +1.
func cmp(x, y *decimal) int {
	xz, yz := x.len() == 0, y.len() == 0
	switch {
	case xz && yz:
		return 0
	case xz:
		if y.neg {
			return 1
		}
		return -1
	case yz:
		if x.neg {
			return -1
		}
		return 1
	case x.neg != y.neg:
		if x.neg {
			return -1
		}
		return 1
	}
	sign := 1
	if x.neg {
		sign = -1
	}
	if x.point != y.point {
		if x.point < y.point {
			return -sign
		}
		return sign
	}
	nx, ny := x.len(), y.len()
	for i := 0; i < nx && i < ny; i++ {
		if dx, dy := x.digit(i), y.digit(i); dx != dy {
			if dx < dy {
				return -sign
			}
			return sign
		}
	}
	switch {
	case nx < ny:
		return -sign
	case nx > ny:
		return sign
	}
	return 0
}
