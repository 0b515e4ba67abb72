package reports

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
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
// closed). The zip goes straight to the writer given (see finish). The
// budget tables' rows (synthetic, analytic) do not wait in that buffer:
// they go into the zip as they are computed (finishStreamed,
// xlsxrows.go). Cached
// values of formulas are numbers, and the workbook asks to be recalculated
// when it is opened (calcPr fullCalcOnLoad).
//
// A workbook is laid out as a client opens and prints it (xlsxlayout.go):
// the header rows frozen above the table, an autofilter over the table, A4
// landscape fitted to one page wide with the table's headings repeated on
// every page and "Página n de N" in the page footer, columns as wide as
// what they hold (descriptions wrapped), stage rows bold and shaded, the
// helper column hidden, every number in a format with the places it is
// computed with, the company's profile in the header and a signature block
// under the table. What needs the whole sheet (the widths, set before the
// first row) comes from a first pass over the rows, which the tables make
// anyway.

// book is a workbook being written: the styles every report uses and the
// sheet being streamed.
type book struct {
	f *excelize.File
	styles
	sheet
	name string      // the sheet being streamed
	lay  sheetLayout // its layout
}

// sheet is a worksheet written row by row through a stream writer: cells
// are put on the row being filled, rows only go down, and a row is written
// when a later one is started.
type sheet struct {
	sw *excelize.StreamWriter
	// raw, when set, takes the rows instead of sw: a table's rows written
	// into the zip as they come (xlsxrows.go).
	raw   *rawRows
	row   int
	cells []any // the row being filled, for sw
	// the row being filled, for raw (typed: xlsxcells.go), and its
	// formulas
	xc   []xcell
	fbuf []byte
	// heights are the rows given a height of their own (points); the
	// others are as tall as their wrapped text.
	heights map[int]float64
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
	if s.raw != nil {
		c, err := s.boxedCell(col, v)
		if err != nil {
			return err
		}
		s.putX(col, c)
		return nil
	}
	i := int(col - 'A')
	for len(s.cells) <= i {
		s.cells = append(s.cells, nil)
	}
	s.cells[i] = v
	return nil
}

func (s *sheet) flushRow() error {
	if s.raw != nil {
		return s.flushRowX()
	}
	if len(s.cells) == 0 {
		return nil
	}
	var opts []excelize.RowOpts
	h, ok := s.heights[s.row]
	if ok {
		opts = append(opts, excelize.RowOpts{Height: h})
		delete(s.heights, s.row) // rows only go down: the map holds the row being filled
	}
	err := s.sw.SetRow(fmt.Sprintf("A%d", s.row), s.cells, opts...)
	clear(s.cells)
	s.cells = s.cells[:0]
	return err
}

// flushRowX writes the typed row being filled (raw).
func (s *sheet) flushRowX() error {
	if len(s.xc) == 0 {
		return nil
	}
	h, ok := s.heights[s.row]
	if ok {
		delete(s.heights, s.row)
	}
	err := s.raw.rowX(s.row, s.xc, s.fbuf, h)
	clear(s.xc)
	s.xc, s.fbuf = s.xc[:0], s.fbuf[:0]
	return err
}

