package domain

import "github.com/shopspring/decimal"

// A proposal (proposta de preços) is what a bidder offers under a
// reference budget: every line's unit price with BDI less one uniform
// discount, the budget's quantities and rounding kept.
//
//	proposal unit price = cut(reference unit price with BDI × (1 − discount/100))
//	proposal line total = cut(proposal unit price × quantity)
//
// cut is the budget's (Budget.Rounding, 2 places), and a proposal unit
// price is never above the reference's. The footer follows the budget's
// BDI rule: on the unit price it is the sum of the lines' totals; on the
// final total the discount applies to the unit prices without BDI (which
// are what the lines carry in that mode) and the BDI is added to their sum
// as the budget adds it (BDIRule.TotalsWithSupply). Stages carry the sums
// of their lines.
//
// Given a target total instead of a discount (ProposalForTarget), the
// discount is the smallest one, in steps of 10^-places percent, whose
// proposal total does not exceed the target; the residual is target −
// total, never negative, and is the smallest any discount of that step
// leaves, because the total never grows as the discount grows.

// ProposalRow is one row of a proposal: a stage with its sums, or a line.
type ProposalRow struct {
	NodeID      string
	Number      string
	Depth       int
	Kind        NodeKind
	Bank        string
	Month       string
	Code        string
	Description string
	Unit        string
	Quantity    decimal.Decimal
	// Lines only: the reference's unit price with BDI (the unit price on
	// the final total) and the proposal's.
	ReferenceUnitPrice decimal.Decimal
	UnitPrice          decimal.Decimal
	// The reference's line total and the proposal's (with BDI on the unit
	// price; without on the final total); a stage's are its lines' sums.
	ReferenceTotal decimal.Decimal
	Total          decimal.Decimal
	Missing        bool
	Supply         bool
}

// Proposal is a budget's proposal under a uniform discount.
type Proposal struct {
	Budget *Budget
	// Discount is the discount applied, in percent; Places its step when
	// it was searched for a target (-1 when it was given).
	Discount decimal.Decimal
	Places   int32
	Rows     []ProposalRow
	// ReferenceTotal and Total are the totals with BDI of the reference
	// and of the proposal; Target and Residual (Target − Total) only when
	// a target was given.
	ReferenceTotal decimal.Decimal
	Total          decimal.Decimal
	Target         decimal.NullDecimal
	Residual       decimal.NullDecimal
	// Missing is the reference's: lines priced at zero.
	Missing []BudgetMissing
}

// EffectiveDiscount is the global discount the proposal reaches,
// (reference − proposal) / reference × 100, rounded half up to 4 places
// for reading (0 when the reference totals zero). The figures that add up
// are Total and ReferenceTotal.
func (p *Proposal) EffectiveDiscount() decimal.Decimal {
	if p.ReferenceTotal.IsZero() {
		return decimal.Zero
	}
	return p.ReferenceTotal.Sub(p.Total).Shift(2).DivRound(p.ReferenceTotal, 4)
}

// CheckDiscount returns the field errors of a discount in percent:
// 0 ≤ discount < 100, with at most 6 places.
func CheckDiscount(v *Validation, field string, d decimal.Decimal) {
	if d.IsNegative() || d.GreaterThanOrEqual(decimal.NewFromInt(100)) {
		v.Add(field, "must be a percentage from 0 to less than 100, not %s", d)
	} else if !d.Equal(d.Round(6)) {
		v.Add(field, "has more than 6 decimal places: %s", d)
	}
}

// proposalPricer holds the reference's lines, to price them under any
// discount.
type proposalPricer struct {
	syn   *SyntheticReport
	rule  BDIRule
	lines []int // indexes of syn.Rows that are lines
}

func newProposalPricer(syn *SyntheticReport) *proposalPricer {
	pp := &proposalPricer{syn: syn, rule: syn.Budget.BDIRule()}
	for i := range syn.Rows {
		if syn.Rows[i].Kind.IsLine() {
			pp.lines = append(pp.lines, i)
		}
	}
	return pp
}

// unit is the proposal unit price of a line for the factor 1 − discount/100.
func (pp *proposalPricer) unit(row *SyntheticRow, factor decimal.Decimal) decimal.Decimal {
	ref := row.UnitPriceWithBDI
	u := pp.rule.Rounding.cutMul(ref, factor)
	if u.GreaterThan(ref) {
		u = ref
	}
	return u
}

// total is the proposal's footer total with BDI for the factor, and the
// sum of its supply lines (for the final total).
func (pp *proposalPricer) total(factor decimal.Decimal) decimal.Decimal {
	sum, supply := decimal.Zero, decimal.Zero
	for _, i := range pp.lines {
		row := &pp.syn.Rows[i]
		t := pp.rule.Rounding.cutMul(pp.unit(row, factor), row.Quantity)
		sum = sum.Add(t)
		if row.Supply {
			supply = supply.Add(t)
		}
	}
	return pp.footer(sum, supply)
}

func (pp *proposalPricer) footer(sum, supply decimal.Decimal) decimal.Decimal {
	if pp.rule.Mode == BDIOnFinalTotal {
		return pp.rule.TotalsWithSupply(sum, supply, sum).TotalWithBDI
	}
	return sum
}

