package reports

import (
	"io"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

var priceDiffHeader = []string{"Item", "Banco", "Código", "Descrição", "Unidade", "Quantidade",
	"Data-base antes", "Data-base depois", "Preço unitário antes", "Preço unitário depois",
	"Diferença unitária (R$)", "Diferença unitária (%)", "Total com BDI antes", "Total com BDI depois",
	"Diferença total (R$)", "Diferença total (%)", "Situação", "Quantidade depois", "Alteração"}

// PriceDiffCSV writes a re-pricing (or version) comparison: one row per
// line of either side, sorted by impact as the domain sorted them, then one
// row per stage with its subtotals (with BDI), then, when the totals hold
// a part that is in no line (the BDI on the final total), a row with that
// residual, then the budget's totals with BDI before and after: the lines'
// Diferença total plus the residual's add up to the total's. Situação says
// "sem preço no destino" for a line the target cannot price and "sem preço
// antes" for one that had none (empty for a line added or removed);
// Alteração says incluída, excluída, alterada or sem alteração.
func PriceDiffCSV(w io.Writer, d *domain.PriceDiff, opts ...CSVOption) error {
	t, err := newTable(w, priceDiffHeader, opts...)
	if err != nil {
		return err
	}
	pctOrEmpty := func(p *decimal.Decimal) string {
		if p == nil {
			return ""
		}
		return Money(*p)
	}
	for _, l := range d.Lines {
		status := ""
		switch {
		case l.Change == domain.Added || l.Change == domain.Removed:
			// Alteração says it: the line is on one side only.
		case l.Lacking:
			status = "sem preço no destino"
		case l.MissingBefore:
			status = "sem preço antes"
		}
		cells := map[int]string{0: t.number(l.Number), 1: l.Bank, 2: t.code(l.Code), 3: text(l.Description), 4: t.code(l.Unit),
			5: Quantity(l.Quantity), 6: t.month(l.MonthBefore), 7: t.month(l.MonthAfter),
			8: priceOrEmpty(l.UnitBefore, l.MissingBefore), 9: priceOrEmpty(l.UnitAfter, l.Lacking),
			12: Money(l.TotalBefore), 13: Money(l.TotalAfter), 14: Money(l.TotalDiff),
			15: pctOrEmpty(l.TotalDiffPct), 16: status, 17: Quantity(l.QuantityAfter), 18: ChangeName(l.Change)}
		if !l.Lacking && !l.MissingBefore {
			cells[10], cells[11] = Price(l.UnitDiff), pctOrEmpty(l.UnitDiffPct)
		}
		if err := t.row(cells); err != nil {
			return err
		}
	}
	for _, s := range d.Stages {
		if err := t.row(map[int]string{0: t.number(s.Number), 3: text("Etapa: " + s.Description), 12: Money(s.Before),
			13: Money(s.After), 14: Money(s.Diff), 15: pctOrEmpty(s.DiffPct), 18: ChangeName(s.Change)}); err != nil {
			return err
		}
	}
	if r := d.Residual; !r.Before.IsZero() || !r.After.IsZero() {
		if err := t.row(map[int]string{3: "Fora das linhas: BDI sobre o total", 12: Money(r.Before), 13: Money(r.After),
			14: Money(r.Diff), 15: pctOrEmpty(r.DiffPct)}); err != nil {
			return err
		}
	}
	if err := t.row(map[int]string{3: "Total com BDI", 12: Money(d.Total.Before), 13: Money(d.Total.After),
		14: Money(d.Total.Diff), 15: pctOrEmpty(d.Total.DiffPct)}); err != nil {
		return err
	}
	return t.flush()
}
