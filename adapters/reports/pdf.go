package reports

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
)

// pdfCol is a column of a PDF table.
type pdfCol struct {
	title string
	w     float64
	right bool
}

// SyntheticPDF writes the synthetic report as a PDF for the client (the Go
// fonts embedded): A4 landscape; on every page a header with the company,
// the budget, its editions, regime and BDI (with the differentiated BDI
// when there is one), and a footer with "Página n de N" and, for a frozen
// version, its number and SHA-256; the rows of the report, then the
// totals. Amounts are written as Brazilians read them (1.234,56). The
// document is dated by Document.stamp, so one budget state (or version)
// gives the same file. The rows are read through the report's Each (a
// streamed report walks its budget again) and each page is written when it
// is full (pdfWriter), so the memory it takes does not grow with the
// budget.
func SyntheticPDF(w io.Writer, r *domain.SyntheticReport, doc Document) error {
	totals := totalsPDFRows(r.Budget, r.BudgetTotals)
	row := make([]string, 10)
	return tablePDF(w, r.Budget, doc, "Orçamento sintético", budgetPDFCols("Quantidade", "Total c/ BDI"), r.Len()+len(totals),
		func(emit func([]string) error) error {
			if err := r.Each(func(rw *domain.SyntheticRow) error { return emit(syntheticPDFRow(row, rw)) }); err != nil {
				return err
			}
			return emitAll(emit, totals)
		})
}

// AnalyticPDF writes the analytic report as a PDF, as SyntheticPDF does,
// each composition line followed by its items per unit (indented by level,
// coefficient as the quantity, the partial in the last amount column), then
// the totals and the direct cost by category. The rows are read twice
// through the report's Each: once to count the pages (every page names
// their number), once to write them.
func AnalyticPDF(w io.Writer, r *domain.AnalyticReport, doc Document) error {
	total := 0
	if err := r.Each(func(rw *domain.AnalyticRow) error { total += 1 + itemRows(rw.Items); return nil }); err != nil {
		return err
	}
	footer := totalsPDFRows(r.Budget, r.BudgetTotals)
	for _, f := range [][2]string{{"Custo direto pelos insumos: mão de obra", brl(r.Summary.Labor)},
		{"Custo direto pelos insumos: material", brl(r.Summary.Material)},
		{"Custo direto pelos insumos: equipamento", brl(r.Summary.Equipment)},
		{"Custo direto pelos insumos: serviços", brl(r.Summary.Services)}} {
		footer = append(footer, []string{"", "", "", f[0], "", "", "", "", f[1], ""})
	}
	row := make([]string, 10)
	var indent []string // indent[level]: the indentation of items at that level
	return tablePDF(w, r.Budget, doc, "Orçamento analítico", budgetPDFCols("Qtde. / coef.", "Total c/ BDI / parcial"), total+len(footer),
		func(emit func([]string) error) error {
			var items func(level int, its []domain.AnalyticItem) error
			items = func(level int, its []domain.AnalyticItem) error {
				for len(indent) <= level {
					indent = append(indent, strings.Repeat("   ", len(indent)))
				}
				for i := range its {
					it := &its[i]
					clear(row)
					row[1], row[2], row[3], row[4], row[5] = it.Bank, it.Code, indent[level]+missingNote(it.Description, it.Missing), it.Unit, Quantity(it.Coefficient)
					if !it.Missing {
						row[6], row[8] = brl(it.UnitPrice), brl(it.Partial)
					}
					if err := emit(row); err != nil {
						return err
					}
					if err := items(level+1, it.Items); err != nil {
						return err
					}
				}
				return nil
			}
			if err := r.Each(func(rw *domain.AnalyticRow) error {
				if err := emit(syntheticPDFRow(row, &rw.SyntheticRow)); err != nil {
					return err
				}
				return items(1, rw.Items)
			}); err != nil {
				return err
			}
			return emitAll(emit, footer)
		})
}

// itemRows is the number of rows its items take, at any depth.
func itemRows(its []domain.AnalyticItem) int {
	n := len(its)
	for i := range its {
		n += itemRows(its[i].Items)
	}
	return n
}