// end writes the last row and ends the sheet.
func (s *sheet) end() error {
	if err := s.flushRow(); err != nil {
		return err
	}
	return s.sw.Flush()
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
// every client document has (header): title and budget (A1), company
// (A2), client and state (A3), editions and regime (A4), the BDI in C5 and
// the differentiated BDI in C6 (the cells the formulas apply), for a
// frozen version its number and SHA-256 (A7), and the company's profile
// on the right (column lay.profile). The table's headings are on row
// lay.heading. The sheet's layout (widths, hidden columns, panes, page
// setup) is set first: a stream writer needs it before any row.
func newBook(b *domain.Budget, doc Document, sh, title string, lay sheetLayout) (*book, error) {
	f := excelize.NewFile()
	k := &book{f: f, name: sh}
	if err := k.start(b, doc, sh, title, lay); err != nil {
		f.Close()
		return nil, err
	}
	return k, nil
}

func (k *book) start(b *domain.Budget, doc Document, sh, title string, lay sheetLayout) error {
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
	if err := k.styles.init(f); err != nil {
		return err
	}
	if err := k.layOut(b, doc, sh, title, lay); err != nil {
		return err
	}
	return k.header(b, doc, title, lay)
}

// heading writes a table's column titles on a row: bold, shaded, wrapped.
func (k *book) heading(row int, titles []string) error {
	for i, h := range titles {
		if err := k.put(byte('A'+i), row, excelize.Cell{StyleID: k.head, Value: h}); err != nil {
			return err
		}
		k.fit(row, byte('A'+i), h, true)
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
	if err := k.bdiSheet(b); err != nil {
		return err
	}
	k.f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return newZip(w) })
	return k.f.Write(io.Discard)
}

// finishStreamed is finish for a sheet whose table's rows are written as
// the workbook is (xlsxrows.go): the sheet holds the row of tableMark on
// row budgetFirstRow, and rows writes the table's rows in its place, on the
// sheet through k.put, into the zip.
func (k *book) finishStreamed(w io.Writer, b *domain.Budget, rows func() error) error {
	if err := k.end(); err != nil {
		return err
	}
	if err := k.bdiSheet(b); err != nil {
		return err
	}
	z := &spliceZip{Writer: newZip(w)}
	z.rows = func(entry io.Writer) error {
		raw := &rawRows{w: bufio.NewWriterSize(entry, 32<<10)}
		k.sheet = sheet{raw: raw, heights: map[int]float64{}}
		if err := rows(); err != nil {
			return err
		}
		if err := k.flushRow(); err != nil {
			return err
		}
		return raw.w.Flush()
	}
	k.f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return z })
	return k.f.Write(io.Discard)
}

// budgetRows hands out a report's rows in order, each with its items (the
// analytic report's; nil for the synthetic one), stopping at fn's first
// error.
type budgetRows func(fn func(row *domain.SyntheticRow, items []domain.AnalyticItem) error) error

// budgetHeadings are the budget tables' column titles: the synthetic
// report's and the helper column N ("Linha": 1 on a line, 2 on a supply
// line, what the SUMIFs select), hidden.
var budgetHeadings = append(append([]string(nil), syntheticHeader...), "Linha")

// The budget tables' rows: headings on row 8, the first row on 9.
const (
	budgetHeadingRow = 8
	budgetFirstRow   = 9
)

// SyntheticXLSX writes the synthetic report as a workbook for the client:
// sheet "Sintético" with the header (company, budget, editions, regime,
// BDI, the version's hash, the company's profile), one row per stage and
// line, the footer and the signature block, where every computed figure
// is a formula with its value cached (the domain's exact figure): a line's
// unit price with BDI and totals apply the BDI cell (C5, or C6 for supply
// lines) with TRUNC or ROUND as the budget cuts, a stage's subtotal and
// the footer are SUMIFs of the lines below (the hidden column N flags
// lines: 1, supply lines: 2); and sheet "BDI" with the components and the
// TCU check, the rate itself a formula of them. Amounts use the number
// format #,##0.00 (a pt-BR spreadsheet shows 1.234,56); quantities the
// places the budget's quantities have (at least 2), unit prices 2 (4 for
// SICRO). The rows are read twice through the report's Each (a streamed
// report walks its budget again each time): the first pass finds where
// each stage's block ends and measures the columns, the second writes.
func SyntheticXLSX(w io.Writer, r *domain.SyntheticReport, doc Document) error {
	each := func(fn func(*domain.SyntheticRow, []domain.AnalyticItem) error) error {
		return r.Each(func(row *domain.SyntheticRow) error { return fn(row, nil) })
	}
	return budgetBook(w, r.Budget, r.BudgetTotals, doc, "Sintético", "Orçamento sintético", each, nil)
}

