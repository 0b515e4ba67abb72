package domain

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Readjustment (reajuste) of a contract's measured values by a price index
// (INCC, IPCA…) from the contract's base month, yearly (Lei 14.133/2021,
// art. 25 §7 and art. 92 §3; Lei 10.192/2001, art. 2 and 3: no
// readjustment within 12 months of the base date; docs/readjustment.md):
//
//	n      = whole years from the base month to the measured period's month
//	I0     = the index of the base month
//	I      = the index of the anniversary month base + 12·n (the last
//	         anniversary the period falls on or after)
//	factor = trunc(I / I0 − 1, places)        toward zero; places: 4 by default
//	amount = round half up(value × factor, 2)
//
// Within the first 12 months (n = 0) the factor is 0: no readjustment. A
// month the series lacks is an error naming the index and the month,
// never a zero.

// DefaultReadjustPlaces is how many places the factor is truncated to
// unless the contract says otherwise.
const DefaultReadjustPlaces = 4

// IndexSeries is a monthly price index: its number for each month
// ("MM/YYYY").
type IndexSeries struct {
	Name   string
	Points map[string]decimal.Decimal
	// UpdatedAt is when the series was last written.
	UpdatedAt time.Time
}

// IndexName normalises an index's name: trimmed, upper case, accents
// removed, inner spaces as one ("incc-di " → "INCC-DI").
func IndexName(s string) string {
	return strings.Join(strings.Fields(strings.ToUpper(foldAccents(s))), " ")
}

// foldAccents removes the accents Portuguese uses.
func foldAccents(s string) string {
	return strings.NewReplacer("á", "a", "à", "a", "â", "a", "ã", "a", "é", "e", "ê", "e", "í", "i", "ó", "o", "ô", "o", "õ", "o",
		"ú", "u", "ç", "c", "Á", "A", "À", "A", "Â", "A", "Ã", "A", "É", "E", "Ê", "E", "Í", "I", "Ó", "O", "Ô", "O", "Õ", "O",
		"Ú", "U", "Ç", "C").Replace(s)
}

// monthIndex turns "MM/YYYY" into a count of months (ok false when it is
// not one).
func monthIndex(m string) (int, bool) {
	t, err := time.Parse("01/2006", m)
	if err != nil {
		return 0, false
	}
	return t.Year()*12 + int(t.Month()) - 1, true
}

func monthName(i int) string { return fmt.Sprintf("%02d/%04d", i%12+1, i/12) }

// AddMonths returns the month n months after m ("MM/YYYY"); m must be one.
func AddMonths(m string, n int) string {
	i, _ := monthIndex(m)
	return monthName(i + n)
}

// Months returns the series' months in order.
func (s *IndexSeries) Months() []string {
	out := make([]string, 0, len(s.Points))
	for m := range s.Points {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool {
		a, _ := monthIndex(out[i])
		b, _ := monthIndex(out[j])
		return a < b
	})
	return out
}

// IndexPoint is one month of a series as given: its index number, or its
// variation in percent (Chain turns variations into numbers).
type IndexPoint struct {
	Month string
	Value decimal.Decimal
}

// MaxIndexPoints is the most months a series holds (a century).
const MaxIndexPoints = 1200

