package domain

import "github.com/shopspring/decimal"

// A conformity report (docs/conformity.md) holds a proposal (a budget, as
// its synthetic report prices it) against its reference (another budget or
// a frozen version): per line its unit price with BDI against the
// reference's, flagged when above it (sobrepreço); per stage and global the
// totals; the global value against the thresholds of Lei 14.133/2021 art.
// 59 §§ 4 and 5 for works and engineering services; and the lines that make
// 80% of the proposal's value (ServicesABC, class A), for detailed checking.

// ConformityLimits are the thresholds of art. 59, in percent of the
// reference's total with BDI: a proposal below Unfeasible is presumed
// unfeasible (§ 4: 75), below Guarantee it requires the additional
// guarantee of the difference (§ 5: 85). Both are parameters.
type ConformityLimits struct {
	Unfeasible, Guarantee decimal.Decimal
}

// DefaultConformityLimits are art. 59 §§ 4 and 5's 75% and 85%.
func DefaultConformityLimits() ConformityLimits {
	return ConformityLimits{Unfeasible: decimal.NewFromInt(75), Guarantee: decimal.NewFromInt(85)}
}

// Validate checks the limits: percents above 0 and at most 100, with at
// most 2 places, unfeasible at most guarantee. Every error at once.
func (l ConformityLimits) Validate() error {
	var v Validation
	for _, x := range []struct {
		name string
		d    decimal.Decimal
	}{{"/unfeasible", l.Unfeasible}, {"/guarantee", l.Guarantee}} {
		if !x.d.IsPositive() || x.d.GreaterThan(hundred) || !x.d.Equal(x.d.Truncate(2)) {
			v.Add(x.name, "must be a percent above 0 and at most 100, with at most 2 places, not %s", x.d)
		}
	}
	if v.Len() == 0 && l.Unfeasible.GreaterThan(l.Guarantee) {
		v.Add("/unfeasible", "must not be above the guarantee threshold (%s)", l.Guarantee)
	}
	return v.Err()
}

// Judge places a proposal's total against the reference's (positive),
// exactly (total × 100 against reference × limit, no rounded percent):
// unfeasible when below Unfeasible%, guarantee when below Guarantee%; a
// total at a threshold is not below it.
func (l ConformityLimits) Judge(total, reference decimal.Decimal) (unfeasible, guarantee bool) {
	t100 := total.Shift(2)
	return t100.LessThan(reference.Mul(l.Unfeasible)), t100.LessThan(reference.Mul(l.Guarantee))
}

// ConformityLine is a line of the proposal against the reference.
type ConformityLine struct {
	Row *SyntheticRow // the proposal's
	// Matched is false when the reference has no such line (same item
	// number and code, or else the one line of that bank and code).
	Matched bool
	// Reference is the reference's unit price with BDI; ReferenceTotal the
	// reference's value of the proposal's quantity (the reference's rule:
	// BDIRule.Line of its unit price).
	Reference, ReferenceTotal decimal.Decimal
	// Difference is the proposal's unit price with BDI less the
	// reference's; Percent that difference in percent of the reference's,
	// half up to 2 places.
	Difference, Percent decimal.Decimal
	// Above flags a unit price with BDI above the reference's
	// (sobrepreço); Overprice is then the line's total less
	// ReferenceTotal.
	Above     bool
	Overprice decimal.Decimal
	// Sample marks the lines that make 80% of the proposal's value
	// (ServicesABC's class A).
	Sample bool
}

// ConformityStage is a top-level stage's totals.
type ConformityStage struct {
	Number, Description   string
	Total, ReferenceTotal decimal.Decimal // of its matched lines
	Difference, Percent   decimal.Decimal
	Above                 int // lines above the reference
	Overprice             decimal.Decimal
	sums                  [3]amount // total, reference total, overprice
}

// Conformity is the report.
type Conformity struct {
	Proposal, Reference *SyntheticReport
	Limits              ConformityLimits
	Lines               []ConformityLine
	Stages              []ConformityStage
	// Total and ReferenceTotal are the two budgets' totals with BDI;
	// Percent is Total in percent of ReferenceTotal, half up to 2 places
	// (the thresholds are decided on exact values).
	Total, ReferenceTotal, Percent decimal.Decimal
	// Unfeasible: Total < Unfeasible% of ReferenceTotal (art. 59 § 4).
	// GuaranteeRequired: Total < Guarantee% of ReferenceTotal (§ 5), the
	// guarantee then ReferenceTotal − Total.
	Unfeasible, GuaranteeRequired bool
	Guarantee                     decimal.Decimal
	// Above counts the lines above the reference; Overprice sums their
	// overprices; Unmatched counts the lines the reference lacks.
	Above, Unmatched int
	Overprice        decimal.Decimal
}

