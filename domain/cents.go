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
	if d.Sign() < 0 || d.NumDigits() > 18 {
		return fixed{}, false
	}
	m, e := uint64(d.CoefficientInt64()), d.Exponent()
	switch {
	case e > 0:
		if e > 18 {
			return fixed{}, false
		}
		hi, lo := bits.Mul64(m, pow10u[e])
		if hi != 0 || lo > math.MaxInt64 {
			return fixed{}, false
		}
		return fixed{m: lo}, true
	case e < -36:
		return fixed{}, false
	}
	return fixed{m: m, s: -e}, true
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

// addCents adds b to *a; false when the sum overflows.
func addCents(a *int64, b int64) bool {
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
	if d.NumDigits() > 18 {
		return 0, false
	}
	m, e := d.CoefficientInt64(), d.Exponent()
	switch {
	case e >= -2:
		if e+2 > 16 {
			return 0, false
		}
		p := int64(pow10u[e+2])
		c := m * p
		if m != 0 && c/p != m {
			return 0, false
		}
		return c, true
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
func AppendCents(b []byte, c int64, sep byte) []byte {
	u := uint64(c)
	if c < 0 {
		b = append(b, '-')
		u = -u
	}
	b = strconv.AppendUint(b, u/100, 10)
	f := u % 100
	return append(b, sep, byte('0'+f/10), byte('0'+f%10))
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