// NewIndexSeries checks the points of a series of index numbers (each
// month once, MM/YYYY, each number positive) and makes the series; every
// error at once, pointers "/points/<i>/…".
func NewIndexSeries(name string, points []IndexPoint) (*IndexSeries, error) {
	var v Validation
	s := &IndexSeries{Name: IndexName(name), Points: map[string]decimal.Decimal{}}
	if s.Name == "" || len(s.Name) > 40 {
		v.Add("/name", "must be an index's name of 1 to 40 characters, such as INCC-DI or IPCA")
	}
	if len(points) == 0 || len(points) > MaxIndexPoints {
		v.Add("/points", "must hold 1 to %d months, not %d", MaxIndexPoints, len(points))
	}
	seen := map[string]int{}
	for i, p := range points {
		ptr := "/points/" + strconv.Itoa(i)
		if _, ok := monthIndex(p.Month); !ok {
			v.Add(ptr+"/month", "must be a month MM/YYYY, not %q", p.Month)
		} else if j, ok := seen[p.Month]; ok {
			v.Add(ptr+"/month", "%s is already point %d", p.Month, j)
		} else {
			seen[p.Month] = i
		}
		if !p.Value.IsPositive() {
			v.Add(ptr+"/value", "an index number must be positive, not %s", p.Value)
		}
		s.Points[p.Month] = p.Value
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// ChainPlaces is how many places each chained index number keeps.
const ChainPlaces = 6

// Chain turns monthly variations in percent into index numbers: the month
// before the first variation is base (100 when base is zero), and each
// month's number is the previous one × (1 + variation / 100), rounded half
// up to ChainPlaces places. The months must follow one another.
func Chain(points []IndexPoint, base decimal.Decimal) ([]IndexPoint, error) {
	var v Validation
	if base.IsZero() {
		base = decimal.NewFromInt(100)
	}
	if !base.IsPositive() {
		v.Add("/base", "must be positive, not %s", base)
	}
	sorted := append([]IndexPoint(nil), points...)
	idx := make([]int, len(sorted))
	for i, p := range sorted {
		m, ok := monthIndex(p.Month)
		if !ok {
			v.Add("/points/"+strconv.Itoa(i)+"/month", "must be a month MM/YYYY, not %q", p.Month)
		}
		idx[i] = m
		if p.Value.LessThanOrEqual(decimal.NewFromInt(-100)) {
			v.Add("/points/"+strconv.Itoa(i)+"/value", "a variation must be above -100%%, not %s", p.Value)
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	order := make([]int, len(sorted))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return idx[order[a]] < idx[order[b]] })
	out := make([]IndexPoint, 0, len(sorted)+1)
	if len(order) > 0 {
		out = append(out, IndexPoint{Month: monthName(idx[order[0]] - 1), Value: base})
	}
	cur := base
	for k, i := range order {
		if k > 0 && idx[i] != idx[order[k-1]]+1 {
			v.Add("/points/"+strconv.Itoa(i)+"/month", "variations must be of months that follow one another: %s after %s",
				sorted[i].Month, sorted[order[k-1]].Month)
			continue
		}
		cur = cur.Mul(one.Add(sorted[i].Value.Shift(-2))).Round(ChainPlaces)
		out = append(out, IndexPoint{Month: sorted[i].Month, Value: cur})
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// ReadjustInput is a measured value to readjust: the measurement's number
// and the month of its period.
type ReadjustInput struct {
	Number int
	Month  string
	Value  decimal.Decimal
}

// ReadjustRow is a readjusted value.
type ReadjustRow struct {
	ReadjustInput
	Years       int    // whole years from the base month
	Anniversary string // the month whose index is I ("" within the first year)
	I0, I       decimal.Decimal
	Factor      decimal.Decimal
	Amount      decimal.Decimal
}

// ReadjustStatement is the readjustment of a contract's measured values.
type ReadjustStatement struct {
	Index       string
	BaseMonth   string
	Places      int32
	Rows        []ReadjustRow
	Total       decimal.Decimal // of the values
	TotalAmount decimal.Decimal // of the readjustments
}

// Readjust computes the statement of the rows from the base month by the
// series, the factor truncated to places (0 to 10). Every bad row and
// every month the series lacks named at once.
func Readjust(series *IndexSeries, baseMonth string, places int32, rows []ReadjustInput) (*ReadjustStatement, error) {
	var v Validation
	base, ok := monthIndex(baseMonth)
	if !ok {
		v.Add("/base_month", "must be a month MM/YYYY, not %q", baseMonth)
	}
	if places < 0 || places > 10 {
		v.Add("/places", "must be from 0 to 10, not %d", places)
	}
	if len(rows) == 0 {
		v.Add("/rows", "must hold at least one measured value")
	}
	st := &ReadjustStatement{Index: series.Name, BaseMonth: baseMonth, Places: places}
	i0, haveI0 := series.Points[baseMonth]
	if ok && !haveI0 {
		v.Add("/base_month", "the index %s has no number for the base month %s", series.Name, baseMonth)
	}
	for k, in := range rows {
		ptr := "/rows/" + strconv.Itoa(k)
		m, mok := monthIndex(in.Month)
		if !mok {
			v.Add(ptr+"/month", "must be a month MM/YYYY, not %q", in.Month)
			continue
		}
		if ok && m < base {
			v.Add(ptr+"/month", "%s is before the base month %s", in.Month, baseMonth)
			continue
		}
		if !ok || !haveI0 || places < 0 || places > 10 {
			continue
		}
		row := ReadjustRow{ReadjustInput: in, Years: (m - base) / 12, I0: i0}
		if row.Years == 0 {
			row.I = i0
		} else {
			row.Anniversary = monthName(base + 12*row.Years)
			i, have := series.Points[row.Anniversary]
			if !have {
				v.Add(ptr+"/month", "the index %s has no number for %s, the anniversary of %s (base %s)", series.Name, row.Anniversary, in.Month, baseMonth)
				continue
			}
			row.I = i
			row.Factor = readjustFactor(i0, i, places)
		}
		row.Amount = in.Value.Mul(row.Factor).Round(2)
		st.Rows = append(st.Rows, row)
		st.Total = st.Total.Add(in.Value)
		st.TotalAmount = st.TotalAmount.Add(row.Amount)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return st, nil
}

// readjustFactor is (I − I0) / I0 truncated toward zero to places, exactly:
// the integer quotient of (I − I0) · 10^places by I0.
func readjustFactor(i0, i decimal.Decimal, places int32) decimal.Decimal {
	q, _ := i.Sub(i0).Shift(places).QuoRem(i0, 0)
	return q.Shift(-places)
}
