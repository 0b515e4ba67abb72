package reports

import (
	"fmt"
	"io"

	"github.com/costdb/costdb/domain"
	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// SyntheticPDF writes the synthetic report as a PDF for the client
// (github.com/signintech/gopdf, the Go fonts embedded): A4 landscape; on
// every page a header with the company, the budget, its editions, regime
// and BDI (with the differentiated BDI when there is one), and a footer with
// "Página n de N" and, for a frozen version, its number and SHA-256; the
// rows of the report, then the totals. Amounts are written as Brazilians
// read them (1.234,56). The document is dated by Document.stamp, so one
// budget state (or version) gives the same file.
func SyntheticPDF(w io.Writer, r *domain.SyntheticReport, doc Document) error {
	b := r.Budget
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
	cols := []struct {
		title string
		w     float64
		right bool
	}{{"Item", 40, false}, {"Banco", 50, false}, {"Código", 52, false}, {"Descrição", 290, false}, {"Un.", 30, false},
		{"Quantidade", 62, true}, {"Preço unit.", 62, true}, {"Preço c/ BDI", 62, true}, {"Total c/ BDI", 80, true}, {"Peso %", 40, true}}
	avail := pageH - margin*2 - headerH - footerH - rowH
	perPage := int(avail / rowH)
	footerRows := 3
	pages := (len(r.Rows) + footerRows + perPage - 1) / perPage
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
		if err := text(margin, y+16, "bold", 10, fit("Orçamento sintético "+b.Code+" — "+b.Description, pageW-2*margin)); err != nil {
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
		for i, c := range cols {
			if err := pdf.SetFont("bold", "", 8); err != nil {
				return err
			}
			pdf.SetXY(x+2, y)
			if err := pdf.Text(c.title); err != nil {
				return err
			}
			x += c.w
			_ = i
		}
		pdf.SetLineWidth(0.5)
		pdf.Line(margin, y+3, pageW-margin, y+3)
		y += rowH
		for n := 0; n < perPage && row < len(r.Rows)+footerRows; n, row = n+1, row+1 {
			x := margin
			var vals []string
			if row < len(r.Rows) {
				rw := r.Rows[row]
				vals = []string{rw.Number, "", "", missingNote(rw.Description, rw.Missing), "", "", "", "", brl(rw.TotalWithBDI), brl(rw.Weight)}
				if rw.Kind.IsLine() {
					vals[1], vals[2], vals[4], vals[5] = rw.Bank, rw.Code, rw.Unit, Quantity(rw.Quantity)
					if !rw.Missing {
						vals[6], vals[7] = brl(rw.UnitPrice), brl(rw.UnitPriceWithBDI)
					}
				}
			} else {
				f := [][2]string{{"Total sem BDI", brl(r.Total)}, {BDILabel(b), brl(r.BDIValue)}, {"Total com BDI", brl(r.TotalWithBDI)}}[row-len(r.Rows)]
				vals = []string{"", "", "", f[0], "", "", "", "", f[1], ""}
			}
			for i, v := range vals {
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
	return pdf.Write(w)
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
