package domain

import (
	"sort"

	"github.com/shopspring/decimal"
)

// PriceDiff compares two synthetic reports of budgets matched node by node
// (the same node ids): the budget priced as it is and priced against a
// target (other editions, state or regime), or two frozen versions, whose
// trees may differ. Every line of either side is in Lines once (Change
// says whether it was added, removed, changed or is unchanged), sorted by
// impact: the absolute difference of their totals with BDI, largest first
// (ties by number).
//
// The comparison adds up: the sum of the lines' TotalDiff plus
// Residual.Diff is Total.Diff, exactly. Residual is the part of the
// budget's total with BDI that is in no line: zero when the BDI is on the
// unit price (the total with BDI is the sum of the lines'), the footer's
// BDI value when it is on the final total (there the lines carry no BDI
// and the BDI value is cut once on the total).
type PriceDiff struct {
	Before, After *SyntheticReport
	Lines         []LineDiff
	Stages        []StageDiff // in tree order (after's, then the stages only before has)
	// Lacking are the lines the target cannot price (a subset of Lines;
	// a removed line is one).
	Lacking []LineDiff
	// Total is the budget's total with BDI before and after.
	Total TotalDiff
	// Residual is the part of Total in no line, before and after.
	Residual TotalDiff
}

// Change says how a line or stage of a comparison changed.
type Change string

// The changes of a line or stage.
const (
	Unchanged Change = "unchanged" // in both, the same total with BDI
	Changed   Change = "changed"   // in both, another total with BDI
	Added     Change = "added"     // only after
	Removed   Change = "removed"   // only before
)

// TotalDiff is an amount before and after, with its difference: Diff =
// After − Before, DiffPct it in percent of Before (PercentOf; nil for a
// zero Before).
type TotalDiff struct {
	Before, After, Diff decimal.Decimal
	DiffPct             *decimal.Decimal
}

// diffOf is the difference of before and after.
func diffOf(before, after decimal.Decimal) TotalDiff {
	d := after.Sub(before)
	return TotalDiff{Before: before, After: after, Diff: d, DiffPct: PercentOf(d, before)}
}

// LineDiff is one line before and after.
type LineDiff struct {
	NodeID, Number string
	Kind           NodeKind
	Bank, Code     string
	Description    string
	Unit           string
	// Quantity is the line's quantity before (after for an added line),
	// QuantityAfter after (zero for a removed line). Number, description
	// and the rest are the line's before (after for an added line).
	Quantity, QuantityAfter decimal.Decimal
	// Editions (months) before and after ("" for the own base).
	MonthBefore, MonthAfter string
	// Unit prices (without BDI) and line totals with BDI.
	UnitBefore, UnitAfter   decimal.Decimal
	TotalBefore, TotalAfter decimal.Decimal
	// MissingBefore: the line had no price before; Lacking: the target
	// has none (its figures after are zero).
	MissingBefore, Lacking bool
	// UnitDiff = UnitAfter − UnitBefore; UnitDiffPct is it in percent of
	// UnitBefore rounded half up to 2 places (nil when UnitBefore is zero
	// or a side has no price). TotalDiff likewise for the totals with BDI.
	UnitDiff    decimal.Decimal
	UnitDiffPct *decimal.Decimal
	TotalDiff   decimal.Decimal
	// TotalDiffPct is TotalDiff in percent of TotalBefore (nil when it is
	// zero), whether or not a side has a price.
	TotalDiffPct *decimal.Decimal
	// Change: an added line has MissingBefore, a removed one Lacking (its
	// figures on the side that lacks it are zero).
	Change Change
}

// StageDiff is a stage's subtotals (with BDI) before and after.
type StageDiff struct {
	NodeID, Number string
	Depth          int
	Description    string
	Before, After  decimal.Decimal
	Diff           decimal.Decimal
	DiffPct        *decimal.Decimal
	Change         Change
}

// PercentOf returns diff as a percent of base, half up to 2 places; nil
// for a zero base.
func PercentOf(diff, base decimal.Decimal) *decimal.Decimal {
	if base.IsZero() {
		return nil
	}
	p := RoundHalfUp(diff.Shift(2).DivRound(base, 8), 2)
	return &p
}

