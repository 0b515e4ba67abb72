package domain

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// The fast path of a budget report's line figures (syntheticstream.go):
// every figure a line computes is cut to centavos (BudgetRounding.Cut), so
// when its factors are non-negative and their coefficients fit in 64 bits
// the figures are computed exactly as whole centavos in integers, with a
// 128-bit product, instead of through big.Int-backed decimals. Where a value
// does not fit, ok is false and the caller takes the decimal path: the
// answer is the same, only slower.

// pow10u are the powers of ten a uint64 holds (10^0 … 10^19).
var pow10u = func() [20]uint64 {
	var p [20]uint64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// fixed is a non-negative exact decimal m / 10^s.
type fixed struct {
	m uint64
	s int32
}

// toFixed returns d as a fixed; ok is false when d is negative, or its
// coefficient has more than 18 digits, or it has more than 36 places.
func toFixed(d decimal.Decimal) (fixed, bool) {
	c, ok := coefficient64(d)
	if !ok || c < 0 {
		return fixed{}, false
	}
	e := d.Exponent()
	switch {
	case e > 0:
		if c, ok = mulPow10(c, e); !ok {
			return fixed{}, false
		}
		return fixed{m: uint64(c)}, true
	case e < -36:
		return fixed{}, false
	}
	return fixed{m: uint64(c), s: -e}, true
}

// mulCents returns a × b cut to centavos (truncated, or rounded half up when
// round), as a whole number of centavos; ok is false when it does not fit.
func mulCents(a, b fixed, round bool) (int64, bool) {
	hi, lo := bits.Mul64(a.m, b.m)
	s := a.s + b.s
	if s <= 2 {
		if hi != 0 {
			return 0, false
		}
		hi, lo = bits.Mul64(lo, pow10u[2-s])
		if hi != 0 || lo > math.MaxInt64 {
			return 0, false
		}
		return int64(lo), true
	}
	k := s - 2
	if k >= int32(len(pow10u)) {
		return 0, false
	}
	div := pow10u[k]
	if hi >= div {
		return 0, false // the quotient needs more than 64 bits
	}
	q, r := bits.Div64(hi, lo, div)
	if round && r >= div-r { // half up: 2r ≥ div
		q++
	}
	if q > math.MaxInt64 {
		return 0, false
	}
	return int64(q), true
}

// addInt64 adds b to *a (centavos, or any coefficients of one exponent);
// false when the sum overflows.
func addInt64(a *int64, b int64) bool {
	s := *a + b
	if (b > 0 && s < *a) || (b < 0 && s > *a) {
		return false
	}
	*a = s
	return true
}

// centsDecimal is c centavos as a decimal.
func centsDecimal(c int64) decimal.Decimal { return decimal.New(c, -2) }

// weightOf is the weight of a row of c centavos in a budget of total
// centavos (total > 0): c × 100 / total, as a percent rounded half away
// from zero to 2 places, as SyntheticRow.Weight is
// (Total.Shift(2).DivRound(total, 2)).
func weightOf(c, total int64) decimal.Decimal {
	if c >= 0 && total > 0 {
		hi, lo := bits.Mul64(uint64(c), 10000)
		if hi < uint64(total) {
			q, r := bits.Div64(hi, lo, uint64(total))
			if r >= uint64(total)-r {
				q++
			}
			if q <= math.MaxInt64 {
				return decimal.New(int64(q), -2)
			}
		}
	}
	return centsDecimal(c).Shift(2).DivRound(centsDecimal(total), 2)
}

// centsOut reports whether c centavos has more integer digits than a figure
// may have (FigureOut).
func centsOut(c int64) bool {
	const bound = 100_000_000_000_000_000 // 10^MaxIntegerDigits centavos × 100 = 10^17
	return c >= bound || c <= -bound
}

// maxFigure is the least magnitude out of bounds: 10^MaxIntegerDigits.
var maxFigure = decimal.New(1, MaxIntegerDigits)

// FigureOut reports whether d has more integer digits than an answer's
// figure may have (MaxIntegerDigits), as it is or rounded to
// MaxDecimalPlaces, as an answer shows it.
func FigureOut(d decimal.Decimal) bool {
	if d.NumDigits()+int(d.Exponent()) < MaxIntegerDigits {
		return false // fewer integer digits than the bound, even rounded
	}
	if d.Abs().GreaterThanOrEqual(maxFigure) {
		return true
	}
	return d.Exponent() < -MaxDecimalPlaces && RoundHalfUp(d, MaxDecimalPlaces).Abs().GreaterThanOrEqual(maxFigure)
}

// Cents returns d as a whole number of centavos when d has at most 2
// places (trailing zeros aside) and that number fits in 64 bits, reading
// the coefficient without big.Int arithmetic.
func Cents(d decimal.Decimal) (int64, bool) {
	m, ok := coefficient64(d)
	if !ok {
		return 0, false
	}
	switch e := d.Exponent(); {
	case e >= -2:
		return mulPow10(m, e+2)
	case -e-2 < int32(len(pow10u)):
		p := pow10u[-e-2]
		if p > math.MaxInt64 || m%int64(p) != 0 {
			return 0, false
		}
		return m / int64(p), true
	}
	return 0, false
}

// AppendFixed2 appends d as d.StringFixed(2) writes it (rounded half away
// from zero to 2 places, "-1234.50"), with sep for the decimal point;
// without big.Int arithmetic when d is whole centavos (Cents).
func AppendFixed2(dst []byte, d decimal.Decimal, sep byte) []byte {
	if c, ok := Cents(d); ok {
		return AppendCents(dst, c, sep)
	}
	s := d.StringFixed(2)
	if i := strings.IndexByte(s, '.'); i >= 0 && sep != '.' {
		return append(append(append(dst, s[:i]...), sep), s[i+1:]...)
	}
	return append(dst, s...)
}

// AppendCents appends c centavos as decimal.StringFixed(2) writes the same
// amount ("-1234.50"), with sep for the decimal point.
func AppendCents(b []byte, c int64, sep byte) []byte { return AppendScaled(b, c, 2, sep) }

// AppendScaled appends v / 10^places with exactly places decimals, as
// decimal.New(v, -places).StringFixed(places) writes it ("-0.050" for -50
// and 3; v itself for 0 places), with sep for the decimal point.
func AppendScaled(dst []byte, v int64, places int, sep byte) []byte {
	u := uint64(v)
	if v < 0 {
		dst = append(dst, '-')
		u = -u
	}
	switch {
	case places <= 0:
		return strconv.AppendUint(dst, u, 10)
	case places == 2: // centavos, most of what the reports write
		dst = strconv.AppendUint(dst, u/100, 10)
		f := u % 100
		return append(dst, sep, byte('0'+f/10), byte('0'+f%10))
	}
	var tmp [20]byte
	digits := strconv.AppendUint(tmp[:0], u, 10)
	if len(digits) <= places {
		dst = append(dst, '0', sep)
		for range places - len(digits) {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[:len(digits)-places]...)
	dst = append(dst, sep)
	return append(dst, digits[len(digits)-places:]...)
}

// figuresOut reports whether some of ds is out of bounds (FigureOut).
func figuresOut(ds ...decimal.Decimal) bool {
	for _, d := range ds {
		if FigureOut(d) {
			return true
		}
	}
	return false
}

// FiguresOut reports whether a figure of the footer is out of bounds.
func (t BudgetTotals) FiguresOut() bool { return figuresOut(t.Total, t.BDIValue, t.TotalWithBDI) }

// FiguresOut reports whether an amount of the summary, or its total, is
// out of bounds.
func (s CostSummary) FiguresOut() bool {
	return figuresOut(s.Labor, s.Material, s.Equipment, s.Services, s.Total())
}

func (r *SyntheticRow) figuresOut() bool {
	return figuresOut(r.Quantity, r.UnitPrice, r.UnitPriceWithBDI, r.Total, r.TotalWithBDI, r.Weight)
}
