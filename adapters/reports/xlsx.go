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

// book is a workbook being written: its first sheet, the styles every
// report uses, and the header all of them share.
type book struct {
	f                *excelize.File
	sh               string
	money, qty, bold int
}

// newBook starts a workbook whose first sheet, sh, opens with the header
// every client document has: title and budget (A1), company (A2), client
// and state (A3), editions and regime (A4), the BDI in C5 and the
// differentiated BDI in C6 (the cells the formulas apply), and for a
// frozen version its number and SHA-256 (A7). Tables start at row 8.
func newBook(b *domain.Budget, doc Document, sh, title string) (*book, error) {
	f := excelize.NewFile()
	k := &book{f: f, sh: sh}
	if err := k.start(b, doc, title); err != nil {
		f.Close()
		return nil, err
	}
	return k, nil
}

func (k *book) start(b *domain.Budget, doc Document, title string) error {
	f := k.f
	if err := f.SetSheetName("Sheet1", k.sh); err != nil {
		return err
	}
	at := doc.stamp(b)
	if err := f.SetDocProps(&excelize.DocProperties{Creator: "costdb", Title: "Orçamento " + b.Code,
		Created: at.Format(time.RFC3339), Modified: at.Format(time.RFC3339)}); err != nil {
		return err
	}
	var err error
	if k.money, err = f.NewStyle(&excelize.Style{NumFmt: 4}); err != nil {
		return err
	}
	if k.qty, err = f.NewStyle(&excelize.Style{CustomNumFmt: ptrStr("#,##0.0000000")}); err != nil {
		return err
	}
	if k.bold, err = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}}); err != nil {
		return err
	}
	head := [][2]string{
		{"A1", title + " — " + b.Code + " — " + b.Description},
		{"A2", "Empresa: " + doc.Company},
		{"A3", "Cliente: " + b.Client + " · UF: " + b.State},
		{"A4", "Bancos: " + EditionsLabel(b) + " · Regime: " + RegimeName(b.Regime())},
		{"A5", "BDI (%)"}, {"A6", "BDI diferenciado (%)"},
	}
	for _, c := range head {
		if err := k.set(c[0], c[1]); err != nil {
			return err
		}
	}
	_ = f.SetCellStyle(k.sh, "A1", "A1", k.bold)
	if err := k.num("C5", b.BDI, k.money); err != nil {
		return err
	}
	if err := k.num("C6", b.SupplyBDI, k.money); err != nil {
		return err
	}
	if doc.Version != nil {
		if err := k.set("A7", fmt.Sprintf("Versão congelada %d · SHA-256 %s", doc.Version.Number, doc.Version.Hash)); err != nil {
			return err
		}
	}
	return nil
}

func (k *book) set(cell string, v any) error { return k.f.SetCellValue(k.sh, cell, v) }

// num writes an exact decimal (its value as Go writes it, so the cell holds
// the domain's figure) with a style.
func (k *book) num(cell string, d decimal.Decimal, style int) error {
	if err := k.f.SetCellDefault(k.sh, cell, d.String()); err != nil {
		return err
	}
	return k.f.SetCellStyle(k.sh, cell, cell, style)
}

// formula writes a formula with its value cached.
func (k *book) formula(cell string, d decimal.Decimal, fm string, style int) error {
	if err := k.num(cell, d, style); err != nil {
		return err
	}
	return k.f.SetCellFormula(k.sh, cell, fm)
}

// heading writes a table's column titles, bold, on a row.
func (k *book) heading(row int, titles []string) error {
	for i, h := range titles {
		cell, _ := excelize.CoordinatesToCellName(i+1, row)
		if err := k.set(cell, h); err != nil {
			return err
		}
	}
	last, _ := excelize.CoordinatesToCellName(len(titles), row)
	return k.f.SetCellStyle(k.sh, fmt.Sprintf("A%d", row), last, k.bold)
}

// finish adds the sheet "BDI" and writes the workbook.
func (k *book) finish(w io.Writer, b *domain.Budget) error {
	defer k.f.Close()
	if err := bdiSheet(k.f, b, k.money); err != nil {
		return err
	}
	return k.f.Write(w)
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
	k, err := newBook(r.Budget, doc, "Sintético", "Orçamento sintético")
	if err != nil {
		return err
	}
	if _, err := budgetTable(k, r, nil); err != nil {
		k.f.Close()
		return err
	}
	return k.finish(w, r.Budget)
}

