package domain

import (
	"sort"

	"github.com/shopspring/decimal"
)

// PriceDiff compares two synthetic reports of one budget tree (the same
// node ids): the budget priced as it is and priced against a target (other
// editions, state or regime), or two frozen versions. Lines are sorted by
// impact: the absolute difference of their totals with BDI, largest first
// (ties by number).
type PriceDiff struct {
	Before, After *SyntheticReport
	Lines         []LineDiff
	Stages        []StageDiff // in tree order
	// Lacking are the lines the target cannot price (a subset of Lines).
	Lacking []LineDiff
	// Total is the budget's total with BDI before and after.
	Total TotalDiff
}

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
	Quantity       decimal.Decimal
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
}

// StageDiff is a stage's subtotals (with BDI) before and after.
type StageDiff struct {
	NodeID, Number string
	Depth          int
	Description    string
	Before, After  decimal.Decimal
	Diff           decimal.Decimal
	DiffPct        *decimal.Decimal
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

// ComparePrices compares two synthetic reports of budgets with the same
// tree. A node of before that after lacks (a tree changed in between, which
// frozen versions allow) is a line with no price after.
func ComparePrices(before, after *SyntheticReport) *PriceDiff {
	d := &PriceDiff{Before: before, After: after, Total: diffOf(before.TotalWithBDI, after.TotalWithBDI)}
	byID := make(map[string]*SyntheticRow, len(after.Rows))
	for i := range after.Rows {
		byID[after.Rows[i].NodeID] = &after.Rows[i]
	}
	for _, b := range before.Rows {
		a, ok := byID[b.NodeID]
		if !b.Kind.IsLine() {
			var after decimal.Decimal
			if ok {
				after = a.TotalWithBDI
			}
			t := diffOf(b.TotalWithBDI, after)
			d.Stages = append(d.Stages, StageDiff{NodeID: b.NodeID, Number: b.Number, Depth: b.Depth, Description: b.Description,
				Before: t.Before, After: t.After, Diff: t.Diff, DiffPct: t.DiffPct})
			continue
		}
		l := LineDiff{NodeID: b.NodeID, Number: b.Number, Kind: b.Kind, Bank: b.Bank, Code: b.Code, Description: b.Description,
			Unit: b.Unit, Quantity: b.Quantity, MonthBefore: b.Month, UnitBefore: b.UnitPrice, TotalBefore: b.TotalWithBDI,
			MissingBefore: b.Missing, Lacking: !ok || a.Missing}
		if ok {
			l.MonthAfter, l.UnitAfter, l.TotalAfter = a.Month, a.UnitPrice, a.TotalWithBDI
		}
		l.UnitDiff = l.UnitAfter.Sub(l.UnitBefore)
		l.TotalDiff = l.TotalAfter.Sub(l.TotalBefore)
		l.TotalDiffPct = PercentOf(l.TotalDiff, l.TotalBefore)
		if !l.Lacking && !l.MissingBefore {
			l.UnitDiffPct = PercentOf(l.UnitDiff, l.UnitBefore)
		}
		d.Lines = append(d.Lines, l)
	}
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