// AnalyticXLSX writes the analytic report as a workbook: the synthetic
// sheet's table and formulas (sheet "Analítico"), each composition line
// followed by its items per unit of the composition (indented by level:
// coefficient in H, unit price in I, partial in K; column N left empty, so
// that no SUMIF counts them), then the budget's direct cost by category,
// the signature block; and sheet "BDI".
func AnalyticXLSX(w io.Writer, r *domain.AnalyticReport, doc Document) error {
	each := func(fn func(*domain.SyntheticRow, []domain.AnalyticItem) error) error {
		return r.Each(func(row *domain.AnalyticRow) error { return fn(&row.SyntheticRow, row.Items) })
	}
	return budgetBook(w, r.Budget, r.BudgetTotals, doc, "Analítico", "Orçamento analítico", each, &r.Summary)
}

// budgetBook writes a budget table's workbook: scan, header, table,
// footer, the summary when there is one, the signature block.
func budgetBook(w io.Writer, b *domain.Budget, t domain.BudgetTotals, doc Document, sh, title string, each budgetRows, summary *domain.CostSummary) error {
	sc, err := scanBudget(b, t, each)
	if err != nil {
		return err
	}
	lay := sheetLayout{widths: sc.widths.widths('F', 30, 55), hidden: []int{14}, heading: budgetHeadingRow, last: 'M', profile: 'H'}
	k, err := newBook(b, doc, sh, title, lay)
	if err != nil {
		return err
	}
	defer k.f.Close()
	next, err := budgetTable(k, b, t, sc)
	if err != nil {
		return err
	}
	if err := k.tableEnd(lay, sc.last); err != nil {
		return err
	}
	if summary != nil {
		if err := k.summary(next+1, *summary); err != nil {
			return err
		}
		next += 6
	}
	if _, err := k.signature(b, doc, next+2, 'F'); err != nil {
		return err
	}
	return k.finishStreamed(w, b, func() error { return budgetTableRows(k, b, each, sc) })
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
	if err := k.put('F', n+4, excelize.Cell{StyleID: k.bold, Value: "Custo direto pelos insumos"}); err != nil {
		return err
	}
	return k.put('K', n+4, formula(s.Total(), fmt.Sprintf("SUM(K%d:K%d)", n, n+3), k.boldMoney))
}

// budgetScan is what the first pass over a budget table finds: the last
// sheet row of each stage's block (stages in order), the table's last
// row, the places of the lines' quantities and the columns' widths.
type budgetScan struct {
	ends      []int
	last      int
	qtyPlaces int
	widths    colWidths
}

// itemRowCount counts the rows items take, opened in turn, once per list of
// items (the lines that open the same thing share it), and measures them.
type itemRowCount struct {
	n map[*domain.AnalyticItem]int
	w colWidths
}

func (c itemRowCount) count(items []domain.AnalyticItem) int {
	if len(items) == 0 {
		return 0
	}
	if n, ok := c.n[&items[0]]; ok {
		return n
	}
	n := len(items)
	for i := range items {
		it := &items[i]
		for _, t := range []struct {
			col byte
			s   string
		}{{'B', KindName(string(it.Kind))}, {'C', it.Bank}, {'D', it.Month}, {'E', it.Code}, {'F', it.Description}, {'G', it.Unit}} {
			c.w.text(t.col, t.s)
		}
		c.w.number('H', it.Coefficient, places(it.Coefficient, 2, maxShownPlaces))
		c.w.number('I', it.UnitPrice, pricePlaces(it.Bank, it.UnitPrice))
		c.w.number('K', it.Partial, pricePlaces(it.Bank, it.Partial))
		n += c.count(it.Items)
	}
	c.n[&items[0]] = n
	return n
}