// ABCPDF writes the ABC curve as a PDF (header and footer as SyntheticPDF):
// one row per resource, ranked, then the total and the classes.
func ABCPDF(w io.Writer, r *domain.ABCReport, doc Document) error {
	cols := []pdfCol{{"Pos.", 30, false}, {"Banco", 50, false}, {"Código", 52, false}, {"Descrição", 265, false}, {"Un.", 30, false},
		{"Quantidade", 70, true}, {wordsOf(r).PDFPrice, 70, true}, {wordsOf(r).Total, 80, true}, {"%", 45, true}, {"% acum.", 55, true}, {"Classe", 35, false}}
	footer := [][]string{{"", "", "", "Total", "", "", "", brl(r.Total), "", "", ""}}
	for _, c := range r.Classes() {
		footer = append(footer, []string{"", "", "", fmt.Sprintf("Classe %s (%d itens)", c.Class, c.Count), "", "", "", brl(c.Total), brl(c.Percent), "", ""})
	}
	title := fmt.Sprintf("%s (A até %s%%, B até %s%%)", wordsOf(r).Title, Quantity(r.Limits.A), Quantity(r.Limits.B))
	return tablePDF(w, r.Budget, doc, title, cols, len(r.Rows)+len(footer), func(emit func([]string) error) error {
		for _, rw := range r.Rows {
			row := []string{strconv.Itoa(rw.Position), rw.Ref.Name, rw.Code, missingNote(rw.Description, rw.Missing), rw.Unit,
				Quantity(rw.Quantity), "", brl(rw.Total), brl(rw.Percent), brl(rw.CumulativePercent), string(rw.Class)}
			if !rw.Missing {
				row[6] = brl(rw.UnitPrice)
			}
			if err := emit(row); err != nil {
				return err
			}
		}
		return emitAll(emit, footer)
	})
}