// NewConformity holds the proposal's synthetic report against the
// reference's. Lines are matched by item number and code, or else by bank
// and code when the reference has one line of them.
func NewConformity(proposal, reference *SyntheticReport, limits ConformityLimits) (*Conformity, error) {
	if err := limits.Validate(); err != nil {
		return nil, err
	}
	c := &Conformity{Proposal: proposal, Reference: reference, Limits: limits,
		Total: proposal.TotalWithBDI, ReferenceTotal: reference.TotalWithBDI}
	byNumber := map[string]*SyntheticRow{}
	byCode := map[string][]*SyntheticRow{}
	for i := range reference.Rows {
		r := &reference.Rows[i]
		if r.Kind.IsLine() {
			byNumber[r.Number+"\x00"+r.Code] = r
			byCode[r.Bank+"\x00"+r.Code] = append(byCode[r.Bank+"\x00"+r.Code], r)
		}
	}
	sample := map[string]bool{}
	if abc, err := ServicesABC(proposal, ABCLimits{A: decimal.NewFromInt(80), B: decimal.NewFromInt(95)}); err == nil {
		for _, row := range abc.Rows {
			if row.Class == ClassA {
				sample[row.Ref.Name+"\x00"+row.Code+"\x00"+row.UnitPrice.String()] = true
			}
		}
	} else {
		return nil, err
	}
	refRule := reference.Budget.BDIRule()
	stageAt := -1
	var overprice amount
	for i := range proposal.Rows {
		row := &proposal.Rows[i]
		if row.Kind == NodeStage {
			if row.Depth == 1 {
				c.Stages = append(c.Stages, ConformityStage{Number: row.Number, Description: row.Description})
				stageAt = len(c.Stages) - 1
			}
			continue
		}
		if row.Depth == 1 {
			stageAt = -1
		}
		l := ConformityLine{Row: row, Sample: sample[row.Bank+"\x00"+row.Code+"\x00"+row.UnitPriceWithBDI.String()]}
		ref, ok := byNumber[row.Number+"\x00"+row.Code]
		if !ok {
			if list := byCode[row.Bank+"\x00"+row.Code]; len(list) == 1 {
				ref, ok = list[0], true
			}
		}
		if ok && !ref.Missing && !row.Missing {
			l.Matched = true
			l.Reference = ref.UnitPriceWithBDI
			if ref.Supply {
				l.ReferenceTotal = refRule.LineSupply(ref.UnitPrice, row.Quantity).TotalWithBDI
			} else {
				l.ReferenceTotal = refRule.Line(ref.UnitPrice, row.Quantity).TotalWithBDI
			}
			l.Difference = row.UnitPriceWithBDI.Sub(l.Reference)
			if !l.Reference.IsZero() {
				l.Percent = l.Difference.Shift(2).DivRound(l.Reference, 2)
			}
			if l.Difference.IsPositive() {
				l.Above = true
				l.Overprice = row.TotalWithBDI.Sub(l.ReferenceTotal)
				c.Above++
				overprice = overprice.add(amountOf(l.Overprice))
			}
			if stageAt >= 0 {
				st := &c.Stages[stageAt]
				st.sums[0] = st.sums[0].add(amountOf(row.TotalWithBDI))
				st.sums[1] = st.sums[1].add(amountOf(l.ReferenceTotal))
				if l.Above {
					st.Above++
					st.sums[2] = st.sums[2].add(amountOf(l.Overprice))
				}
			}
		} else {
			c.Unmatched++
		}
		c.Lines = append(c.Lines, l)
	}
	for k := range c.Stages {
		st := &c.Stages[k]
		st.Total, st.ReferenceTotal, st.Overprice = st.sums[0].Decimal(), st.sums[1].Decimal(), st.sums[2].Decimal()
		st.Difference = st.Total.Sub(st.ReferenceTotal)
		if !st.ReferenceTotal.IsZero() {
			st.Percent = st.Difference.Shift(2).DivRound(st.ReferenceTotal, 2)
		}
	}
	c.Overprice = overprice.Decimal()
	if c.ReferenceTotal.IsPositive() {
		c.Percent = c.Total.Shift(2).DivRound(c.ReferenceTotal, 2)
		c.Unfeasible, c.GuaranteeRequired = limits.Judge(c.Total, c.ReferenceTotal)
		if c.GuaranteeRequired {
			c.Guarantee = c.ReferenceTotal.Sub(c.Total)
		}
	}
	return c, nil
}

