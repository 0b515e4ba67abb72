package reports

import (
	"io"

	"github.com/costdb/costdb/domain"
)

var proposalHeader = []string{"Item", "Tipo", "Banco", "Data-base", "Código", "Descrição", "Unidade", "Quantidade",
	"Preço unitário de referência", "Preço unitário proposto", "Total de referência", "Total proposto"}

// ProposalCSV writes a proposal (domain.Proposal): a row per stage and
// line, then the footer rows: the discount, the reference's total with
// BDI, the proposal's, and, when a target was given, the target and the
// residual, each label in the description column and figure in the
// proposal's total column.
func ProposalCSV(w io.Writer, p *domain.Proposal, opts ...CSVOption) error {
	t, err := newTable(w, proposalHeader, opts...)
	if err != nil {
		return err
	}
	cells := map[int]string{}
	for i := range p.Rows {
		row := &p.Rows[i]
		clear(cells)
		cells[0], cells[1], cells[5] = t.number(row.Number), KindName(string(row.Kind)), text(missingNote(row.Description, row.Missing))
		cells[10], cells[11] = Money(row.ReferenceTotal), Money(row.Total)
		if row.Kind.IsLine() {
			cells[2], cells[3], cells[4], cells[6] = row.Bank, t.month(row.Month), t.code(row.Code), t.code(row.Unit)
			cells[7], cells[8], cells[9] = Quantity(row.Quantity), priceOrEmpty(row.ReferenceUnitPrice, row.Missing), priceOrEmpty(row.UnitPrice, row.Missing)
		}
		if err := t.row(cells); err != nil {
			return err
		}
	}
	foot := [][2]string{
		{"Desconto (%)", Quantity(p.Discount)},
		{"Total de referência com BDI", Money(p.ReferenceTotal)},
		{"Total proposto com BDI", Money(p.Total)},
		{"Desconto global alcançado (%)", Quantity(p.EffectiveDiscount())},
	}
	if p.Target.Valid {
		foot = append(foot, [2]string{"Valor-alvo", Money(p.Target.Decimal)}, [2]string{"Resíduo (alvo − proposto)", Money(p.Residual.Decimal)})
	}
	for _, f := range foot {
		if err := t.row(map[int]string{5: f[0], 11: f[1]}); err != nil {
			return err
		}
	}
	if err := incompleteFooter(t, 5, p.Missing); err != nil {
		return err
	}
	return t.flush()
}