// scanBudget is the first pass over a budget table's rows (see
// budgetScan). A block ends before the next row at the stage's depth or
// above.
func scanBudget(b *domain.Budget, t domain.BudgetTotals, each budgetRows) (*budgetScan, error) {
	sc := &budgetScan{qtyPlaces: 2, widths: newColWidths(budgetHeadings)}
	type openStage struct{ stage, depth int }
	var open []openStage
	counts := itemRowCount{n: map[*domain.AnalyticItem]int{}, w: sc.widths}
	n := budgetFirstRow
	maxQty := decimal.Zero
	err := each(func(row *domain.SyntheticRow, items []domain.AnalyticItem) error {
		for len(open) > 0 && open[len(open)-1].depth >= row.Depth {
			sc.ends[open[len(open)-1].stage] = n - 1
			open = open[:len(open)-1]
		}
		if !row.Kind.IsLine() {
			open = append(open, openStage{len(sc.ends), row.Depth})
			sc.ends = append(sc.ends, 0)
		} else {
			sc.qtyPlaces = max(sc.qtyPlaces, places(row.Quantity, 2, maxShownPlaces))
			if row.Quantity.Abs().GreaterThan(maxQty) {
				maxQty = row.Quantity.Abs()
			}
			sc.widths.number('I', row.UnitPrice, pricePlaces(row.Bank, row.UnitPrice))
			sc.widths.number('J', row.UnitPriceWithBDI, 2)
		}
		w := sc.widths
		for _, t := range []struct {
			col byte
			s   string
		}{{'A', row.Number}, {'B', KindName(string(row.Kind))}, {'C', row.Bank}, {'D', row.Month}, {'E', row.Code},
			{'F', missingNote(row.Description, row.Missing)}, {'G', row.Unit}} {
			w.text(t.col, t.s)
		}
		w.number('K', row.Total, 2)
		w.number('L', row.TotalWithBDI, 2)
		w.number('M', row.Weight, 2)
		n += 1 + counts.count(items)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sc.last = n - 1
	for _, o := range open {
		sc.ends[o.stage] = sc.last
	}
	// The largest quantity, now that the places are known; the footer's
	// totals (in K, the widest figures).
	sc.widths.number('H', maxQty, sc.qtyPlaces)
	for _, d := range []decimal.Decimal{t.Total, t.BDIValue, t.TotalWithBDI} {
		sc.widths.number('K', d, 2)
	}
	return sc, nil
}

// itemRows writes items from row n (opened in turn, indented by level) and
// returns the next free row. (Typed cells: xlsxcells.go.)
func (k *book) itemRows(n, level int, items []domain.AnalyticItem) (int, error) {
	for i := range items {
		it := &items[i]
		if err := k.startRow(n); err != nil {
			return 0, err
		}
		for _, c := range [...]struct {
			col byte
			v   string
		}{{'B', KindName(string(it.Kind))}, {'C', it.Bank}, {'D', it.Month}, {'E', it.Code},
			{'G', it.Unit}} {
			k.putX(c.col, textCell(k.text, c.v))
		}
		desc := missingNote(it.Description, it.Missing)
		d := textCell(k.wrap, desc)
		d.indent = level // written "  " × level before the text
		k.putX('F', d)
		k.fit(n, 'F', desc, false) // leading spaces do not change the lines
		k.putX('H', numCell(it.Coefficient, k.qty(it.Coefficient)))
		if !it.Missing {
			k.putX('I', numCell(it.UnitPrice, k.price(it.Bank, it.UnitPrice)))
			k.putX('K', numCell(it.Partial, k.price(it.Bank, it.Partial)))
		}
		var err error
		if n, err = k.itemRows(n+1, level+1, it.Items); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// budgetTable writes the synthetic table's headings (row 8), the row of
// tableMark in place of its rows (budgetTableRows writes them into the
// zip: see finishStreamed) and the footer after the rows the first pass
// counted; it returns the row after the footer.
func budgetTable(k *book, b *domain.Budget, t domain.BudgetTotals, sc *budgetScan) (int, error) {
	if err := k.heading(budgetHeadingRow, budgetHeadings); err != nil {
		return 0, err
	}
	if err := k.put('A', budgetFirstRow, tableMark); err != nil {
		return 0, err
	}
	return k.footer(b, t, budgetFirstRow, sc.last, cut(b))
}

// budgetTableRows writes the synthetic table's rows from row 9 (see
// SyntheticXLSX), each followed by its items. A stage's subtotal sums the
// rows of its block, which follow it: the first pass (scanBudget) found
// where each block ends (one number per stage), this one writes the rows
// in order.
func budgetTableRows(k *book, b *domain.Budget, each budgetRows, sc *budgetScan) error {
	fn := cut(b)
	qty := k.num[sc.qtyPlaces]
	n, stage := budgetFirstRow, 0
	err := each(func(row *domain.SyntheticRow, items []domain.AnalyticItem) error {
		end := 0
		if !row.Kind.IsLine() {
			end = sc.ends[stage]
			stage++
		}
		if err := k.budgetRow(n, end, row, b, fn, qty); err != nil {
			return err
		}
		var err error
		n, err = k.itemRows(n+1, 1, items)
		return err
	})
	if err != nil {
		return err
	}
	if n-1 != sc.last {
		return fmt.Errorf("reports: the table took rows %d to %d, %d counted", budgetFirstRow, n-1, sc.last)
	}
	return nil
}

// budgetRow writes the report's row on sheet row n; a stage's block ends
// on row end. A stage's row is bold and shaded across the table. (Typed
// cells, the formulas appended to the row's buffer: xlsxcells.go.)
func (k *book) budgetRow(n, end int, row *domain.SyntheticRow, b *domain.Budget, fn string, qty int) error {
	if err := k.startRow(n); err != nil {
		return err
	}
	line := row.Kind.IsLine()
	text, desc := 0, k.wrap
	if !line {
		text, desc = k.stage, k.stageWrap
	}
	for _, cl := range [...]struct {
		col  byte
		v    string
		show bool
	}{{'A', row.Number, true}, {'B', KindName(string(row.Kind)), true}, {'C', row.Bank, line}, {'D', row.Month, line},
		{'E', row.Code, line}, {'F', missingNote(row.Description, row.Missing), true}, {'G', row.Unit, line}} {
		switch {
		case cl.col == 'F':
			k.putX(cl.col, textCell(desc, cl.v))
			k.fit(n, 'F', cl.v, !line)
		case !line:
			c := emptyCell(text)
			if cl.show {
				c = textCell(text, cl.v)
			}
			k.putX(cl.col, c)
		case cl.show:
			k.putX(cl.col, textCell(k.text, cl.v))
		}
	}
	money := k.money
	if !line {
		for _, col := range []byte{'H', 'I', 'J'} {
			k.putX(col, emptyCell(k.stage))
		}
		// SUMIF(Nn+1:Nend,">0",Kn+1:Kend), and of L.
		for _, c := range [...]struct {
			col byte
			v   decimal.Decimal
		}{{'K', row.Total}, {'L', row.TotalWithBDI}} {
			f0 := len(k.fbuf)
			k.fbuf = append(k.fbuf, "SUMIF("...)
			k.fbuf = appendRange(k.fbuf, 'N', n+1, end)
			k.fbuf = append(k.fbuf, `,">0",`...)
			k.fbuf = appendRange(k.fbuf, c.col, n+1, end)
			k.fbuf = append(k.fbuf, ')')
			k.putX(c.col, k.formulaFrom(numCell(c.v, k.stageMoney), f0))
		}
		k.putX('M', numCell(row.Weight, k.stageMoney))
		return nil
	}
	flag, rate := 1, "$C$5"
	if row.Supply {
		flag, rate = 2, "$C$6"
	}
	k.putX('H', numCell(row.Quantity, qty))
	if row.Missing {
		for _, col := range []byte{'K', 'L', 'M'} {
			k.putX(col, numCell(decimal.Zero, money))
		}
		k.putX('N', intCell(flag))
		return nil
	}
	price := k.price(row.Bank, row.UnitPrice)
	k.putX('I', numCell(row.UnitPrice, price))
	// J: fn(In*(1+rate/100),2), or In when the BDI is on the final total.
	f0 := len(k.fbuf)
	priceBDI := money
	if b.BDIMode == domain.BDIOnFinalTotal {
		k.fbuf = appendRef(k.fbuf, 'I', n)
		priceBDI = price
	} else {
		k.fbuf = append(append(k.fbuf, fn...), '(')
		k.fbuf = appendRef(k.fbuf, 'I', n)
		k.fbuf = append(append(append(k.fbuf, "*(1+"...), rate...), "/100),2)"...)
	}
	k.putX('J', k.formulaFrom(numCell(row.UnitPriceWithBDI, priceBDI), f0))
	// K: fn(In*Hn,2); L: fn(Jn*Hn,2).
	for _, c := range [...]struct {
		col, of byte
		v       decimal.Decimal
	}{{'K', 'I', row.Total}, {'L', 'J', row.TotalWithBDI}} {
		f0 := len(k.fbuf)
		k.fbuf = append(append(k.fbuf, fn...), '(')
		k.fbuf = append(appendRef(k.fbuf, c.of, n), '*')
		k.fbuf = append(appendRef(k.fbuf, 'H', n), ",2)"...)
		k.putX(c.col, k.formulaFrom(numCell(c.v, money), f0))
	}
	k.putX('M', numCell(row.Weight, money))
	k.putX('N', intCell(flag))
	return nil
}

// appendRef appends a cell's reference: column col, row n.
func appendRef(b []byte, col byte, n int) []byte {
	return strconv.AppendInt(append(b, col), int64(n), 10)
}

// appendRange appends the range of column col from row a to row z.
func appendRange(b []byte, col byte, a, z int) []byte {
	return appendRef(append(appendRef(b, col, a), ':'), col, z)
}

// footer writes the budget table's footer after its rows (first to last):
// labels in F, figures in K (#,##0.00), bold; it returns the row after it.
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
		if err := k.put('K', n, formula(f.v, f.fm, k.boldMoney)); err != nil {
			return 0, err
		}
	}
	return tot + 3, nil
}

// The ABC table's rows: the classes' limits on row 8, headings on 9, the
// first row on 10.
const (
	abcHeadingRow = 9
	abcFirstRow   = 10
)

// ABCXLSX writes the ABC curve as a workbook: sheet "Curva ABC" with the
// header and one row per resource, ranked, where the total is a SUM of the
// rows, the cumulative percent ROUND(SUM(total up to the row)×100/total,2)
// and the percent the difference of two cumulative percents (the domain's
// rule, so the cached values and the formulas agree); then the classes and
// the signature block; and sheet "BDI". (Its rows are the budget's
// distinct resources, held by the report.)
func ABCXLSX(w io.Writer, r *domain.ABCReport, doc Document) error {
	cw := newColWidths(abcHeaderOf(r))
	for i := range r.Rows {
		row := &r.Rows[i]
		for _, t := range []struct {
			col byte
			s   string
		}{{'A', fmt.Sprint(row.Position)}, {'B', row.Ref.Name}, {'C', row.Ref.Month}, {'D', row.Code},
			{'E', missingNote(row.Description, row.Missing)}, {'F', row.Unit}, {'G', abcCategoryName(r, row)}, {'M', string(row.Class)}} {
			cw.text(t.col, t.s)
		}
		cw.number('H', row.Quantity, abcMaxQtyPlaces)
		cw.number('I', row.UnitPrice, pricePlaces(row.Ref.Name, row.UnitPrice))
		cw.number('J', row.Total, places(row.Total, 2, maxShownPlaces))
	}
	cw.number('J', r.Total, places(r.Total, 2, maxShownPlaces))
	lay := sheetLayout{widths: cw.widths('E', 30, 55), heading: abcHeadingRow, last: 'M', profile: 'H'}
	k, err := newBook(r.Budget, doc, wordsOf(r).Sheet, wordsOf(r).Title, lay)
	if err != nil {
		return err
	}
	defer k.f.Close()
	next, err := k.abcTable(r)
	if err != nil {
		return err
	}
	if err := k.tableEnd(lay, abcFirstRow+len(r.Rows)-1); err != nil {
		return err
	}
	if _, err := k.signature(r.Budget, doc, next+2, 'E'); err != nil {
		return err
	}
	return k.finish(w, r.Budget)
}

// abcMaxQtyPlaces is the most places the ABC curve's quantities are shown
// with: they are sums of exploded quantities (products of coefficients),
// not cut to any places; the cell holds the exact figure.
const abcMaxQtyPlaces = 4

// abcQtyPlaces is how many places the ABC curve's quantities are shown with,
// one for the whole column: the most any has, at least 2 and at most
// abcMaxQtyPlaces.
func abcQtyPlaces(r *domain.ABCReport) int {
	p := 2
	for i := range r.Rows {
		p = max(p, places(r.Rows[i].Quantity, 2, abcMaxQtyPlaces))
	}
	return p
}

// abcTable writes the ABC table and its classes; it returns the row after
// them.
func (k *book) abcTable(r *domain.ABCReport) (int, error) {
	const first = abcFirstRow
	if err := k.put('A', 8, fmt.Sprintf("Limites das classes: A até %s%%, B até %s%%", Quantity(r.Limits.A), Quantity(r.Limits.B))); err != nil {
		return 0, err
	}
	if err := k.heading(abcHeadingRow, abcHeaderOf(r)); err != nil {
		return 0, err
	}
	last := first + len(r.Rows) - 1
	tot := last + 2
	qtyPlaces := abcQtyPlaces(r)
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
			{'A', excelize.Cell{StyleID: k.center, Value: row.Position}}, {'B', excelize.Cell{StyleID: k.text, Value: row.Ref.Name}},
			{'C', excelize.Cell{StyleID: k.text, Value: row.Ref.Month}}, {'D', excelize.Cell{StyleID: k.text, Value: row.Code}},
			{'E', excelize.Cell{StyleID: k.wrap, Value: missingNote(row.Description, row.Missing)}},
			{'F', excelize.Cell{StyleID: k.text, Value: row.Unit}}, {'G', excelize.Cell{StyleID: k.text, Value: abcCategoryName(r, row)}},
			{'H', number(row.Quantity, k.num[qtyPlaces])}, {'I', nil}, {'J', number(row.Total, k.num[places(row.Total, 2, maxShownPlaces)])},
			{'K', formula(row.Percent, pct, k.money)}, {'L', formula(row.CumulativePercent, cum, k.money)},
			{'M', excelize.Cell{StyleID: k.center, Value: string(row.Class)}},
		}
		if !row.Missing {
			cells[8].v = number(row.UnitPrice, k.price(row.Ref.Name, row.UnitPrice))
		}
		k.fit(n, 'E', missingNote(row.Description, row.Missing), false)
		for _, c := range cells {
			if c.v == nil {
				continue
			}
			if err := k.put(c.col, n, c.v); err != nil {
				return 0, err
			}
		}
	}
	sum := "0"
	if len(r.Rows) > 0 {
		sum = fmt.Sprintf("SUM(J%d:J%d)", first, last)
	}
	// The total's cells, E to J, are bold.
	if err := k.put('E', tot, excelize.Cell{StyleID: k.bold, Value: "Total"}); err != nil {
		return 0, err
	}
	for col := byte('F'); col <= 'I'; col++ {
		if err := k.put(col, tot, excelize.Cell{StyleID: k.bold}); err != nil {
			return 0, err
		}
	}
	if err := k.put('J', tot, formula(r.Total, sum, k.boldMoney)); err != nil {
		return 0, err
	}
	classes := r.Classes()
	for i, cl := range classes {
		n := tot + 2 + i
		if err := k.put('E', n, fmt.Sprintf("Classe %s (%d itens)", cl.Class, cl.Count)); err != nil {
			return 0, err
		}
		fm := fmt.Sprintf(`SUMIF(M%d:M%d,"%s",J%d:J%d)`, first, max(last, first), cl.Class, first, max(last, first))
		if err := k.put('J', n, formula(cl.Total, fm, k.money)); err != nil {
			return 0, err
		}
		if err := k.put('K', n, number(cl.Percent, k.money)); err != nil {
			return 0, err
		}
	}
	return tot + 2 + len(classes), nil
}

