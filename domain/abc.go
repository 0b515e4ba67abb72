package domain

import (
	"sort"

	"github.com/shopspring/decimal"
)

// ABCClass is the class of an item in an ABC curve.
type ABCClass string

// The classes.
const (
	ClassA ABCClass = "A"
	ClassB ABCClass = "B"
	ClassC ABCClass = "C"
)

// ABCLimits are the cumulative percentages where class A and class B end.
type ABCLimits struct {
	A decimal.Decimal
	B decimal.Decimal
}

// DefaultABCLimits are 50% and 80%.
func DefaultABCLimits() ABCLimits {
	return ABCLimits{A: decimal.NewFromInt(50), B: decimal.NewFromInt(80)}
}

// IsZero reports whether neither limit was given.
func (l ABCLimits) IsZero() bool { return l.A.IsZero() && l.B.IsZero() }

// Validate checks 0 < A < B ≤ 100. The field named is "abcLimits", the
// query parameter that carries them.
func (l ABCLimits) Validate() error {
	if !l.A.IsPositive() || !l.A.LessThan(l.B) || l.B.GreaterThan(hundred) {
		return FieldErrorf("abcLimits", "must be two percentages A,B with 0 < A < B ≤ 100")
	}
	return nil
}

// ABCInput is one item to rank: a resource (or a composition that stays
// whole) with its quantity, unit price and total.
type ABCInput struct {
	Ref          BankRef  // the edition; Name is MYBASE for the own base
	Code         string   //
	Kind         ItemKind // resource, or composition for a bank composition without structure
	Idle         bool     // idle hours of equipment (SICRO model)
	Description  string
	Unit         string
	ResourceType int          // 0 for a composition
	Category     CostCategory // see Category
	Quantity     decimal.Decimal
	UnitPrice    decimal.Decimal
	Total        decimal.Decimal
	Missing      bool   // it has no price: left out of the totals (ABCReport.Missing)
	Reason       string // why it is missing
}

// ABCRow is a ranked item.
type ABCRow struct {
	ABCInput
	Position          int             // 1 for the largest total
	Percent           decimal.Decimal // share of the curve's total, 2 places
	CumulativePercent decimal.Decimal // share of the rows up to this one, 2 places
	Class             ABCClass
}

// before is the order of an ABC curve: total descending, then code, bank,
// edition, kind and productive before idle, ascending. It is total, so the
// curve does not depend on the order of the input.
func (a *ABCInput) before(b *ABCInput) bool {
	if c := a.Total.Cmp(b.Total); c != 0 {
		return c > 0
	}
	if a.Code != b.Code {
		return a.Code < b.Code
	}
	if a.Ref.Name != b.Ref.Name {
		return a.Ref.Name < b.Ref.Name
	}
	if ka, kb := a.Ref.EditionKey(), b.Ref.EditionKey(); ka != kb {
		return ka < kb
	}
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	return !a.Idle && b.Idle
}

// RankABC ranks items into an ABC curve. Rows are sorted by total
// descending (ties: code ascending, then bank, edition, kind). With G the
// sum of the totals and S the sum of the totals up to and including a row:
//
//   - the cumulative percent is S ÷ G × 100 rounded half up to 2 places,
//     computed from the exact sums, so the last row says exactly 100.00;
//   - the percent is the row's cumulative percent minus the one before, so
//     the percents add up to exactly 100.00 (each is within 0.01 of the
//     row's exact share);
//   - the class is A while the cumulative share before the row is below
//     limit A, B while it is below limit B, C after: the row that crosses a
//     limit belongs to the upper class. Classes are decided on exact values,
//     never on rounded percents.
//
// When G is zero every percent is zero and every row is C. limits must be
// valid (ABCLimits.Validate).
func RankABC(items []ABCInput, limits ABCLimits) []ABCRow {
	rows := make([]ABCRow, len(items))
	for i := range items {
		rows[i].ABCInput = items[i]
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].before(&rows[j].ABCInput) })
	grand := decimal.Zero
	for i := range rows {
		grand = grand.Add(rows[i].Total)
	}
	limitA, limitB := limits.A.Mul(grand), limits.B.Mul(grand) // compared with S × 100
	prevSum, prevCum := decimal.Zero, decimal.Zero
	for i := range rows {
		r := &rows[i]
		r.Position = i + 1
		before := prevSum.Shift(2)
		switch {
		case grand.IsZero():
			r.Class = ClassC
		case before.LessThan(limitA):
			r.Class = ClassA
		case before.LessThan(limitB):
			r.Class = ClassB
		default:
			r.Class = ClassC
		}
		prevSum = prevSum.Add(r.Total)
		if grand.IsPositive() {
			r.CumulativePercent = prevSum.Shift(2).DivRound(grand, 2)
		}
		r.Percent = r.CumulativePercent.Sub(prevCum)
		prevCum = r.CumulativePercent
	}
	return rows
}

