package reports

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// XLSXMediaType and PDFMediaType are the media types of the client
// documents.
const (
	XLSXMediaType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	PDFMediaType  = "application/pdf"
)

// Document is what the client documents (XLSX, PDF) show besides the
// report: the company's name and, for a frozen version, the version.
type Document struct {
	Company string
	Version *domain.BudgetVersion // nil: the budget as it is now
}

// stamp is the time a document is dated with: the version's freeze, else
// the budget's last change, so that one budget state gives one document.
func (d Document) stamp(b *domain.Budget) time.Time {
	if d.Version != nil {
		return d.Version.FrozenAt.UTC()
	}
	return b.UpdatedAt.UTC()
}

// EditionsLabel names a budget's editions: "SINAPI MG 08/2026; SICRO3 AL 01/2024".
func EditionsLabel(b *domain.Budget) string {
	var out []string
	for _, r := range b.Banks {
		out = append(out, r.Label())
	}
	if len(out) == 0 {
		return "base própria"
	}
	return strings.Join(out, "; ")
}

// cut is the spreadsheet function of the budget's rounding.
func cut(b *domain.Budget) string {
	if b.Rounding == domain.BudgetRound {
		return "ROUND"
	}
	return "TRUNC"
}

// SyntheticXLSX writes the synthetic report as a workbook for the client:
// sheet "Sintético" with the header (company, budget, editions, regime,
// BDI, the version's hash), one row per stage and line and the footer,
// where every computed figure is a formula with its value cached (the
// domain's exact figure): a line's unit price with BDI and totals apply the
// BDI cell (C5, or C6 for supply lines) with TRUNC or ROUND as the budget
// cuts, a stage's subtotal and the footer are SUMIFs of the lines below
// (column N flags lines: 1, supply lines: 2); and sheet "BDI" with the
// components and the TCU check, the rate itself a formula of them.
// Amounts use the number format #,##0.00 (a pt-BR spreadsheet shows
// 1.234,56).
func SyntheticXLSX(w io.Writer, r *domain.SyntheticReport, doc Document) error {
	b := r.Budget
	f := excelize.NewFile()
	defer f.Close()
	const sh = "Sintético"
	if err := f.SetSheetName("Sheet1", sh); err != nil {
		return err
	}
	at := doc.stamp(b)
	if err := f.SetDocProps(&excelize.DocProperties{Creator: "costdb", Title: "Orçamento " + b.Code,
		Created: at.Format(time.RFC3339), Modified: at.Format(time.RFC3339)}); err != nil {
		return err
	}
	money, err := f.NewStyle(&excelize.Style{NumFmt: 4})
	if err != nil {
		return err
	}
	qty, err := f.NewStyle(&excelize.Style{CustomNumFmt: ptrStr("#,##0.0000000")})
	if err != nil {
		return err
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	set := func(cell string, v any) error { return f.SetCellValue(sh, cell, v) }
	num := func(cell string, d decimal.Decimal, style int) error {
		if err := f.SetCellDefault(sh, cell, d.String()); err != nil {
			return err
		}
		return f.SetCellStyle(sh, cell, cell, style)
	}
	formula := func(cell string, d decimal.Decimal, fm string, style int) error {
		if err := num(cell, d, style); err != nil {
			return err
		}
		return f.SetCellFormula(sh, cell, fm)
	}
	regime := RegimeName(b.Regime())
	head := [][2]string{
		{"A1", "Orçamento sintético — " + b.Code + " — " + b.Description},
		{"A2", "Empresa: " + doc.Company},
		{"A3", "Cliente: " + b.Client + " · UF: " + b.State},
		{"A4", "Bancos: " + EditionsLabel(b) + " · Regime: " + regime},
		{"A5", "BDI (%)"}, {"A6", "BDI diferenciado (%)"},
	}
	for _, c := range head {
		if err := set(c[0], c[1]); err != nil {
			return err
		}
	}
	_ = f.SetCellStyle(sh, "A1", "A1", bold)
	if err := num("C5", b.BDI, money); err != nil {
		return err
	}
	if err := num("C6", b.SupplyBDI, money); err != nil {
		return err
	}
	if doc.Version != nil {
		if err := set("A7", fmt.Sprintf("Versão congelada %d · SHA-256 %s", doc.Version.Number, doc.Version.Hash)); err != nil {
			return err
		}
	}
	const first = 9
	for i, h := range syntheticHeader {
		cell, _ := excelize.CoordinatesToCellName(i+1, first-1)
		if err := set(cell, h); err != nil {
			return err
		}
	}
	_ = set(fmt.Sprintf("N%d", first-1), "Linha")
	_ = f.SetCellStyle(sh, fmt.Sprintf("A%d", first-1), fmt.Sprintf("N%d", first-1), bold)
	last := first + len(r.Rows) - 1
	// The end row of each stage's block (its descendants follow it).
	end := make([]int, len(r.Rows))
	for i := range r.Rows {
		end[i] = i
		for j := i + 1; j < len(r.Rows) && r.Rows[j].Depth > r.Rows[i].Depth; j++ {
			end[i] = j
		}
	}
	fn := cut(b)
	for i, row := range r.Rows {
		n := first + i
		c := func(col string) string { return fmt.Sprintf("%s%d", col, n) }
		cells := map[string]string{"A": row.Number, "B": KindName(string(row.Kind)), "F": missingNote(row.Description, row.Missing)}
		if row.Kind.IsLine() {
			cells["C"], cells["D"], cells["E"], cells["G"] = row.Bank, row.Month, row.Code, row.Unit
		}
		for col, v := range cells {
			if err := set(c(col), v); err != nil {
				return err
			}
		}
		if !row.Kind.IsLine() {
			rng := func(col string) string { return fmt.Sprintf("%s%d:%s%d", col, n+1, col, first+end[i]) }
			if err := formula(c("K"), row.Total, fmt.Sprintf(`SUMIF(%s,">0",%s)`, rng("N"), rng("K")), money); err != nil {
				return err
			}
			if err := formula(c("L"), row.TotalWithBDI, fmt.Sprintf(`SUMIF(%s,">0",%s)`, rng("N"), rng("L")), money); err != nil {
				return err
			}
			if err := num(c("M"), row.Weight, money); err != nil {
				return err
			}
			continue
		}
		flag, rate := decimal.NewFromInt(1), "$C$5"
		if row.Supply {
			flag, rate = decimal.NewFromInt(2), "$C$6"
		}
		if err := num(c("N"), flag, 0); err != nil {
			return err
		}
		if err := num(c("H"), row.Quantity, qty); err != nil {
			return err
		}
		if row.Missing {
			for _, col := range []string{"K", "L", "M"} {
				if err := num(c(col), decimal.Zero, money); err != nil {
					return err
				}
			}
			continue
		}
		if err := num(c("I"), row.UnitPrice, money); err != nil {
			return err
		}
		withBDI := fmt.Sprintf("%s(%s*(1+%s/100),2)", fn, c("I"), rate)
		if b.BDIMode == domain.BDIOnFinalTotal {
			withBDI = c("I")
		}
		if err := formula(c("J"), row.UnitPriceWithBDI, withBDI, money); err != nil {
			return err
		}
		if err := formula(c("K"), row.Total, fmt.Sprintf("%s(%s*%s,2)", fn, c("I"), c("H")), money); err != nil {
			return err
		}
		if err := formula(c("L"), row.TotalWithBDI, fmt.Sprintf("%s(%s*%s,2)", fn, c("J"), c("H")), money); err != nil {
			return err
		}
		if err := num(c("M"), row.Weight, money); err != nil {
			return err
		}
	}
	// Footer: labels in F, figures in K.
	tot := last + 2
	lines := fmt.Sprintf("N%d:N%d", first, last)
	sum := func(col, crit string) string {
		return fmt.Sprintf(`SUMIF(%s,%s,%s%d:%s%d)`, lines, crit, col, first, col, last)
	}
	_ = set(fmt.Sprintf("F%d", tot), "Total sem BDI")
	_ = set(fmt.Sprintf("F%d", tot+1), BDILabel(b))
	_ = set(fmt.Sprintf("F%d", tot+2), "Total com BDI")
	if len(r.Rows) == 0 {
		lines = "N1:N1"
	}
	if err := formula(fmt.Sprintf("K%d", tot), r.Total, sum("K", `">0"`), money); err != nil {
		return err
	}
	bdiFormula := fmt.Sprintf("K%d-K%d", tot+2, tot)
	totalWith := sum("L", `">0"`)
	if b.BDIMode == domain.BDIOnFinalTotal {
		bdiFormula = fmt.Sprintf("%s((K%d-%s)*$C$5/100,2)+%s(%s*$C$6/100,2)", fn, tot, sum("K", "2"), fn, sum("K", "2"))
		totalWith = fmt.Sprintf("K%d+K%d", tot, tot+1)
	}
	if err := formula(fmt.Sprintf("K%d", tot+1), r.BDIValue, bdiFormula, money); err != nil {
		return err
	}
	if err := formula(fmt.Sprintf("K%d", tot+2), r.TotalWithBDI, totalWith, money); err != nil {
		return err
	}
	_ = f.SetCellStyle(sh, fmt.Sprintf("F%d", tot), fmt.Sprintf("K%d", tot+2), bold)
	_ = f.SetColWidth(sh, "F", "F", 60)
	_ = f.SetColWidth(sh, "H", "M", 16)
	if err := bdiSheet(f, b, money); err != nil {
		return err
	}
	return f.Write(w)
}

func ptrStr(s string) *string { return &s }

// bdiSheet writes the sheet "BDI": the budget's components, the rate as a
// formula of them (TCU's, rounded half up to 2 places of percent), and the
// check against TCU's ranges.
func bdiSheet(f *excelize.File, b *domain.Budget, money int) error {
	const sh = "BDI"
	if _, err := f.NewSheet(sh); err != nil {
		return err
	}
	set := func(cell string, v any) error { return f.SetCellValue(sh, cell, v) }
	num := func(cell string, d decimal.Decimal) error {
		if err := f.SetCellDefault(sh, cell, d.String()); err != nil {
			return err
		}
		return f.SetCellStyle(sh, cell, cell, money)
	}
	_ = set("A1", "BDI — Acórdão TCU 2622/2013")
	row := 3
	for _, t := range []struct {
		title string
		parts *domain.BDIParts
		rate  decimal.Decimal
		wt    string
	}{{"BDI", b.BDIParts, b.BDI, b.WorkType}, {"BDI diferenciado (fornecimento)", b.SupplyBDIParts, b.SupplyBDI, domain.BDIWorkTypeSupply}} {
		_ = set(fmt.Sprintf("A%d", row), t.title)
		if t.parts == nil {
			_ = set(fmt.Sprintf("A%d", row+1), "Taxa informada (%)")
			if err := num(fmt.Sprintf("C%d", row+1), t.rate); err != nil {
				return err
			}
			row += 3
			continue
		}
		p := t.parts
		names := []struct {
			label string
			v     decimal.Decimal
		}{{"Administração central (AC)", p.AC}, {"Seguros (S)", p.S}, {"Riscos (R)", p.R}, {"Garantias (G)", p.G},
			{"Despesas financeiras (DF)", p.DF}, {"Lucro (L)", p.L}, {"Tributos (PIS, COFINS, ISS)", p.Taxes}, {"CPRB", p.CPRB}}
		start := row + 1
		for i, nm := range names {
			_ = set(fmt.Sprintf("A%d", start+i), nm.label)
			if err := num(fmt.Sprintf("C%d", start+i), nm.v); err != nil {
				return err
			}
		}
		c := func(i int) string { return fmt.Sprintf("C%d/100", start+i) }
		rateRow := start + len(names)
		_ = set(fmt.Sprintf("A%d", rateRow), "BDI (%) = ((1+AC+S+R+G)(1+DF)(1+L)/(1−I) − 1)")
		if err := num(fmt.Sprintf("C%d", rateRow), p.Rate()); err != nil {
			return err
		}
		fm := fmt.Sprintf("ROUND(((1+%s+%s+%s+%s)*(1+%s)*(1+%s)/(1-%s-%s)-1)*100,2)", c(0), c(1), c(2), c(3), c(4), c(5), c(6), c(7))
		if err := f.SetCellFormula(sh, fmt.Sprintf("C%d", rateRow), fm); err != nil {
			return err
		}
		row = rateRow + 1
		if wt, ok := domain.TCU2622().WorkType(t.wt); ok {
			check := domain.CheckBDI(wt, *p)
			_ = set(fmt.Sprintf("A%d", row), "Referência TCU: "+wt.Name)
			for i, h := range []string{"Parcela", "Valor", "1º quartil", "Médio", "3º quartil", "Situação", "Confiabilidade"} {
				cell, _ := excelize.CoordinatesToCellName(i+1, row+1)
				_ = set(cell, h)
			}
			for i, cr := range check.Rows {
				n := row + 2 + i
				_ = set(fmt.Sprintf("A%d", n), cr.Name)
				for j, v := range []decimal.Decimal{cr.Value, cr.Range.Q1, cr.Range.Average, cr.Range.Q3} {
					cell, _ := excelize.CoordinatesToCellName(j+2, n)
					if err := num(cell, v); err != nil {
						return err
					}
				}
				_ = set(fmt.Sprintf("F%d", n), string(cr.Status))
				_ = set(fmt.Sprintf("G%d", n), string(cr.Range.Confidence[0])+"/"+string(cr.Range.Confidence[1])+"/"+string(cr.Range.Confidence[2]))
			}
			row += 2 + len(check.Rows)
		}
		row += 2
	}
	_ = f.SetColWidth(sh, "A", "A", 48)
	return nil
}