// ComparePrices compares two synthetic reports, matching their nodes by
// id. A node only before (a tree changed in between, which frozen versions
// allow) is removed: a line with no price after; a node only after is
// added: a line with no price before.
func ComparePrices(before, after *SyntheticReport) *PriceDiff {
	d := &PriceDiff{Before: before, After: after, Total: diffOf(before.TotalWithBDI, after.TotalWithBDI)}
	byID := make(map[string]*SyntheticRow, len(before.Rows))
	for i := range before.Rows {
		byID[before.Rows[i].NodeID] = &before.Rows[i]
	}
	var linesBefore, linesAfter decimal.Decimal
	seen := make(map[string]bool, len(after.Rows))
	add := func(b, a *SyntheticRow) {
		if b != nil && a != nil && b.Kind.IsLine() != a.Kind.IsLine() {
			// Never with node ids given once; compared as a removal and an addition.
			add2(d, b, nil, &linesBefore, &linesAfter)
			add2(d, nil, a, &linesBefore, &linesAfter)
			return
		}
		add2(d, b, a, &linesBefore, &linesAfter)
	}
	for i := range after.Rows {
		a := &after.Rows[i]
		seen[a.NodeID] = true
		add(byID[a.NodeID], a)
	}
	for i := range before.Rows {
		if b := &before.Rows[i]; !seen[b.NodeID] {
			add(b, nil)
		}
	}
	d.Residual = diffOf(before.TotalWithBDI.Sub(linesBefore), after.TotalWithBDI.Sub(linesAfter))
	sort.SliceStable(d.Lines, func(i, j int) bool {
		ai, aj := d.Lines[i].TotalDiff.Abs(), d.Lines[j].TotalDiff.Abs()
		if c := ai.Cmp(aj); c != 0 {
			return c > 0
		}
		return lessNumber(d.Lines[i].Number, d.Lines[j].Number)
	})
	for _, l := range d.Lines {
		if l.Lacking {
			d.Lacking = append(d.Lacking, l)
		}
	}
	return d
}

// add2 adds to d the comparison of a node before (b) and after (a), either
// nil when the node is on one side only, and its lines' totals with BDI to
// the sums.
func add2(d *PriceDiff, b, a *SyntheticRow, linesBefore, linesAfter *decimal.Decimal) {
	var zero SyntheticRow
	change := Changed
	switch {
	case b == nil:
		b, change = &zero, Added
	case a == nil:
		a, change = &zero, Removed
	case a.TotalWithBDI.Equal(b.TotalWithBDI):
		change = Unchanged
	}
	shown := b // the node as it was before, or after when added
	if change == Added {
		shown = a
	}
	id := shown.NodeID
	if !shown.Kind.IsLine() {
		t := diffOf(b.TotalWithBDI, a.TotalWithBDI)
		d.Stages = append(d.Stages, StageDiff{NodeID: id, Number: shown.Number, Depth: shown.Depth, Description: shown.Description,
			Before: t.Before, After: t.After, Diff: t.Diff, DiffPct: t.DiffPct, Change: change})
		return
	}
	*linesBefore, *linesAfter = linesBefore.Add(b.TotalWithBDI), linesAfter.Add(a.TotalWithBDI)
	l := LineDiff{NodeID: id, Number: shown.Number, Kind: shown.Kind, Bank: shown.Bank, Code: shown.Code, Description: shown.Description,
		Unit: shown.Unit, Quantity: shown.Quantity, MonthBefore: b.Month, UnitBefore: b.UnitPrice, TotalBefore: b.TotalWithBDI,
		MissingBefore: b.Missing || change == Added, Lacking: a.Missing || change == Removed,
		MonthAfter: a.Month, UnitAfter: a.UnitPrice, TotalAfter: a.TotalWithBDI, QuantityAfter: a.Quantity, Change: change}
	l.UnitDiff = l.UnitAfter.Sub(l.UnitBefore)
	l.TotalDiff = l.TotalAfter.Sub(l.TotalBefore)
	l.TotalDiffPct = PercentOf(l.TotalDiff, l.TotalBefore)
	if !l.Lacking && !l.MissingBefore {
		l.UnitDiffPct = PercentOf(l.UnitDiff, l.UnitBefore)
	}
	d.Lines = append(d.Lines, l)
}

// lessNumber orders position numbers ("1.2" < "1.10") part by part.
func lessNumber(a, b string) bool {
	pa, pb := splitNumber(a), splitNumber(b)
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}

func splitNumber(s string) []int {
	var out []int
	n := 0
	for _, c := range s {
		if c == '.' {
			out = append(out, n)
			n = 0
			continue
		}
		n = n*10 + int(c-'0')
	}
	return append(out, n)
}
