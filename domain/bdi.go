package domain

import "github.com/shopspring/decimal"

// BDIRule is how a budget applies its BDI (Benefícios e Despesas Indiretas,
// the overhead and profit markup): the rate in percent, where it applies and
// how every money figure is cut to centavos (cut = TRUNC or ROUND half up to
// 2 places, by Rounding).
//
// On the unit price (BDIOnUnitPrice, DOMAIN.md's default):
//
//	unit price with BDI = cut(unit price × (1 + rate/100))
//	line total          = cut(unit price × quantity)
//	line total with BDI = cut(unit price with BDI × quantity)
//	total, total with BDI: the sums of the line figures; BDI value = their difference
//
// On the final total (BDIOnFinalTotal):
//
//	line total          = cut(unit price × quantity)
//	total               = Σ line totals
//	BDI value           = cut(total × rate/100)
//	total with BDI      = total + BDI value
//
// In that mode the BDI is not spread over the lines: a line's unit price
// with BDI and total with BDI repeat its unit price and total, and only the
// footer carries the BDI.
type BDIRule struct {
	Rate     decimal.Decimal // percent: 25 means 25%
	Mode     BDIMode
	Rounding BudgetRounding
	// SupplyRate is the differentiated BDI of supply lines (LineSupply).
	SupplyRate decimal.Decimal
}

// LineFigures are the money figures of one line of a budget.
type LineFigures struct {
	UnitPrice        decimal.Decimal
	UnitPriceWithBDI decimal.Decimal
	Total            decimal.Decimal
	TotalWithBDI     decimal.Decimal
}

// BudgetTotals are the footer of a budget.
type BudgetTotals struct {
	Total        decimal.Decimal // without BDI
	BDIValue     decimal.Decimal
	TotalWithBDI decimal.Decimal
}

// factor returns 1 + rate/100, exactly (a shift, not a division).
func (r BDIRule) factor() decimal.Decimal { return one.Add(r.Rate.Shift(-2)) }

// Line computes the figures of a line of the given unit price and quantity.
func (r BDIRule) Line(unitPrice, quantity decimal.Decimal) LineFigures {
	return r.line(amountOf(unitPrice), amountOf(quantity), amountOf(r.factor())).figures(unitPrice)
}

// LineSupply computes the figures of a supply line: as Line, with the
// differentiated rate.
func (r BDIRule) LineSupply(unitPrice, quantity decimal.Decimal) LineFigures {
	return r.line(amountOf(unitPrice), amountOf(quantity), amountOf(r.supplyFactor())).figures(unitPrice)
}

// lineValue returns the total with BDI of a quantity of a line of the unit
// price (of a supply line: at the differentiated rate), as Line and
// LineSupply compute it, the unit price with BDI computed once: for the
// figures of one line at many quantities (a contract's measurements).
func (r BDIRule) lineValue(unitPrice decimal.Decimal, supply bool) func(quantity amount) amount {
	factor := r.factor()
	if supply {
		factor = r.supplyFactor()
	}
	up := amountOf(unitPrice)
	u := r.unitWithBDI(up, amountOf(factor))
	return func(quantity amount) amount { return r.lineWith(u, up, quantity).withBDI }
}

// supplyFactor is factor for the supply lines' rate.
func (r BDIRule) supplyFactor() decimal.Decimal { return one.Add(r.SupplyRate.Shift(-2)) }

// lineAmounts are a line's figures but its unit price, each cut to
// centavos (written with 2 places).
type lineAmounts struct {
	unitWithBDI, total, withBDI amount
	final                       bool // BDIOnFinalTotal: the unit price with BDI is the unit price
}

// line computes a line's figures from its unit price, quantity and BDI
// factor (1 + the rate that applies to it / 100), by the rule above: the
// one computation of a budget line's figures.
func (r *BDIRule) line(unitPrice, quantity, factor amount) lineAmounts {
	return r.lineWith(r.unitWithBDI(unitPrice, factor), unitPrice, quantity)
}

// unitWithBDI is a line's unit price with BDI (line), nothing on the
// final total.
func (r *BDIRule) unitWithBDI(unitPrice, factor amount) amount {
	if r.Mode == BDIOnFinalTotal {
		return amount{}
	}
	return mulCut(unitPrice, factor, 2, r.Rounding.mode()).cents()
}

// lineWith is line with its unit price with BDI computed (unitWithBDI).
func (r *BDIRule) lineWith(unitWithBDI, unitPrice, quantity amount) lineAmounts {
	mode := r.Rounding.mode()
	f := lineAmounts{total: mulCut(unitPrice, quantity, 2, mode).cents()}
	if r.Mode == BDIOnFinalTotal {
		f.final, f.withBDI = true, f.total
		return f
	}
	f.unitWithBDI = unitWithBDI
	f.withBDI = mulCut(unitWithBDI, quantity, 2, mode).cents()
	return f
}

// figures are the line's figures as decimals.
func (f lineAmounts) figures(unitPrice decimal.Decimal) LineFigures {
	out := LineFigures{UnitPrice: unitPrice, UnitPriceWithBDI: unitPrice, Total: f.total.Decimal(), TotalWithBDI: f.withBDI.Decimal()}
	if !f.final {
		out.UnitPriceWithBDI = f.unitWithBDI.Decimal()
	}
	return out
}

// TotalsWithSupply computes the footer when supplyTotal (part of total) is
// the total of the supply lines: on the final total the BDI value is then
// cut(other lines' total × rate/100) + cut(supply total × supply rate/100).
func (r BDIRule) TotalsWithSupply(total, supplyTotal, totalWithBDI decimal.Decimal) BudgetTotals {
	if r.Mode == BDIOnFinalTotal && !supplyTotal.IsZero() {
		v := r.Rounding.cutMul(total.Sub(supplyTotal), r.Rate.Shift(-2)).Add(r.Rounding.cutMul(supplyTotal, r.SupplyRate.Shift(-2)))
		return BudgetTotals{Total: total, BDIValue: v, TotalWithBDI: total.Add(v)}
	}
	return r.Totals(total, totalWithBDI)
}

// Totals computes the footer from the sums of the lines' totals and totals
// with BDI (as Line computed them).
func (r BDIRule) Totals(total, totalWithBDI decimal.Decimal) BudgetTotals {
	if r.Mode == BDIOnFinalTotal {
		v := r.Rounding.cutMul(total, r.Rate.Shift(-2))
		return BudgetTotals{Total: total, BDIValue: v, TotalWithBDI: total.Add(v)}
	}
	return BudgetTotals{Total: total, BDIValue: totalWithBDI.Sub(total), TotalWithBDI: totalWithBDI}
}