// AnalyticXLSX writes the analytic report as a workbook: the synthetic
// sheet's table and formulas (sheet "Analítico"), each composition line
// followed by its items per unit of the composition (indented by level:
// coefficient in H, unit price in I, partial in K; column N left empty, so
// that no SUMIF counts them), then the budget's direct cost by category;
// and sheet "BDI".
func AnalyticXLSX(w io.Writer, r *domain.AnalyticReport, doc Document) error {
	k, err := newBook(r.Budget, doc, "Analítico", "Orçamento analítico")
	if err != nil {
		return err
	}
	syn := &domain.SyntheticReport{Budget: r.Budget, Rows: make([]domain.SyntheticRow, len(r.Rows)), BudgetTotals: r.BudgetTotals}
	for i := range r.Rows {
		syn.Rows[i] = r.Rows[i].SyntheticRow
	}
	next, err := budgetTable(k, syn, func(i int) []domain.AnalyticItem { return r.Rows[i].Items })
	if err == nil {
		err = k.summary(next+1, r.Summary)
	}
	if err != nil {
		k.f.Close()
		return err
	}
	return k.finish(w, r.Budget)
}

// summary writes the direct cost by category (labels in F, figures in K)
// from row n, with their sum.
func (k *book) summary(n int, s domain.CostSummary) error {
	for i, c := range []struct {
		name string
		v    decimal.Decimal
	}{
		{"Custo direto pelos insumos: mão de obra", s.Labor},
		{"Custo direto pelos insumos: material", s.Material},
		{"Custo direto pelos insumos: equipamento", s.Equipment},
		{"Custo direto pelos insumos: serviços", s.Services},
	} {
		if err := k.set(fmt.Sprintf("F%d", n+i), c.name); err != nil {
			return err
		}
		if err := k.num(fmt.Sprintf("K%d", n+i), c.v, k.money); err != nil {
			return err
		}
	}
	_ = k.set(fmt.Sprintf("F%d", n+4), "Custo direto pelos insumos")
	return k.formula(fmt.Sprintf("K%d", n+4), s.Total(), fmt.Sprintf("SUM(K%d:K%d)", n, n+3), k.money)
}

// countItems counts the rows items take, opened in turn.
func countItems(items []domain.AnalyticItem) int {
	n := len(items)
	for _, it := range items {
		n += countItems(it.Items)
	}
	return n
}

