package domain

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// The one money path. Every product that is cut (a composition's line
// total, a budget line's figures, a footer's BDI) and every sum of money is
// computed here, exactly, as shopspring/decimal computes it: on 64-bit
// coefficients, with a 128-bit product, while the figures fit, and in
// decimal, inside the same function, from the first one that does not. The
// answer is the same either way (tests hold the two to each other); only
// the time differs (docs/decisions.md, "One money path").

// pow10u are the powers of ten a uint64 holds (10^0 … 10^19).
var pow10u = func() [20]uint64 {
	var p [20]uint64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// amount is an exact decimal: v × 10^e while its coefficient fits in 64
// bits, else the decimal big. The zero amount is the zero decimal
// (exponent 0).
type amount struct {
	v   int64
	e   int32
	big *decimal.Decimal
}

// amountOf is d as an amount.
func amountOf(d decimal.Decimal) amount {
	if d.NumDigits() <= 18 {
		return amount{v: d.CoefficientInt64(), e: d.Exponent()}
	}
	return bigAmount(d)
}

// bigAmount is d held as a decimal.
func bigAmount(d decimal.Decimal) amount {
	big := new(decimal.Decimal) // here, not d's address: d would live on the heap on every call
	*big = d
	return amount{big: big}
}

// centsAmount is c centavos.
func centsAmount(c int64) amount { return amount{v: c, e: -2} }

// Decimal is the amount as a decimal, with its exponent.
func (a amount) Decimal() decimal.Decimal {
	if a.big != nil {
		return *a.big
	}
	return decimal.New(a.v, a.e)
}

// cents is the amount with exponent −2 when it has at most 2 places and
// fits (a cut figure, written as centavos); else itself.
func (a amount) cents() amount {
	if a.big == nil && a.e > -2 {
		if c, ok := mulPow10(a.v, a.e+2); ok {
			return centsAmount(c)
		}
	}
	return a
}

// add is a + b as decimal.Decimal.Add gives it: the exponent the lesser
// of the two.
func (a amount) add(b amount) amount {
	if s := a.v + b.v; a.big == nil && b.big == nil && a.e == b.e && (s > a.v) == (b.v > 0) {
		return amount{v: s, e: a.e} // the figures of a budget: centavos, without overflow
	}
	return a.addScaled(b)
}

// addScaled is add for amounts of different exponents, or whose sum
// overflows, or held as decimals.
func (a amount) addScaled(b amount) amount {
	if a.big == nil && b.big == nil {
		x, y, e, ok := a.v, b.v, a.e, true
		if b.e < e {
			x, ok = mulPow10(x, e-b.e)
			e = b.e
		} else {
			y, ok = mulPow10(y, b.e-e)
		}
		if ok && addInt64(&x, y) {
			return amount{v: x, e: e}
		}
	}
	s := a.Decimal().Add(b.Decimal())
	return amount{big: &s}
}

// sub is a − b as decimal.Decimal.Sub gives it (a + (−b)).
func (a amount) sub(b amount) amount {
	switch {
	case b.big != nil:
		n := b.big.Neg()
		return a.add(amount{big: &n})
	case b.v == math.MinInt64:
		return a.add(bigAmount(b.Decimal().Neg()))
	}
	return a.add(amount{v: -b.v, e: b.e})
}

// sign is −1, 0 or +1.
func (a amount) sign() int {
	switch {
	case a.big != nil:
		return a.big.Sign()
	case a.v > 0:
		return 1
	case a.v < 0:
		return -1
	}
	return 0
}

// less reports whether a < b.
func (a amount) less(b amount) bool {
	if a.big == nil && b.big == nil && a.e == b.e {
		return a.v < b.v
	}
	return a.Decimal().LessThan(b.Decimal())
}

// out reports whether the amount has more integer digits than a figure may
// have (FigureOut).
func (a amount) out() bool {
	if a.big == nil && a.e == -2 {
		return centsOut(a.v)
	}
	return FigureOut(a.Decimal())
}

// cutMode is how a product is cut to its places.
type cutMode uint8

const (
	cutNone     cutMode = iota // keep every digit
	cutTruncate                // toward zero, as decimal.Decimal.Truncate
	cutRound                   // half away from zero, as decimal.Decimal.Round
)

// mulCut is a × b cut to places decimal places as mode says, with the
// exponent decimal.Decimal's Truncate and Round give (Truncate keeps fewer
// places, Round writes exactly places).
func mulCut(a, b amount, places int32, mode cutMode) amount {
	if a.big == nil && b.big == nil {
		if v, e, ok := mulCut64(a.v, b.v, a.e+b.e, places, mode); ok {
			return amount{v: v, e: e}
		}
	}
	p := a.Decimal().Mul(b.Decimal())
	switch mode {
	case cutTruncate:
		p = p.Truncate(places)
	case cutRound:
		p = RoundHalfUp(p, places)
	}
	return amountOf(p)
}

// cutDecimal is d cut to places as mode says (mulCut of d × 1). A d the
// cut leaves as it is (no more places than the cut keeps, and for cutRound
// exactly places, as Round writes them) is d itself: no new coefficient.
func cutDecimal(d decimal.Decimal, places int32, mode cutMode) decimal.Decimal {
	switch e := d.Exponent(); {
	case mode == cutNone, mode == cutTruncate && e >= -places, mode == cutRound && e == -places:
		return d
	}
	return mulCut(amountOf(d), amount{v: 1}, places, mode).Decimal()
}

// mulCut64 is mulCut of x × 10^e and y (their exponents added in e) on
// 64-bit integers; ok is false when the product cut does not fit.
func mulCut64(x, y int64, e, places int32, mode cutMode) (int64, int32, bool) {
	hi, lo := bits.Mul64(absU64(x), absU64(y))
	var q uint64
	switch {
	case mode == cutNone || (mode == cutTruncate && e >= -places):
		if hi != 0 {
			return 0, 0, false
		}
		q = lo
	case e >= -places: // rounding writes places: scale up
		if hi != 0 || e+places >= int32(len(pow10u)) {
			return 0, 0, false
		}
		var h uint64
		if h, q = bits.Mul64(lo, pow10u[e+places]); h != 0 {
			return 0, 0, false
		}
		e = -places
	default: // cut k digits off
		k := -places - e
		e = -places
		if k >= int32(len(pow10u)) {
			if hi != 0 {
				return 0, 0, false
			}
			break // lo < 10^20 ≤ 10^k: 0, and under a half
		}
		div := pow10u[k]
		if hi >= div {
			return 0, 0, false // the quotient needs more than 64 bits
		}
		var r uint64
		q, r = bits.Div64(hi, lo, div)
		if mode == cutRound && r >= div-r { // half away from zero: 2r ≥ div
			q++
		}
	}
	if q > math.MaxInt64 {
		return 0, 0, false
	}
	if (x < 0) != (y < 0) {
		return -int64(q), e, true
	}
	return int64(q), e, true
}

// mulPow10 is v × 10^k (k ≥ 0), false when it does not fit.
func mulPow10(v int64, k int32) (int64, bool) {
	if k == 0 || v == 0 {
		return v, true
	}
	if k >= int32(len(pow10u)) {
		return 0, false
	}
	hi, lo := bits.Mul64(absU64(v), pow10u[k])
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if v < 0 {
		return -int64(lo), true
	}
	return int64(lo), true
}

// coefficient64 is d's coefficient when it has at most 18 digits.
func coefficient64(d decimal.Decimal) (int64, bool) {
	if d.NumDigits() > 18 {
		return 0, false
	}
	return d.CoefficientInt64(), true
}

func absU64(v int64) uint64 {
	if v < 0 {
		return -uint64(v)
	}
	return uint64(v)
}

// addInt64 adds b to *a; false (and *a unchanged) when the sum overflows.
func addInt64(a *int64, b int64) bool {
	s := *a + b
	if (b > 0 && s < *a) || (b < 0 && s > *a) {
		return false
	}
	*a = s
	return true
}

// weight is the weight of a row of the amount x in a budget of the amount
// total (positive): x × 100 / total, as a percent rounded half away from
// zero to 2 places (SyntheticRow.Weight).
func weight(x, total amount) decimal.Decimal {
	if x.big == nil && total.big == nil && x.e == -2 && total.e == -2 && x.v >= 0 && total.v > 0 {
		c, t := uint64(x.v), uint64(total.v)
		hi, lo := bits.Mul64(c, 10000)
		if hi < t {
			q, r := bits.Div64(hi, lo, t)
			if r >= t-r {
				q++
			}
			if q <= math.MaxInt64 {
				return decimal.New(int64(q), -2)
			}
		}
	}
	return x.Decimal().Shift(2).DivRound(total.Decimal(), 2)
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

// FiguresOut reports whether a figure of the budget's own (its BDI, the
// supply lines' BDI and the parts of either; not its lines', which are the
// reports') is out of bounds.
func (b *Budget) FiguresOut() bool {
	if b == nil {
		return false
	}
	out := figuresOut(b.BDI, b.SupplyBDI)
	for _, p := range []*BDIParts{b.BDIParts, b.SupplyBDIParts} {
		if p != nil {
			for _, f := range p.fields() {
				out = out || FigureOut(*f.v)
			}
		}
	}
	return out
}

// ErrFiguresOut is the answer to a report that has a figure out of bounds
// (its FiguresOut, or its budget's): a conflict, the record being valid,
// until a quantity or a price it uses is lowered.
func ErrFiguresOut() error {
	return Errorf(ECONFLICT, "a computed figure of the record must have at most %d digits before the decimal point: lower a quantity or a price it uses", MaxIntegerDigits)
}
