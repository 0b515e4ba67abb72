package reports

import (
	"archive/zip"
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
// report: the company's name and profile (the header and the signature
// block) and, for a frozen version, the version.
type Document struct {
	Company string
	Profile *domain.CompanyProfile // nil: no profile, the name alone
	Version *domain.BudgetVersion  // nil: the budget as it is now
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

// The workbooks are written through excelize's stream writer, row by row
// as the report's Each hands the rows out: what a workbook holds in memory
// is one row, the styles, one number per stage (where its block ends) and
// the stream writer's buffer (excelize keeps up to 16 MB of sheet XML in
// memory and the rest in a temporary file, removed when the workbook is
// closed). The zip goes straight to the writer given (see finish). Cached
// values of formulas are numbers, and the workbook asks to be recalculated
// when it is opened (calcPr fullCalcOnLoad).

// book is a workbook being written: the styles every report uses and the
// sheet being streamed.
type book struct {
	f                *excelize.File
	money, qty, bold int
	sheet
}

// sheet is a worksheet written row by row through a stream writer: cells
// are put on the row being filled, rows only go down, and a row is written
// when a later one is started.
type sheet struct {
	sw    *excelize.StreamWriter
	row   int
	cells []any
}

// put sets the cell of column col (a letter) on row to v: text, a number,
// or an excelize.Cell (a style, a formula and its cached value).
func (s *sheet) put(col byte, row int, v any) error {
	if row != s.row {
		if row < s.row {
			return fmt.Errorf("reports: row %d written after row %d", row, s.row)
		}
		if err := s.flushRow(); err != nil {
			return err
		}
		s.row = row
	}
	i := int(col - 'A')
	for len(s.cells) <= i {
		s.cells = append(s.cells, nil)
	}
	s.cells[i] = v
	return nil
}

func (s *sheet) flushRow() error {
	if len(s.cells) == 0 {
		return nil
	}
	err := s.sw.SetRow(fmt.Sprintf("A%d", s.row), s.cells)
	clear(s.cells)
	s.cells = s.cells[:0]
	return err
}

// end writes the last row and ends the sheet.
func (s *sheet) end() error {
	if err := s.flushRow(); err != nil {
		return err
	}
	return s.sw.Flush()
}

// streamSheet starts writing the sheet sh of f, its columns' widths set
// (first and last column, 1-based, and width).
func streamSheet(f *excelize.File, sh string, widths ...[3]int) (sheet, error) {
	sw, err := f.NewStreamWriter(sh)
	if err != nil {
		return sheet{}, err
	}
	for _, w := range widths {
		if err := sw.SetColWidth(w[0], w[1], float64(w[2])); err != nil {
			return sheet{}, err
		}
	}
	return sheet{sw: sw}, nil
}

// number is a cell holding an exact decimal as a number, with a style.
// (A spreadsheet holds binary floating point: the figures here, of at
// most 15 significant digits, are written back as the same digits.)
func number(d decimal.Decimal, style int) excelize.Cell {
	return excelize.Cell{StyleID: style, Value: d.InexactFloat64()}
}

// formula is a cell holding a formula with its value cached as a number.
func formula(d decimal.Decimal, fm string, style int) excelize.Cell {
	c := number(d, style)
	c.Formula = fm
	return c
}

// newBook starts a workbook whose first sheet, sh, opens with the header
// every client document has: title and budget (A1), company (A2), client
// and state (A3), editions and regime (A4), the BDI in C5 and the
// differentiated BDI in C6 (the cells the formulas apply), and for a
// frozen version its number and SHA-256 (A7). Tables start at row 8. The
// columns' widths are set first (a stream writer needs them before any
// row).
func newBook(b *domain.Budget, doc Document, sh, title string, widths ...[3]int) (*book, error) {
	f := excelize.NewFile()
	k := &book{f: f}
	if err := k.start(b, doc, sh, title, widths); err != nil {
		f.Close()
		return nil, err
	}
	return k, nil
}

func (k *book) start(b *domain.Budget, doc Document, sh, title string, widths [][3]int) error {
	f := k.f
	if err := f.SetSheetName("Sheet1", sh); err != nil {
		return err
	}
	at := doc.stamp(b)
	if err := f.SetDocProps(&excelize.DocProperties{Creator: "costdb", Title: "Orçamento " + b.Code,
		Created: at.Format(time.RFC3339), Modified: at.Format(time.RFC3339)}); err != nil {
		return err
	}
	full := true
	if err := f.SetCalcProps(&excelize.CalcPropsOptions{FullCalcOnLoad: &full}); err != nil {
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
	if k.sheet, err = streamSheet(f, sh, widths...); err != nil {
		return err
	}
	cells := []struct {
		col byte
		row int
		v   any
	}{
		{'A', 1, excelize.Cell{StyleID: k.bold, Value: title + " — " + b.Code + " — " + b.Description}},
		{'A', 2, "Empresa: " + doc.Company},
		{'A', 3, "Cliente: " + b.Client + " · UF: " + b.State},
		{'A', 4, "Bancos: " + EditionsLabel(b) + " · Regime: " + RegimeName(b.Regime())},
		{'A', 5, "BDI (%)"}, {'C', 5, number(b.BDI, k.money)},
		{'A', 6, "BDI diferenciado (%)"}, {'C', 6, number(b.SupplyBDI, k.money)},
	}
	if doc.Version != nil {
		cells = append(cells, struct {
			col byte
			row int
			v   any
		}{'A', 7, fmt.Sprintf("Versão congelada %d · SHA-256 %s", doc.Version.Number, doc.Version.Hash)})
	}
	for _, c := range cells {
		if err := k.put(c.col, c.row, c.v); err != nil {
			return err
		}
	}
	return nil
}

// heading writes a table's column titles, bold, on a row.
func (k *book) heading(row int, titles []string) error {
	for i, h := range titles {
		if err := k.put(byte('A'+i), row, excelize.Cell{StyleID: k.bold, Value: h}); err != nil {
			return err
		}
	}
	return nil
}

// finish ends the sheet, adds the sheet "BDI" and writes the workbook to
// w. The zip is written straight to w: excelize's Write would build it in
// a buffer first, so the workbook is given a zip writer of its own over w
// (File.SetZipWriter) and what Write then writes itself is nothing.
func (k *book) finish(w io.Writer, b *domain.Budget) error {
	if err := k.end(); err != nil {
		return err
	}
	if err := bdiSheet(k.f, b, k.money); err != nil {
		return err
	}
	k.f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return zip.NewWriter(w) })
	return k.f.Write(io.Discard)
}

// budgetRows hands out a report's rows in order, each with its items (the
// analytic report's; nil for the synthetic one), stopping at fn's first
// error.
type budgetRows func(fn func(row *domain.SyntheticRow, items []domain.AnalyticItem) error) error

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
// 1.234,56). The rows are read twice through the report's Each (a
// streamed report walks its budget again each time): the first pass finds
// where each stage's block ends, the second writes.
func SyntheticXLSX(w io.Writer, r *domain.SyntheticReport, doc Document) error {
	k, err := newBook(r.Budget, doc, "Sintético", "Orçamento sintético", budgetWidths...)
	if err != nil {
		return err
	}
	defer k.f.Close()
	each := func(fn func(*domain.SyntheticRow, []domain.AnalyticItem) error) error {
		return r.Each(func(row *domain.SyntheticRow) error { return fn(row, nil) })
	}
	if _, err := budgetTable(k, r.Budget, r.BudgetTotals, each); err != nil {
		return err
	}
	return k.finish(w, r.Budget)
}

// budgetWidths are the widths of the budget tables' columns: F (the
// description) 60, H to M (the figures) 16.
var budgetWidths = [][3]int{{6, 6, 60}, {8, 13, 16}}

// AnalyticXLSX writes the analytic report as a workbook: the synthetic
// sheet's table and formulas (sheet "Analítico"), each composition line
// followed by its items per unit of the composition (indented by level:
// coefficient in H, unit price in I, partial in K; column N left empty, so
// that no SUMIF counts them), then the budget's direct cost by category;
// and sheet "BDI".
func AnalyticXLSX(w io.Writer, r *domain.AnalyticReport, doc Document) error {
	k, err := newBook(r.Budget, doc, "Analítico", "Orçamento analítico", budgetWidths...)
	if err != nil {
		return err
	}
	defer k.f.Close()
	each := func(fn func(*domain.SyntheticRow, []domain.AnalyticItem) error) error {
		return r.Each(func(row *domain.AnalyticRow) error { return fn(&row.SyntheticRow, row.Items) })
	}
	next, err := budgetTable(k, r.Budget, r.BudgetTotals, each)
	if err != nil {
		return err
	}
	if err := k.summary(next+1, r.Summary); err != nil {
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
		if err := k.put('F', n+i, c.name); err != nil {
			return err
		}
		if err := k.put('K', n+i, number(c.v, k.money)); err != nil {
			return err
		}
	}
	if err := k.put('F', n+4, "Custo direto pelos insumos"); err != nil {
		return err
	}
	return k.put('K', n+4, formula(s.Total(), fmt.Sprintf("SUM(K%d:K%d)", n, n+3), k.money))
}

// itemRowCount counts the rows items take, opened in turn, once per list of
// items (the lines that open the same thing share it).
type itemRowCount map[*domain.AnalyticItem]int

func (c itemRowCount) count(items []domain.AnalyticItem) int {
	if len(items) == 0 {
		return 0
	}
	if n, ok := c[&items[0]]; ok {
		return n
	}
	n := len(items)
	for i := range items {
		n += c.count(items[i].Items)
	}
	c[&items[0]] = n
	return n
}

// itemRows writes items from row n (opened in turn, indented by level) and
// returns the next free row.
func (k *book) itemRows(n, level int, items []domain.AnalyticItem) (int, error) {
	for i := range items {
		it := &items[i]
		for _, c := range []struct {
			col byte
			v   string
		}{{'B', KindName(string(it.Kind))}, {'C', it.Bank}, {'D', it.Month}, {'E', it.Code},
			{'F', strings.Repeat("  ", level) + missingNote(it.Description, it.Missing)}, {'G', it.Unit}} {
			if err := k.put(c.col, n, c.v); err != nil {
				return 0, err
			}
		}
		if err := k.put('H', n, number(it.Coefficient, k.qty)); err != nil {
			return 0, err
		}
		if !it.Missing {
			if err := k.put('I', n, number(it.UnitPrice, k.money)); err != nil {
				return 0, err
			}
			if err := k.put('K', n, number(it.Partial, k.money)); err != nil {
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
// each row followed by its items, and the footer; it returns the row
// after the footer. A stage's subtotal sums the rows of its block, which
// follow it: a first pass over the rows finds where each block ends (one
// number per stage), the second writes the rows in order.
func budgetTable(k *book, b *domain.Budget, t domain.BudgetTotals, each budgetRows) (int, error) {
	const first = 9
	if err := k.heading(first-1, append(append([]string(nil), syntheticHeader...), "Linha")); err != nil {
		return 0, err
	}
	// The last sheet row of each stage's block, stages in order (a block
	// ends before the next row at the stage's depth or above).
	var ends []int
	type openStage struct{ stage, depth int }
	var open []openStage
	counts := itemRowCount{}
	n := first
	err := each(func(row *domain.SyntheticRow, items []domain.AnalyticItem) error {
		for len(open) > 0 && open[len(open)-1].depth >= row.Depth {
			ends[open[len(open)-1].stage] = n - 1
			open = open[:len(open)-1]
		}
		if !row.Kind.IsLine() {
			open = append(open, openStage{len(ends), row.Depth})
			ends = append(ends, 0)
		}
		n += 1 + counts.count(items)
		return nil
	})
	if err != nil {
		return 0, err
	}
	last := n - 1
	for _, o := range open {
		ends[o.stage] = last
	}
	fn := cut(b)
	n, stage := first, 0
	err = each(func(row *domain.SyntheticRow, items []domain.AnalyticItem) error {
		end := 0
		if !row.Kind.IsLine() {
			end = ends[stage]
			stage++
		}
		if err := k.budgetRow(n, end, row, b, fn); err != nil {
			return err
		}
		var err error
		n, err = k.itemRows(n+1, 1, items)
		return err
	})
	if err != nil {
		return 0, err
	}
	return k.footer(b, t, first, last, fn)
}

// budgetRow writes the report's row on sheet row n; a stage's block ends
// on row end.
func (k *book) budgetRow(n, end int, row *domain.SyntheticRow, b *domain.Budget, fn string) error {
	c := func(col string) string { return fmt.Sprintf("%s%d", col, n) }
	put := func(col byte, v any) error { return k.put(col, n, v) }
	line := row.Kind.IsLine()
	for _, cl := range []struct {
		col  byte
		v    string
		show bool
	}{{'A', row.Number, true}, {'B', KindName(string(row.Kind)), true}, {'C', row.Bank, line}, {'D', row.Month, line},
		{'E', row.Code, line}, {'F', missingNote(row.Description, row.Missing), true}, {'G', row.Unit, line}} {
		if cl.show {
			if err := put(cl.col, cl.v); err != nil {
				return err
			}
		}
	}
	money := k.money
	if !line {
		rng := func(col string) string { return fmt.Sprintf("%s%d:%s%d", col, n+1, col, end) }
		if err := put('K', formula(row.Total, fmt.Sprintf(`SUMIF(%s,">0",%s)`, rng("N"), rng("K")), money)); err != nil {
			return err
		}
		if err := put('L', formula(row.TotalWithBDI, fmt.Sprintf(`SUMIF(%s,">0",%s)`, rng("N"), rng("L")), money)); err != nil {
			return err
		}
		return put('M', number(row.Weight, money))
	}
	flag, rate := 1, "$C$5"
	if row.Supply {
		flag, rate = 2, "$C$6"
	}
	if err := put('H', number(row.Quantity, k.qty)); err != nil {
		return err
	}
	if row.Missing {
		for _, col := range []byte{'K', 'L', 'M'} {
			if err := put(col, number(decimal.Zero, money)); err != nil {
				return err
			}
		}
		return put('N', flag)
	}
	withBDI := fmt.Sprintf("%s(%s*(1+%s/100),2)", fn, c("I"), rate)
	if b.BDIMode == domain.BDIOnFinalTotal {
		withBDI = c("I")
	}
	for _, cl := range []struct {
		col byte
		v   excelize.Cell
	}{
		{'I', number(row.UnitPrice, money)},
		{'J', formula(row.UnitPriceWithBDI, withBDI, money)},
		{'K', formula(row.Total, fmt.Sprintf("%s(%s*%s,2)", fn, c("I"), c("H")), money)},
		{'L', formula(row.TotalWithBDI, fmt.Sprintf("%s(%s*%s,2)", fn, c("J"), c("H")), money)},
		{'M', number(row.Weight, money)},
	} {
		if err := put(cl.col, cl.v); err != nil {
			return err
		}
	}
	return put('N', flag)
}

// footer writes the budget table's footer after its rows (first to last):
// labels in F, figures in K, bold; it returns the row after it.
func (k *book) footer(b *domain.Budget, t domain.BudgetTotals, first, last int, fn string) (int, error) {
	tot := last + 2
	lines := fmt.Sprintf("N%d:N%d", first, last)
	if last < first {
		lines = "N1:N1"
	}
	sum := func(col, crit string) string {
		return fmt.Sprintf(`SUMIF(%s,%s,%s%d:%s%d)`, lines, crit, col, first, col, last)
	}
	bdiFormula := fmt.Sprintf("K%d-K%d", tot+2, tot)
	totalWith := sum("L", `">0"`)
	if b.BDIMode == domain.BDIOnFinalTotal {
		bdiFormula = fmt.Sprintf("%s((K%d-%s)*$C$5/100,2)+%s(%s*$C$6/100,2)", fn, tot, sum("K", "2"), fn, sum("K", "2"))
		totalWith = fmt.Sprintf("K%d+K%d", tot, tot+1)
	}
	// The footer's cells, F to K, are bold (its figures in the general
	// number format, as they have always been shown).
	for i, f := range []struct {
		label string
		v     decimal.Decimal
		fm    string
	}{{"Total sem BDI", t.Total, sum("K", `">0"`)}, {BDILabel(b), t.BDIValue, bdiFormula}, {"Total com BDI", t.TotalWithBDI, totalWith}} {
		n := tot + i
		if err := k.put('F', n, excelize.Cell{StyleID: k.bold, Value: f.label}); err != nil {
			return 0, err
		}
		for col := byte('G'); col <= 'J'; col++ {
			if err := k.put(col, n, excelize.Cell{StyleID: k.bold}); err != nil {
				return 0, err
			}
		}
		if err := k.put('K', n, formula(f.v, f.fm, k.bold)); err != nil {
			return 0, err
		}
	}
	return tot + 3, nil
}

// ABCXLSX writes the ABC curve as a workbook: sheet "Curva ABC" with the
// header and one row per resource, ranked, where the total is a SUM of the
// rows, the cumulative percent ROUND(SUM(total up to the row)×100/total,2)
// and the percent the difference of two cumulative percents (the domain's
// rule, so the cached values and the formulas agree); then the classes;
// and sheet "BDI". (Its rows are the budget's distinct resources, held by
// the report.)
func ABCXLSX(w io.Writer, r *domain.ABCReport, doc Document) error {
	k, err := newBook(r.Budget, doc, wordsOf(r).Sheet, wordsOf(r).Title, [3]int{5, 5, 60}, [3]int{8, 12, 16})
	if err != nil {
		return err
	}
	defer k.f.Close()
	if err := k.abcTable(r); err != nil {
		return err
	}
	return k.finish(w, r.Budget)
}

func (k *book) abcTable(r *domain.ABCReport) error {
	const first = 10
	if err := k.put('A', 8, fmt.Sprintf("Limites das classes: A até %s%%, B até %s%%", Quantity(r.Limits.A), Quantity(r.Limits.B))); err != nil {
		return err
	}
	if err := k.heading(first-1, abcHeaderOf(r)); err != nil {
		return err
	}
	last := first + len(r.Rows) - 1
	tot := last + 2
	for i := range r.Rows {
		row := &r.Rows[i]
		n := first + i
		cum := fmt.Sprintf("IF($J$%d=0,0,ROUND(SUM(J$%d:J%d)*100/$J$%d,2))", tot, first, n, tot)
		pct := fmt.Sprintf("L%d", n)
		if i > 0 {
			pct = fmt.Sprintf("L%d-L%d", n, n-1)
		}
		cells := []struct {
			col byte
			v   any
		}{
			{'A', row.Position}, {'B', row.Ref.Name}, {'C', row.Ref.Month}, {'D', row.Code},
			{'E', missingNote(row.Description, row.Missing)}, {'F', row.Unit}, {'G', string(row.Category)},
			{'H', number(row.Quantity, k.qty)}, {'I', nil}, {'J', number(row.Total, k.money)},
			{'K', formula(row.Percent, pct, k.money)}, {'L', formula(row.CumulativePercent, cum, k.money)},
			{'M', string(row.Class)},
		}
		if !row.Missing {
			cells[8].v = number(row.UnitPrice, k.money)
		}
		for _, c := range cells {
			if c.v == nil {
				continue
			}
			if err := k.put(c.col, n, c.v); err != nil {
				return err
			}
		}
	}
	sum := "0"
	if len(r.Rows) > 0 {
		sum = fmt.Sprintf("SUM(J%d:J%d)", first, last)
	}
	// The total's cells, E to J, are bold.
	if err := k.put('E', tot, excelize.Cell{StyleID: k.bold, Value: "Total"}); err != nil {
		return err
	}
	for col := byte('F'); col <= 'I'; col++ {
		if err := k.put(col, tot, excelize.Cell{StyleID: k.bold}); err != nil {
			return err
		}
	}
	if err := k.put('J', tot, formula(r.Total, sum, k.bold)); err != nil {
		return err
	}
	for i, cl := range r.Classes() {
		n := tot + 2 + i
		if err := k.put('E', n, fmt.Sprintf("Classe %s (%d itens)", cl.Class, cl.Count)); err != nil {
			return err
		}
		fm := fmt.Sprintf(`SUMIF(M%d:M%d,"%s",J%d:J%d)`, first, max(last, first), cl.Class, first, max(last, first))
		if err := k.put('J', n, formula(cl.Total, fm, k.money)); err != nil {
			return err
		}
		if err := k.put('K', n, number(cl.Percent, k.money)); err != nil {
			return err
		}
	}
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
	s, err := streamSheet(f, sh, [3]int{1, 1, 48})
	if err != nil {
		return err
	}
	num := func(col byte, row int, d decimal.Decimal) error { return s.put(col, row, number(d, money)) }
	if err := s.put('A', 1, "BDI — Acórdão TCU 2622/2013"); err != nil {
		return err
	}
	row := 3
	for _, t := range []struct {
		title string
		parts *domain.BDIParts
		rate  decimal.Decimal
		wt    string
	}{{"BDI", b.BDIParts, b.BDI, b.WorkType}, {"BDI diferenciado (fornecimento)", b.SupplyBDIParts, b.SupplyBDI, domain.BDIWorkTypeSupply}} {
		if err := s.put('A', row, t.title); err != nil {
			return err
		}
		if t.parts == nil {
			if err := s.put('A', row+1, "Taxa informada (%)"); err != nil {
				return err
			}
			if err := num('C', row+1, t.rate); err != nil {
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
			if err := s.put('A', start+i, nm.label); err != nil {
				return err
			}
			if err := num('C', start+i, nm.v); err != nil {
				return err
			}
		}
		c := func(i int) string { return fmt.Sprintf("C%d/100", start+i) }
		rateRow := start + len(names)
		if err := s.put('A', rateRow, "BDI (%) = ((1+AC+S+R+G)(1+DF)(1+L)/(1−I) − 1)"); err != nil {
			return err
		}
		fm := fmt.Sprintf("ROUND(((1+%s+%s+%s+%s)*(1+%s)*(1+%s)/(1-%s-%s)-1)*100,2)", c(0), c(1), c(2), c(3), c(4), c(5), c(6), c(7))
		if err := s.put('C', rateRow, formula(p.Rate(), fm, money)); err != nil {
			return err
		}
		row = rateRow + 1
		if wt, ok := domain.TCU2622().WorkType(t.wt); ok {
			check := domain.CheckBDI(wt, *p)
			if err := s.put('A', row, "Referência TCU: "+wt.Name); err != nil {
				return err
			}
			for i, h := range []string{"Parcela", "Valor", "1º quartil", "Médio", "3º quartil", "Situação", "Confiabilidade"} {
				if err := s.put(byte('A'+i), row+1, h); err != nil {
					return err
				}
			}
			for i, cr := range check.Rows {
				n := row + 2 + i
				if err := s.put('A', n, cr.Name); err != nil {
					return err
				}
				for j, v := range []decimal.Decimal{cr.Value, cr.Range.Q1, cr.Range.Average, cr.Range.Q3} {
					if err := num(byte('B'+j), n, v); err != nil {
						return err
					}
				}
				if err := s.put('F', n, string(cr.Status)); err != nil {
					return err
				}
				conf := string(cr.Range.Confidence[0]) + "/" + string(cr.Range.Confidence[1]) + "/" + string(cr.Range.Confidence[2])
				if err := s.put('G', n, conf); err != nil {
					return err
				}
			}
			row += 2 + len(check.Rows)
		}
		row += 2
	}
	return s.end()
}
