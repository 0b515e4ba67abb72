package domain

import "github.com/shopspring/decimal"

// The reports as they were computed before the streamed computation became
// the only one: kept as test oracles, in plain decimal arithmetic.

// oracleLine is BDIRule.Line in decimal arithmetic, for the rate given.
func oracleLine(r BDIRule, rate, unitPrice, quantity decimal.Decimal) LineFigures {
	cut := func(d decimal.Decimal) decimal.Decimal {
		if r.Rounding == BudgetRound {
			return d.Round(2)
		}
		return d.Truncate(2)
	}
	f := LineFigures{UnitPrice: unitPrice, Total: cut(unitPrice.Mul(quantity))}
	if r.Mode == BDIOnFinalTotal {
		f.UnitPriceWithBDI, f.TotalWithBDI = unitPrice, f.Total
		return f
	}
	f.UnitPriceWithBDI = cut(unitPrice.Mul(one.Add(rate.Shift(-2))))
	f.TotalWithBDI = cut(f.UnitPriceWithBDI.Mul(quantity))
	return f
}

// WholeSynthetic is the synthetic report computed the plain way, its rows
// held and every figure in decimal arithmetic: the oracle the one
// computation (SyntheticStream, Synthetic) is held to. Each line priced
// in the budget's regime (an own composition at its computed price, a bank
// composition at its published cost, a resource at its price in the state
// or edition), its figures by the budget's BDIRule, stages' subtotals and
// the footer.
func (bp *BudgetPricer) WholeSynthetic(b *Budget) (*SyntheticReport, error) {
	outline := b.Outline()
	rows := make([]SyntheticRow, len(outline))
	rule, reg := b.BDIRule(), b.Regime()
	var total, withBDI, supply decimal.Decimal
	var out []BudgetMissing
	for i, e := range outline {
		n := e.Node
		r := &rows[i]
		r.NodeID, r.Number, r.Depth, r.Kind = n.ID, e.Number, e.Depth, n.Kind
		if !n.Kind.IsLine() {
			r.Description = n.Description
			continue
		}
		li, err := bp.line(b, n)
		if err != nil {
			return nil, err
		}
		r.Bank, r.Month, r.Code, r.Unit, r.Quantity = n.Bank, li.ref.Month, n.Code, li.unit, n.Quantity
		var reason string
		r.Description = li.description
		r.Missing, reason = li.missingIn(reg)
		if r.Missing {
			out = append(out, BudgetMissing{NodeID: n.ID, Number: e.Number,
				MissingPrice: MissingPrice{Bank: n.Bank, Code: n.Code, Kind: ItemKind(n.Kind), Reason: reason}})
		}
		for _, m := range li.sub {
			if !m.Unpriced[reg] {
				continue // priced in the budget's regime
			}
			m.Reason = "in own composition " + n.Code + " (" + b.State + "): " + m.Reason
			out = append(out, BudgetMissing{NodeID: n.ID, Number: e.Number, MissingPrice: m})
		}
		if b.IsSupply(n.ID) {
			r.LineFigures = oracleLine(rule, rule.SupplyRate, li.price.In(reg), n.Quantity)
			r.Supply = true
			supply = supply.Add(r.Total)
		} else {
			r.LineFigures = oracleLine(rule, rule.Rate, li.price.In(reg), n.Quantity)
		}
		total, withBDI = total.Add(r.Total), withBDI.Add(r.TotalWithBDI)
	}
	// Subtotals, bottom up: children come after their stage in the outline,
	// so walking backwards adds each node to its parent once it is complete.
	for i := len(outline) - 1; i >= 0; i-- {
		if p := outline[i].Parent; p >= 0 {
			rows[p].Total = rows[p].Total.Add(rows[i].Total)
			rows[p].TotalWithBDI = rows[p].TotalWithBDI.Add(rows[i].TotalWithBDI)
		}
	}
	if total.IsPositive() {
		for i := range rows {
			rows[i].Weight = rows[i].Total.Shift(2).DivRound(total, 2)
		}
	}
	return &SyntheticReport{Budget: b, Rows: rows, BudgetTotals: rule.TotalsWithSupply(total, supply, withBDI), Missing: out}, nil
}

// WholeAnalytic is the analytic report computed the plain way over the
// budget held whole (WholeSynthetic's rows): the oracle AnalyticStream and
// Analytic are held to.
func (bp *BudgetPricer) WholeAnalytic(b *Budget) (*AnalyticReport, error) {
	syn, err := bp.WholeSynthetic(b)
	if err != nil {
		return nil, err
	}
	out := &AnalyticReport{Budget: b, Rows: make([]AnalyticRow, len(syn.Rows)), BudgetTotals: syn.BudgetTotals,
		Missing: append([]BudgetMissing(nil), syn.Missing...)}
	outline := b.Outline()
	reg := b.Regime()
	for i, e := range outline {
		row := &out.Rows[i]
		row.SyntheticRow = syn.Rows[i]
		n := e.Node
		if !n.Kind.IsLine() {
			continue
		}
		li, err := bp.line(b, n)
		if err != nil {
			return nil, err
		}
		switch {
		case li.own != nil:
			row.Items, err = bp.ownItems(li.own, reg)
		case li.bank != nil:
			row.Items, err = bp.bankItems(li.ref, n.Code, reg, b.LabourCharges)
		}
		if err != nil {
			return nil, err
		}
		if li.bank != nil {
			out.Missing = appendStructureMissing(out.Missing, n, e.Number, n.Code, row.Items)
		}
		if row.UnitSummary, err = bp.unitSummary(b, n); err != nil {
			return nil, err
		}
	}
	items, err := bp.Explode(b)
	if err != nil {
		return nil, err
	}
	for _, in := range items {
		out.Summary.add(in.Category, in.Total)
	}
	return out, nil
}