func ptrStr(s string) *string { return &s }

// bdiSheet writes the sheet "BDI": the budget's components, the rate as a
// formula of them (TCU's, rounded half up to 2 places of percent), and the
// check against TCU's ranges; A4 landscape, one page wide.
func (k *book) bdiSheet(b *domain.Budget) error {
	const sh = "BDI"
	f := k.f
	if _, err := f.NewSheet(sh); err != nil {
		return err
	}
	if err := printSetup(f, sh); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(sh)
	if err != nil {
		return err
	}
	for i, w := range []float64{46, 12, 12, 12, 12, 20, 40} {
		if err := sw.SetColWidth(i+1, i+1, w); err != nil {
			return err
		}
	}
	s := sheet{sw: sw}
	num := func(col byte, row int, d decimal.Decimal) error {
		return s.put(col, row, number(d, k.num[places(d, 2, 4)]))
	}
	if err := s.put('A', 1, excelize.Cell{StyleID: k.title, Value: "BDI — Acórdão TCU 2622/2013"}); err != nil {
		return err
	}
	row := 3
	for _, t := range []struct {
		title string
		parts *domain.BDIParts
		rate  decimal.Decimal
		wt    string
	}{{"BDI", b.BDIParts, b.BDI, b.WorkType}, {"BDI diferenciado (fornecimento)", b.SupplyBDIParts, b.SupplyBDI, domain.BDIWorkTypeSupply}} {
		if err := s.put('A', row, excelize.Cell{StyleID: k.bold, Value: t.title}); err != nil {
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
		if err := s.put('A', rateRow, excelize.Cell{StyleID: k.bold, Value: "BDI (%) = ((1+AC+S+R+G)(1+DF)(1+L)/(1−I) − 1)"}); err != nil {
			return err
		}
		fm := fmt.Sprintf("ROUND(((1+%s+%s+%s+%s)*(1+%s)*(1+%s)/(1-%s-%s)-1)*100,2)", c(0), c(1), c(2), c(3), c(4), c(5), c(6), c(7))
		if err := s.put('C', rateRow, formula(p.Rate(), fm, k.boldMoney)); err != nil {
			return err
		}
		row = rateRow + 1
		if wt, ok := domain.TCU2622().WorkType(t.wt); ok {
			check := domain.CheckBDI(wt, *p)
			if err := s.put('A', row, "Referência TCU: "+wt.Name); err != nil {
				return err
			}
			for i, h := range []string{"Parcela", "Valor", "1º quartil", "Médio", "3º quartil", "Situação", "Confiabilidade"} {
				if err := s.put(byte('A'+i), row+1, excelize.Cell{StyleID: k.head, Value: h}); err != nil {
					return err
				}
			}
			for i, cr := range check.Rows {
				n := row + 2 + i
				if err := s.put('A', n, BDIComponentName(cr.Name)); err != nil {
					return err
				}
				for j, v := range []decimal.Decimal{cr.Value, cr.Range.Q1, cr.Range.Average, cr.Range.Q3} {
					if err := num(byte('B'+j), n, v); err != nil {
						return err
					}
				}
				if err := s.put('F', n, BDIStatusName(cr.Status)); err != nil {
					return err
				}
				if err := s.put('G', n, ConfidencesName(cr.Range.Confidence)); err != nil {
					return err
				}
			}
			row += 2 + len(check.Rows)
		}
		row += 2
	}
	return s.end()
}