// itemRows writes items from row n (opened in turn, indented by level) and
// returns the next free row.
func (k *book) itemRows(n, level int, items []domain.AnalyticItem) (int, error) {
	for _, it := range items {
		cells := map[string]string{"B": KindName(string(it.Kind)), "C": it.Bank, "D": it.Month, "E": it.Code,
			"F": strings.Repeat("  ", level) + missingNote(it.Description, it.Missing), "G": it.Unit}
		for col, v := range cells {
			if err := k.set(fmt.Sprintf("%s%d", col, n), v); err != nil {
				return 0, err
			}
		}
		if err := k.num(fmt.Sprintf("H%d", n), it.Coefficient, k.qty); err != nil {
			return 0, err
		}
		if !it.Missing {
			if err := k.num(fmt.Sprintf("I%d", n), it.UnitPrice, k.money); err != nil {
				return 0, err
			}
			if err := k.num(fmt.Sprintf("K%d", n), it.Partial, k.money); err != nil {
				return 0, err
			}
		}
		var err error
		if n, err = k.itemRows(n+1, level+1, it.Items); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// budgetTable writes the synthetic table from row 8 (see SyntheticXLSX),
// with the items of row i after it when items is not nil, and the footer;
// it returns the row after the footer.
func budgetTable(k *book, r *domain.SyntheticReport, items func(i int) []domain.AnalyticItem) (int, error) {
	b := r.Budget
	set, num, formula, money, qty := k.set, k.num, k.formula, k.money, k.qty
	const first = 9
	if err := k.heading(first-1, append(append([]string(nil), syntheticHeader...), "Linha")); err != nil {
		return 0, err
	}
	// The sheet row of each report row (items take the rows between).
	pos := make([]int, len(r.Rows))
	n := first
	for i := range r.Rows {
		pos[i] = n
		n++
		if items != nil {
			n += countItems(items(i))
		}
	}
	last := n - 1
	// The end row of each stage's block (its descendants follow it).
	end := make([]int, len(r.Rows))
	for i := range r.Rows {
		j := i
		for j+1 < len(r.Rows) && r.Rows[j+1].Depth > r.Rows[i].Depth {
			j++
		}
		end[i] = last
		if j+1 < len(r.Rows) {
			end[i] = pos[j+1] - 1
		}
	}
	fn := cut(b)
	for i, row := range r.Rows {
		n := pos[i]
		c := func(col string) string { return fmt.Sprintf("%s%d", col, n) }
		if items != nil {
			if _, err := k.itemRows(n+1, 1, items(i)); err != nil {
				return 0, err
			}
		}
		cells := map[string]string{"A": row.Number, "B": KindName(string(row.Kind)), "F": missingNote(row.Description, row.Missing)}
		if row.Kind.IsLine() {
			cells["C"], cells["D"], cells["E"], cells["G"] = row.Bank, row.Month, row.Code, row.Unit
		}
		for col, v := range cells {
			if err := set(c(col), v); err != nil {
				return 0, err
			}
		}
		if !row.Kind.IsLine() {
			rng := func(col string) string { return fmt.Sprintf("%s%d:%s%d", col, n+1, col, end[i]) }
			if err := formula(c("K"), row.Total, fmt.Sprintf(`SUMIF(%s,">0",%s)`, rng("N"), rng("K")), money); err != nil {
				return 0, err
			}
			if err := formula(c("L"), row.TotalWithBDI, fmt.Sprintf(`SUMIF(%s,">0",%s)`, rng("N"), rng("L")), money); err != nil {
				return 0, err
			}
			if err := num(c("M"), row.Weight, money); err != nil {
				return 0, err
			}
			continue
		}
		flag, rate := decimal.NewFromInt(1), "$C$5"
		if row.Supply {
			flag, rate = decimal.NewFromInt(2), "$C$6"
		}
		if err := num(c("N"), flag, 0); err != nil {
			return 0, err
		}
		if err := num(c("H"), row.Quantity, qty); err != nil {
			return 0, err
		}
		if row.Missing {
			for _, col := range []string{"K", "L", "M"} {
				if err := num(c(col), decimal.Zero, money); err != nil {
					return 0, err
				}
			}
			continue
		}
		if err := num(c("I"), row.UnitPrice, money); err != nil {
			return 0, err
		}
		withBDI := fmt.Sprintf("%s(%s*(1+%s/100),2)", fn, c("I"), rate)
		if b.BDIMode == domain.BDIOnFinalTotal {
			withBDI = c("I")
		}
		if err := formula(c("J"), row.UnitPriceWithBDI, withBDI, money); err != nil {
			return 0, err
		}
		if err := formula(c("K"), row.Total, fmt.Sprintf("%s(%s*%s,2)", fn, c("I"), c("H")), money); err != nil {
			return 0, err
		}
		if err := formula(c("L"), row.TotalWithBDI, fmt.Sprintf("%s(%s*%s,2)", fn, c("J"), c("H")), money); err != nil {
			return 0, err
		}
		if err := num(c("M"), row.Weight, money); err != nil {
			return 0, err
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
		return 0, err
	}
	bdiFormula := fmt.Sprintf("K%d-K%d", tot+2, tot)
	totalWith := sum("L", `">0"`)
	if b.BDIMode == domain.BDIOnFinalTotal {
		bdiFormula = fmt.Sprintf("%s((K%d-%s)*$C$5/100,2)+%s(%s*$C$6/100,2)", fn, tot, sum("K", "2"), fn, sum("K", "2"))
		totalWith = fmt.Sprintf("K%d+K%d", tot, tot+1)
	}
	if err := formula(fmt.Sprintf("K%d", tot+1), r.BDIValue, bdiFormula, money); err != nil {
		return 0, err
	}
	if err := formula(fmt.Sprintf("K%d", tot+2), r.TotalWithBDI, totalWith, money); err != nil {
		return 0, err
	}
	_ = k.f.SetCellStyle(k.sh, fmt.Sprintf("F%d", tot), fmt.Sprintf("K%d", tot+2), k.bold)
	_ = k.f.SetColWidth(k.sh, "F", "F", 60)
	_ = k.f.SetColWidth(k.sh, "H", "M", 16)
	return tot + 3, nil
}

// ABCXLSX writes the ABC curve as a workbook: sheet "Curva ABC" with the
// header and one row per resource, ranked, where the total is a SUM of the
// rows, the cumulative percent ROUND(SUM(total up to the row)×100/total,2)
// and the percent the difference of two cumulative percents (the domain's
// rule, so the cached values and the formulas agree); then the classes;
// and sheet "BDI".
func ABCXLSX(w io.Writer, r *domain.ABCReport, doc Document) error {
	k, err := newBook(r.Budget, doc, "Curva ABC", "Curva ABC")
	if err != nil {
		return err
	}
	if err := k.abcTable(r); err != nil {
		k.f.Close()
		return err
	}
	return k.finish(w, r.Budget)
}

func (k *book) abcTable(r *domain.ABCReport) error {
	const first = 10
	_ = k.set("A8", fmt.Sprintf("Limites das classes: A até %s%%, B até %s%%", Quantity(r.Limits.A), Quantity(r.Limits.B)))
	if err := k.heading(first-1, abcHeader); err != nil {
		return err
	}
	last := first + len(r.Rows) - 1
	tot := last + 2
	for i, row := range r.Rows {
		n := first + i
		c := func(col string) string { return fmt.Sprintf("%s%d", col, n) }
		for col, v := range map[string]string{"B": row.Ref.Name, "C": row.Ref.Month, "D": row.Code,
			"E": missingNote(row.Description, row.Missing), "F": row.Unit, "G": string(row.Category), "M": string(row.Class)} {
			if err := k.set(c(col), v); err != nil {
				return err
			}
		}
		if err := k.set(c("A"), row.Position); err != nil {
			return err
		}
		if err := k.num(c("H"), row.Quantity, k.qty); err != nil {
			return err
		}
		if !row.Missing {
			if err := k.num(c("I"), row.UnitPrice, k.money); err != nil {
				return err
			}
		}
		if err := k.num(c("J"), row.Total, k.money); err != nil {
			return err
		}
		cum := fmt.Sprintf("IF($J$%d=0,0,ROUND(SUM(J$%d:J%d)*100/$J$%d,2))", tot, first, n, tot)
		if err := k.formula(c("L"), row.CumulativePercent, cum, k.money); err != nil {
			return err
		}
		pct := c("L")
		if i > 0 {
			pct = fmt.Sprintf("L%d-L%d", n, n-1)
		}
		if err := k.formula(c("K"), row.Percent, pct, k.money); err != nil {
			return err
		}
	}
	_ = k.set(fmt.Sprintf("E%d", tot), "Total")
	sum := "0"
	if len(r.Rows) > 0 {
		sum = fmt.Sprintf("SUM(J%d:J%d)", first, last)
	}
	if err := k.formula(fmt.Sprintf("J%d", tot), r.Total, sum, k.money); err != nil {
		return err
	}
	_ = k.f.SetCellStyle(k.sh, fmt.Sprintf("E%d", tot), fmt.Sprintf("J%d", tot), k.bold)
	for i, cl := range r.Classes() {
		n := tot + 2 + i
		_ = k.set(fmt.Sprintf("E%d", n), fmt.Sprintf("Classe %s (%d itens)", cl.Class, cl.Count))
		fm := fmt.Sprintf(`SUMIF(M%d:M%d,"%s",J%d:J%d)`, first, max(last, first), cl.Class, first, max(last, first))
		if err := k.formula(fmt.Sprintf("J%d", n), cl.Total, fm, k.money); err != nil {
			return err
		}
		if err := k.num(fmt.Sprintf("K%d", n), cl.Percent, k.money); err != nil {
			return err
		}
	}
	_ = k.f.SetColWidth(k.sh, "E", "E", 60)
	_ = k.f.SetColWidth(k.sh, "H", "L", 16)
	return nil
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
