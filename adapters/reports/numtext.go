package reports

import (
	"math"

	"github.com/shopspring/decimal"
)

// Figures written as text without math/big. A document of 50,000 lines
// writes a few hundred thousand figures; Decimal.StringFixed and String
// write each through a big.Int (and StringFixed rounds through another),
// which was about a fifth of a budget PDF's layout (docs/performance.md,
// "Documents: the rows' XML and the text layout"). A figure whose
// coefficient has at most 18 digits and whose exponent is between -18 and
// 0 (every price, quantity and amount a budget holds) is written here from
// its int64 coefficient, with the same digits and the same rounding (half
// away from zero, as Decimal.Round); any other goes the old way.

// pow10s are the powers of ten an int64 holds.
var pow10s = [19]int64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// smallDecimal is d as an int64 coefficient and its places (the exponent
// negated), when it has at most 18 digits and at most 18 places and is not
// scaled up (a positive exponent), and the decimal package writes its
// strings as it does by default (trailing zeros trimmed, no scientific
// notation).
func smallDecimal(d decimal.Decimal) (c int64, places int, ok bool) {
	e := d.Exponent()
	if e > 0 || e < -18 || !decimal.TrimTrailingZeros || decimal.UseScientificNotation || d.NumDigits() > 18 {
		return 0, 0, false
	}
	return d.CoefficientInt64(), int(-e), true
}

// toPlaces is c with p places given with places places: rounded half away
// from zero when it has more (Decimal.Round), scaled up when fewer; false
// when the result does not fit.
func toPlaces(c int64, p, places int) (int64, bool) {
	switch {
	case p > places:
		if p-places > 18 {
			return 0, false
		}
		q := pow10s[p-places]
		r := c % q
		c /= q
		if r >= q-r && r > 0 {
			c++
		} else if r < 0 && -r >= q+r {
			c--
		}
	case p < places:
		if places-p > 18 {
			return 0, false
		}
		m := pow10s[places-p]
		if c > math.MaxInt64/m || c < -math.MaxInt64/m {
			return 0, false
		}
		c *= m
	}
	return c, true
}

// appendFigure appends c with places places: its sign, the integer part
// (its thousands separated by group when group is not 0), point and the
// places, zero-padded, when places > 0 or always is set.
func appendFigure(dst []byte, c int64, places int, group, point byte, always bool) []byte {
	u := uint64(c)
	if c < 0 {
		dst = append(dst, '-')
		u = -u
	}
	p := uint64(pow10s[places])
	ip, fp := u/p, u%p
	var digits [20]byte
	n := len(digits)
	for {
		n--
		digits[n] = byte('0' + ip%10)
		ip /= 10
		if ip == 0 {
			break
		}
	}
	for i, ch := range digits[n:] {
		if group != 0 && i > 0 && (len(digits)-n-i)%3 == 0 {
			dst = append(dst, group)
		}
		dst = append(dst, ch)
	}
	if places == 0 && !always {
		return dst
	}
	dst = append(dst, point)
	for i := places - 1; i >= 0; i-- {
		dst = append(dst, byte('0'+fp/uint64(pow10s[i])%10))
	}
	return dst
}

// brlFast is brlPlaces of d rounded to places (brl: 2), when smallDecimal
// holds for d.
func brlFast(d decimal.Decimal, places int) (string, bool) {
	c, p, ok := smallDecimal(d)
	if !ok {
		return "", false
	}
	if c, ok = toPlaces(c, p, places); !ok {
		return "", false
	}
	var buf [40]byte
	return string(appendFigure(buf[:0], c, places, '.', ',', true)), true
}

// atMost10 rounds the figure c × 10^-p to 10 places when it has more
// (atMost10Places).
func atMost10(c int64, p int) (int64, int, bool) {
	if p <= 10 {
		return c, p, true
	}
	c, ok := toPlaces(c, p, 10)
	return c, 10, ok
}

// exactFast is pdfExact of d when smallDecimal holds for it.
func exactFast(d decimal.Decimal) (string, bool) {
	c, p, ok := smallDecimal(d)
	if !ok {
		return "", false
	}
	if c, p, ok = atMost10(c, p); !ok {
		return "", false
	}
	for p > 2 && c%10 == 0 { // trailing zeros beyond the second place say nothing
		c /= 10
		p--
	}
	if c, ok = toPlaces(c, p, max(p, 2)); !ok {
		return "", false
	}
	var buf [40]byte
	return string(appendFigure(buf[:0], c, max(p, 2), '.', ',', true)), true
}

// quantityFast is Quantity of d when smallDecimal holds for it.
func quantityFast(d decimal.Decimal) (string, bool) {
	c, p, ok := smallDecimal(d)
	if !ok {
		return "", false
	}
	if c, p, ok = atMost10(c, p); !ok {
		return "", false
	}
	for p > 0 && c%10 == 0 { // as Decimal.String: trailing zeros trimmed
		c /= 10
		p--
	}
	var buf [40]byte
	return string(appendFigure(buf[:0], c, p, 0, ',', false)), true
}
