package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// pdfCol is a column of a PDF table.
type pdfCol struct {
	title string
	w     float64
	right bool
}

// SyntheticPDF writes the synthetic report as a PDF for the client
// (github.com/signintech/gopdf, the Go fonts embedded): A4 landscape; on
// every page a header with the company, the budget, its editions, regime
// and BDI (with the differentiated BDI when there is one), and a footer with
// "Página n de N" and, for a frozen version, its number and SHA-256; the
// rows of the report, then the totals. Amounts are written as Brazilians
// read them (1.234,56). The document is dated by Document.stamp, so one
// budget state (or version) gives the same file.
func SyntheticPDF(w io.Writer, r *domain.SyntheticReport, doc Document) error {
	rows := make([][]string, 0, len(r.Rows)+3)
	for _, rw := range r.Rows {
		rows = append(rows, syntheticPDFRow(rw))
	}
	rows = append(rows, totalsPDFRows(r.Budget, r.BudgetTotals)...)
	return tablePDF(w, r.Budget, doc, "Orçamento sintético", budgetPDFCols("Quantidade", "Total c/ BDI"), rows)
}

// AnalyticPDF writes the analytic report as a PDF, as SyntheticPDF does,
// each composition line followed by its items per unit (indented by level,
// coefficient as the quantity, the partial in the last amount column), then
// the totals and the direct cost by category.
func AnalyticPDF(w io.Writer, r *domain.AnalyticReport, doc Document) error {
	var rows [][]string
	var items func(level int, its []domain.AnalyticItem)
	items = func(level int, its []domain.AnalyticItem) {
		for _, it := range its {
			row := []string{"", it.Bank, it.Code, strings.Repeat("   ", level) + missingNote(it.Description, it.Missing), it.Unit,
				Quantity(it.Coefficient), "", "", "", ""}
			if !it.Missing {
				row[6], row[8] = brl(it.UnitPrice), brl(it.Partial)
			}
			rows = append(rows, row)
			items(level+1, it.Items)
		}
	}
	for _, rw := range r.Rows {
		rows = append(rows, syntheticPDFRow(rw.SyntheticRow))
		items(1, rw.Items)
	}
	rows = append(rows, totalsPDFRows(r.Budget, r.BudgetTotals)...)
	for _, f := range [][2]string{{"Custo direto pelos insumos: mão de obra", brl(r.Summary.Labor)},
		{"Custo direto pelos insumos: material", brl(r.Summary.Material)},
		{"Custo direto pelos insumos: equipamento", brl(r.Summary.Equipment)},
		{"Custo direto pelos insumos: serviços", brl(r.Summary.Services)}} {
		rows = append(rows, []string{"", "", "", f[0], "", "", "", "", f[1], ""})
	}
	return tablePDF(w, r.Budget, doc, "Orçamento analítico", budgetPDFCols("Qtde. / coef.", "Total c/ BDI / parcial"), rows)
}

// ABCPDF writes the ABC curve as a PDF (header and footer as SyntheticPDF):
// one row per resource, ranked, then the total and the classes.
func ABCPDF(w io.Writer, r *domain.ABCReport, doc Document) error {
	cols := []pdfCol{{"Pos.", 30, false}, {"Banco", 50, false}, {"Código", 52, false}, {"Descrição", 265, false}, {"Un.", 30, false},
		{"Quantidade", 70, true}, {"Preço unit.", 70, true}, {"Total", 80, true}, {"%", 45, true}, {"% acum.", 55, true}, {"Classe", 35, false}}
	rows := make([][]string, 0, len(r.Rows)+4)
	for _, rw := range r.Rows {
		row := []string{fmt.Sprint(rw.Position), rw.Ref.Name, rw.Code, missingNote(rw.Description, rw.Missing), rw.Unit,
			Quantity(rw.Quantity), "", brl(rw.Total), brl(rw.Percent), brl(rw.CumulativePercent), string(rw.Class)}
		if !rw.Missing {
			row[6] = brl(rw.UnitPrice)
		}
		rows = append(rows, row)
	}
	rows = append(rows, []string{"", "", "", "Total", "", "", "", brl(r.Total), "", "", ""})
	for _, c := range r.Classes() {
		rows = append(rows, []string{"", "", "", fmt.Sprintf("Classe %s (%d itens)", c.Class, c.Count), "", "", "", brl(c.Total), brl(c.Percent), "", ""})
	}
	title := fmt.Sprintf("Curva ABC (A até %s%%, B até %s%%)", Quantity(r.Limits.A), Quantity(r.Limits.B))
	return tablePDF(w, r.Budget, doc, title, cols, rows)
}

// budgetPDFCols are the columns of the synthetic and analytic tables.
func budgetPDFCols(qty, total string) []pdfCol {
	return []pdfCol{{"Item", 40, false}, {"Banco", 50, false}, {"Código", 52, false}, {"Descrição", 290, false}, {"Un.", 30, false},
		{qty, 62, true}, {"Preço unit.", 62, true}, {"Preço c/ BDI", 62, true}, {total, 80, true}, {"Peso %", 40, true}}
}