func factorOf(discount decimal.Decimal) decimal.Decimal {
	return one.Sub(discount.Shift(-2))
}

// proposal builds the rows for the discount.
func (pp *proposalPricer) proposal(discount decimal.Decimal, places int32) *Proposal {
	syn := pp.syn
	factor := factorOf(discount)
	p := &Proposal{Budget: syn.Budget, Discount: discount, Places: places, Rows: make([]ProposalRow, len(syn.Rows)),
		ReferenceTotal: syn.TotalWithBDI, Missing: syn.Missing}
	// stages open at each depth: their rows' indexes.
	var open []int
	sum, supply := decimal.Zero, decimal.Zero
	for i := range syn.Rows {
		row := &syn.Rows[i]
		for len(open) > 0 && p.Rows[open[len(open)-1]].Depth >= row.Depth {
			open = open[:len(open)-1]
		}
		pr := ProposalRow{NodeID: row.NodeID, Number: row.Number, Depth: row.Depth, Kind: row.Kind, Bank: row.Bank,
			Month: row.Month, Code: row.Code, Description: row.Description, Unit: row.Unit, Quantity: row.Quantity,
			Missing: row.Missing, Supply: row.Supply}
		if row.Kind.IsLine() {
			pr.ReferenceUnitPrice = row.UnitPriceWithBDI
			pr.UnitPrice = pp.unit(row, factor)
			pr.ReferenceTotal = row.TotalWithBDI
			pr.Total = pp.rule.Rounding.cutMul(pr.UnitPrice, row.Quantity)
			sum = sum.Add(pr.Total)
			if row.Supply {
				supply = supply.Add(pr.Total)
			}
			for _, s := range open {
				p.Rows[s].ReferenceTotal = p.Rows[s].ReferenceTotal.Add(pr.ReferenceTotal)
				p.Rows[s].Total = p.Rows[s].Total.Add(pr.Total)
			}
		} else {
			open = append(open, i)
		}
		p.Rows[i] = pr
	}
	p.Total = pp.footer(sum, supply)
	return p
}

// NewProposal is the proposal of the synthetic report's budget under the
// discount (percent). The report must hold its rows (Synthetic).
func NewProposal(syn *SyntheticReport, discount decimal.Decimal) (*Proposal, error) {
	var v Validation
	CheckDiscount(&v, "/discount", discount)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return newProposalPricer(syn).proposal(discount, -1), nil
}

// MaxProposalPlaces is the finest step of a searched discount: 10^-6 %.
const MaxProposalPlaces = 6

// CheckProposalPlaces adds the field error of a searched discount's places
// outside 0 … MaxProposalPlaces.
func CheckProposalPlaces(v *Validation, field string, places int32) {
	if places < 0 || places > MaxProposalPlaces {
		v.Add(field, "must be from 0 to %d, not %d", MaxProposalPlaces, places)
	}
}

// ProposalForTarget is the proposal whose total with BDI comes closest to
// the target without exceeding it, the discount searched in steps of
// 10^-places percent (0 ≤ places ≤ MaxProposalPlaces). A target at or
// above the reference's total gives no discount; a target no discount
// below 100% reaches is a field error naming the lowest total reachable.
func ProposalForTarget(syn *SyntheticReport, target decimal.Decimal, places int32) (*Proposal, error) {
	var v Validation
	if target.IsNegative() {
		v.Add("/target", "must not be negative: %s", target)
	}
	CheckProposalPlaces(&v, "/places", places)
	if err := v.Err(); err != nil {
		return nil, err
	}
	pp := newProposalPricer(syn)
	step := decimal.New(1, -places)
	// The steps 0 … hi, hi the last below 100%.
	hi := decimal.NewFromInt(100).Shift(places).IntPart() - 1
	at := func(k int64) decimal.Decimal { return step.Mul(decimal.NewFromInt(k)) }
	if low := pp.total(factorOf(at(hi))); low.GreaterThan(target) {
		return nil, FieldErrorf("/target", "%s is below the lowest total a discount under 100%% reaches: %s (at %s%%)", target, low, at(hi))
	}
	// The smallest k whose total does not exceed the target: total(k) is
	// non-increasing in k.
	lo := int64(0)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if pp.total(factorOf(at(mid))).GreaterThan(target) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	p := pp.proposal(at(lo), places)
	p.Target = decimal.NullDecimal{Decimal: target, Valid: true}
	p.Residual = decimal.NullDecimal{Decimal: target.Sub(p.Total), Valid: true}
	return p, nil
}

// FiguresOut reports whether a figure of the proposal, or of its budget,
// is beyond what an answer can show (FigureOut).
func (p *Proposal) FiguresOut() bool {
	if p.Budget.FiguresOut() || figuresOut(p.Discount, p.Total, p.ReferenceTotal, p.Target.Decimal, p.Residual.Decimal) {
		return true
	}
	for _, r := range p.Rows {
		if figuresOut(r.Quantity, r.ReferenceUnitPrice, r.UnitPrice, r.ReferenceTotal, r.Total) {
			return true
		}
	}
	return false
}