// emitAll hands rows to emit in order.
func emitAll(emit func([]string) error, rows [][]string) error {
	for _, row := range rows {
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

// budgetPDFCols are the columns of the synthetic and analytic tables.
func budgetPDFCols(qty, total string) []pdfCol {
	return []pdfCol{{"Item", 40, false}, {"Banco", 50, false}, {"Código", 52, false}, {"Descrição", 290, false}, {"Un.", 30, false},
		{qty, 62, true}, {"Preço unit.", 62, true}, {"Preço c/ BDI", 62, true}, {total, 80, true}, {"Peso %", 40, true}}
}

// syntheticPDFRow fills vals (10 cells) with a synthetic row in
// budgetPDFCols and returns it.
func syntheticPDFRow(vals []string, rw *domain.SyntheticRow) []string {
	clear(vals)
	vals[0], vals[3], vals[8], vals[9] = rw.Number, missingNote(rw.Description, rw.Missing), brl(rw.TotalWithBDI), brl(rw.Weight)
	if rw.Kind.IsLine() {
		vals[1], vals[2], vals[4], vals[5] = rw.Bank, rw.Code, rw.Unit, Quantity(rw.Quantity)
		if !rw.Missing {
			vals[6], vals[7] = brl(rw.UnitPrice), brl(rw.UnitPriceWithBDI)
		}
	}
	return vals
}

// totalsPDFRows are the three total rows in budgetPDFCols.
func totalsPDFRows(b *domain.Budget, t domain.BudgetTotals) [][]string {
	var out [][]string
	for _, f := range [][2]string{{"Total sem BDI", brl(t.Total)}, {BDILabel(b), brl(t.BDIValue)}, {"Total com BDI", brl(t.TotalWithBDI)}} {
		out = append(out, []string{"", "", "", f[0], "", "", "", "", f[1], ""})
	}
	return out
}

// tablePDF writes a report's table as a PDF: A4 landscape; on every page
// the header (company; title, budget code and description; client, state,
// regime; editions; BDI and its components), the column titles, as many
// rows as fit, and the footer ("Página n de N" and, for a frozen version,
// its number and SHA-256). Empty cells are left blank. rows hands the
// table's rows, total of them, to emit in order (the row is emit's for the
// call only); each page is written as soon as it is full.
func tablePDF(w io.Writer, b *domain.Budget, doc Document, title string, cols []pdfCol, total int, rows func(emit func([]string) error) error) error {
	const (
		pageW, pageH = 842.0, 595.0
		margin       = 28.0
		rowH         = 13.0
		headerH      = 92.0
		footerH      = 30.0
	)
	pw, err := newPDFWriter(w, pageW, pageH, "Orçamento "+b.Code, doc.Company, doc.stamp(b))
	if err != nil {
		return err
	}
	regular, bold := pw.fonts[0], pw.fonts[1]
	avail := pageH - margin*2 - headerH - footerH - rowH
	perPage := int(avail / rowH)
	pages := max((total+perPage-1)/perPage, 1)

	bdi := "BDI " + brlRate(b.BDI) + "%"
	if b.BDIMode == domain.BDIOnFinalTotal {
		bdi += " sobre o total"
	}
	if !b.SupplyBDI.IsZero() {
		bdi += " · BDI diferenciado (fornecimento) " + brlRate(b.SupplyBDI) + "%"
	}
	if b.BDIParts != nil {
		p := b.BDIParts
		bdi += fmt.Sprintf(" · AC %s S %s R %s G %s DF %s L %s I %s", brlRate(p.AC), brlRate(p.S), brlRate(p.R), brlRate(p.G),
			brlRate(p.DF), brlRate(p.L), brlRate(p.Taxes.Add(p.CPRB)))
	}
	company := bold.fit(doc.Company, 12, pageW-2*margin)
	heading := bold.fit(title+" "+b.Code+" — "+b.Description, 10, pageW-2*margin)
	lines := []string{
		"Cliente: " + b.Client + " · UF: " + b.State + " · Regime: " + RegimeName(b.Regime()),
		"Bancos: " + EditionsLabel(b),
		bdi,
	}
	for i, l := range lines {
		lines[i] = regular.fit(l, 8, pageW-2*margin)
	}

	page, n, y := 0, 0, 0.0 // the page being written (from 1), its rows, the next row's baseline
	start := func() {
		page++
		pw.text(bold, 12, margin, margin, company)
		pw.text(bold, 10, margin, margin+16, heading)
		for i, l := range lines {
			pw.text(regular, 8, margin, margin+32+float64(i)*12, l)
		}
		y = margin + headerH
		x := margin
		for _, c := range cols {
			pw.text(bold, 8, x+2, y, c.title)
			x += c.w
		}
		pw.line(0.5, margin, y+3, pageW-margin, y+3)
		y += rowH
	}
	end := func() error {
		foot := fmt.Sprintf("Página %d de %d", page, pages)
		if doc.Version != nil {
			foot = fmt.Sprintf("Versão congelada %d · SHA-256 %s · %s", doc.Version.Number, doc.Version.Hash, foot)
		}
		pw.line(0.5, margin, pageH-margin-footerH+8, pageW-margin, pageH-margin-footerH+8)
		pw.text(regular, 8, margin, pageH-margin-footerH+20, foot)
		n = 0
		return pw.endPage()
	}
	emit := func(row []string) error {
		if n == 0 {
			if page == pages {
				return fmt.Errorf("reports: the table has more rows than the %d counted", total)
			}
			start()
		}
		x := margin
		for i, v := range row {
			if v != "" {
				c := cols[i]
				v = regular.fit(v, 8, c.w)
				if c.right {
					pw.text(regular, 8, x+c.w-2-regular.width(v, 8), y, v)
				} else {
					pw.text(regular, 8, x+2, y, v)
				}
			}
			x += cols[i].w
		}
		y += rowH
		if n++; n == perPage {
			return end()
		}
		return nil
	}
	if err := rows(emit); err != nil {
		return err
	}
	if n > 0 || page == 0 {
		if page == 0 {
			start()
		}
		if err := end(); err != nil {
			return err
		}
	}
	if page != pages {
		return fmt.Errorf("reports: the table has fewer rows than the %d counted", total)
	}
	return pw.finish()
}

// brlRate writes a percent as "22,23".
func brlRate(d interface{ StringFixed(int32) string }) string {
	s := d.StringFixed(2)
	out := []rune(s)
	for i, c := range out {
		if c == '.' {
			out[i] = ','
		}
	}
	return string(out)
}