// syntheticPDFRow is a synthetic row in budgetPDFCols.
func syntheticPDFRow(rw domain.SyntheticRow) []string {
	vals := []string{rw.Number, "", "", missingNote(rw.Description, rw.Missing), "", "", "", "", brl(rw.TotalWithBDI), brl(rw.Weight)}
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
// its number and SHA-256). Empty cells are left blank.
func tablePDF(w io.Writer, b *domain.Budget, doc Document, title string, cols []pdfCol, rows [][]string) error {
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4Landscape})
	at := doc.stamp(b)
	pdf.SetInfo(gopdf.PdfInfo{Title: "Orçamento " + b.Code, Author: doc.Company, Creator: "costdb", Producer: "costdb", CreationDate: at})
	if err := pdf.AddTTFFontData("regular", goregular.TTF); err != nil {
		return err
	}
	if err := pdf.AddTTFFontData("bold", gobold.TTF); err != nil {
		return err
	}
	const (
		pageW, pageH = 842.0, 595.0
		margin       = 28.0
		rowH         = 13.0
		headerH      = 92.0
		footerH      = 30.0
	)
	avail := pageH - margin*2 - headerH - footerH - rowH
	perPage := int(avail / rowH)
	pages := (len(rows) + perPage - 1) / perPage
	if pages == 0 {
		pages = 1
	}
	text := func(x, y float64, font string, size float64, s string) error {
		if err := pdf.SetFont(font, "", size); err != nil {
			return err
		}
		pdf.SetXY(x, y)
		return pdf.Text(s)
	}
	// fit shortens s to width in the current font.
	fit := func(s string, width float64) string {
		rs := []rune(s)
		for len(rs) > 1 {
			if wd, err := pdf.MeasureTextWidth(string(rs)); err == nil && wd <= width-4 {
				break
			}
			rs = rs[:len(rs)-1]
		}
		if len(rs) < len([]rune(s)) && len(rs) > 1 {
			rs = append(rs[:len(rs)-1], '…')
		}
		return string(rs)
	}
	cell := func(x, y float64, i int, s string) error {
		c := cols[i]
		if err := pdf.SetFont("regular", "", 8); err != nil {
			return err
		}
		s = fit(s, c.w)
		if c.right {
			if wd, err := pdf.MeasureTextWidth(s); err == nil {
				return text(x+c.w-2-wd, y, "regular", 8, s)
			}
		}
		return text(x+2, y, "regular", 8, s)
	}
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
	row := 0
	for page := 1; page <= pages; page++ {
		pdf.AddPage()
		y := margin
		if err := pdf.SetFont("bold", "", 12); err != nil {
			return err
		}
		if err := text(margin, y, "bold", 12, fit(doc.Company, pageW-2*margin)); err != nil {
			return err
		}
		if err := pdf.SetFont("bold", "", 10); err != nil {
			return err
		}
		if err := text(margin, y+16, "bold", 10, fit(title+" "+b.Code+" — "+b.Description, pageW-2*margin)); err != nil {
			return err
		}
		lines := []string{
			"Cliente: " + b.Client + " · UF: " + b.State + " · Regime: " + RegimeName(b.Regime()),
			"Bancos: " + EditionsLabel(b),
			bdi,
		}
		if err := pdf.SetFont("regular", "", 8); err != nil {
			return err
		}
		for i, l := range lines {
			if err := text(margin, y+32+float64(i)*12, "regular", 8, fit(l, pageW-2*margin)); err != nil {
				return err
			}
		}
		y = margin + headerH
		x := margin
		for _, c := range cols {
			if err := pdf.SetFont("bold", "", 8); err != nil {
				return err
			}
			pdf.SetXY(x+2, y)
			if err := pdf.Text(c.title); err != nil {
				return err
			}
			x += c.w
		}
		pdf.SetLineWidth(0.5)
		pdf.Line(margin, y+3, pageW-margin, y+3)
		y += rowH
		for n := 0; n < perPage && row < len(rows); n, row = n+1, row+1 {
			x := margin
			for i, v := range rows[row] {
				if v != "" {
					if err := cell(x, y, i, v); err != nil {
						return err
					}
				}
				x += cols[i].w
			}
			y += rowH
		}
		foot := fmt.Sprintf("Página %d de %d", page, pages)
		if doc.Version != nil {
			foot = fmt.Sprintf("Versão congelada %d · SHA-256 %s · %s", doc.Version.Number, doc.Version.Hash, foot)
		}
		pdf.Line(margin, pageH-margin-footerH+8, pageW-margin, pageH-margin-footerH+8)
		if err := text(margin, pageH-margin-footerH+20, "regular", 8, foot); err != nil {
			return err
		}
	}
	_, err := pdf.WriteTo(w)
	return err
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