// ABCRanked says what an ABC curve ranks.
type ABCRanked string

// What a curve ranks: the budget's resources (its lines exploded into their
// leaves, totals without BDI), or its services (its lines, totals with BDI).
const (
	RankedResources ABCRanked = "resources"
	RankedServices  ABCRanked = "services"
)

// ABCReport is the ABC curve of a budget's resources (BudgetPricer.ABC) or
// of its services (ServicesABC): Ranked says which; "" is resources.
type ABCReport struct {
	Budget *Budget
	Ranked ABCRanked
	Limits ABCLimits
	Rows   []ABCRow
	// Total is the sum of the rows' totals: the budget's direct cost
	// recomputed from its leaves, without BDI. It differs from the
	// synthetic total by what the compositions' rounding cut at each level.
	Total   decimal.Decimal
	Summary CostSummary // the rows' totals per category
	// Missing lists the rows without a price: when it is not empty the
	// total and the percents leave them out (incomplete).
	Missing []MissingPrice
}

// Incomplete reports whether some row could not be priced.
func (r *ABCReport) Incomplete() bool { return len(r.Missing) > 0 }

// ABCClassTotal sums the rows of one class of an ABC curve.
type ABCClassTotal struct {
	Class   ABCClass
	Count   int
	Total   decimal.Decimal
	Percent decimal.Decimal // share of the report's total, rounded half up to 2 places; 0 when that total is 0
}

// Classes sums the rows per class, A, B and C in that order; a class with no
// row has a zero count and total.
func (r *ABCReport) Classes() []ABCClassTotal {
	out := []ABCClassTotal{{Class: ClassA}, {Class: ClassB}, {Class: ClassC}}
	for _, row := range r.Rows {
		for i := range out {
			if out[i].Class == row.Class {
				out[i].Count++
				out[i].Total = out[i].Total.Add(row.Total)
			}
		}
	}
	if r.Total.IsPositive() {
		for i := range out {
			out[i].Percent = out[i].Total.Shift(2).DivRound(r.Total, 2)
		}
	}
	return out
}

// FiguresOut reports whether a figure of the curve (its limits, total,
// summary and rows) or of its budget's own (Budget.FiguresOut) is out of
// bounds (FigureOut).
func (r *ABCReport) FiguresOut() bool {
	if r.Budget.FiguresOut() || figuresOut(r.Limits.A, r.Limits.B, r.Total) || r.Summary.FiguresOut() {
		return true
	}
	for i := range r.Rows {
		x := &r.Rows[i]
		if figuresOut(x.Quantity, x.UnitPrice, x.Total, x.Percent, x.CumulativePercent) {
			return true
		}
	}
	return false
}

// ABC computes the ABC curve of the budget's resources: Explode, then
// RankABC. Zero limits take the defaults (50, 80); others must be valid.
func (bp *BudgetPricer) ABC(b *Budget, limits ABCLimits) (*ABCReport, error) {
	return bp.ABCWalk(b, b.Walk, limits)
}

// ABCWalk is ABC of the budget b (its fields, Items not needed) whose tree
// walk walks (ExplodeWalk).
func (bp *BudgetPricer) ABCWalk(b *Budget, walk NodeWalk, limits ABCLimits) (*ABCReport, error) {
	if limits.IsZero() {
		limits = DefaultABCLimits()
	}
	if err := limits.Validate(); err != nil {
		return nil, err
	}
	items, err := bp.ExplodeWalk(b, walk)
	if err != nil {
		return nil, err
	}
	r := &ABCReport{Budget: b, Limits: limits, Rows: RankABC(items, limits)}
	for i := range r.Rows {
		row := &r.Rows[i]
		r.Total = r.Total.Add(row.Total)
		r.Summary.add(row.Category, row.Total)
		if row.Missing {
			r.Missing = append(r.Missing, MissingPrice{Bank: row.Ref.Name, Code: row.Code, Kind: row.Kind, Reason: row.Reason,
				Unpriced: [2]bool{true, true}})
		}
	}
	return r, nil
}