// SampleNumbers lists the item numbers of the sample's lines.
func (c *Conformity) SampleNumbers() []string {
	var out []string
	for _, l := range c.Lines {
		if l.Sample {
			out = append(out, l.Row.Number)
		}
	}
	return out
}

// ContractDiscount is a contract's discount against its reference before
// and after its approved amendments (Decreto 7.983/2013, art. 14: "A
// diferença percentual entre o valor global do contrato e o preço global de
// referência não poderá ser reduzida em favor do contratado em decorrência
// de aditamentos que modifiquem a planilha orçamentária").
type ContractDiscount struct {
	// Initial and Current are the contract's values (with BDI) at its
	// signed and at its current quantities; ReferenceInitial and
	// ReferenceCurrent the reference's values of the same quantities.
	Initial, ReferenceInitial, Current, ReferenceCurrent decimal.Decimal
	// Discounts in percent of the reference, half up to 4 places.
	InitialDiscount, CurrentDiscount decimal.Decimal
	// Reduced: the current discount is below the initial one (decided
	// exactly), which art. 14 forbids.
	Reduced bool
	// Unmatched lists the contract lines (numbers) the reference lacks:
	// left out of both sides.
	Unmatched []string
}

// NewContractDiscount values the contract's lines, at their signed and at
// their current quantities (s, after its approved amendments), by the
// contract's prices and by the reference's (lines matched as
// NewConformity matches them), and compares the discounts.
func NewContractDiscount(s *ContractState, reference *SyntheticReport) *ContractDiscount {
	byNumber := map[string]*SyntheticRow{}
	byCode := map[string][]*SyntheticRow{}
	for i := range reference.Rows {
		r := &reference.Rows[i]
		if r.Kind.IsLine() && !r.Missing {
			byNumber[r.Number+"\x00"+r.Code] = r
			byCode[r.Bank+"\x00"+r.Code] = append(byCode[r.Bank+"\x00"+r.Code], r)
		}
	}
	refRule := reference.Budget.BDIRule()
	d := &ContractDiscount{}
	var sums [4]amount
	for i := range s.Lines {
		l := &s.Lines[i]
		ref, ok := byNumber[l.Number+"\x00"+l.Code]
		if !ok {
			if list := byCode[l.Bank+"\x00"+l.Code]; len(list) == 1 {
				ref, ok = list[0], true
			}
		}
		if !ok {
			d.Unmatched = append(d.Unmatched, l.Number)
			continue
		}
		refValue := func(q decimal.Decimal) decimal.Decimal {
			if ref.Supply {
				return refRule.LineSupply(ref.UnitPrice, q).TotalWithBDI
			}
			return refRule.Line(ref.UnitPrice, q).TotalWithBDI
		}
		initial := decimal.Zero
		if l.Amendment == 0 {
			initial = l.Quantity
		}
		current := s.Contracted[l.ID]
		sums[0] = sums[0].add(amountOf(s.Contract.Value(l, initial)))
		sums[1] = sums[1].add(amountOf(refValue(initial)))
		sums[2] = sums[2].add(amountOf(s.Contract.Value(l, current)))
		sums[3] = sums[3].add(amountOf(refValue(current)))
	}
	d.Initial, d.ReferenceInitial, d.Current, d.ReferenceCurrent = sums[0].Decimal(), sums[1].Decimal(), sums[2].Decimal(), sums[3].Decimal()
	discount := func(v, ref decimal.Decimal) decimal.Decimal {
		if ref.IsZero() {
			return decimal.Zero
		}
		return ref.Sub(v).Shift(2).DivRound(ref, 4)
	}
	d.InitialDiscount, d.CurrentDiscount = discount(d.Initial, d.ReferenceInitial), discount(d.Current, d.ReferenceCurrent)
	// current discount < initial discount ⇔ current / refCurrent >
	// initial / refInitial ⇔ current × refInitial > initial × refCurrent.
	if d.ReferenceInitial.IsPositive() && d.ReferenceCurrent.IsPositive() {
		d.Reduced = d.Current.Mul(d.ReferenceInitial).GreaterThan(d.Initial.Mul(d.ReferenceCurrent))
	}
	return d
}
