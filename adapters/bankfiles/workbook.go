package bankfiles

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
	"golang.org/x/text/unicode/norm"
)

// This file reads the national SINAPI workbook Caixa publishes each month
// since 2025 (SINAPI_Referência_AAAA_MM.xlsx, inside the monthly zip): every
// state in columns, insumo prices and composition costs per regime in their
// own sheets, the composition structure in the "Analítico" sheet, shared by
// every state. docs/importing.md describes the layout as this reader takes
// it; every assumption it makes about the layout is listed there.

// Sheet names of the national workbook (compared after Unicode NFC
// normalisation, exactly: "Analítico com Custo" is another sheet).
const (
	SheetInsumosND      = "ISD" // insumos, sem desoneração
	SheetInsumosD       = "ICD" // insumos, com desoneração
	SheetCompositionsND = "CSD" // composições, sem desoneração
	SheetCompositionsD  = "CCD" // composições, com desoneração
	SheetAnalytic       = "Analítico"
)

// ErrNotWorkbook is OpenSinapiWorkbook's error for a file that is not the
// national workbook (a CSV file, or a workbook without its sheets): such a
// file is one of the older per-state layouts.
var ErrNotWorkbook = errors.New("not the national SINAPI workbook")

// WorkbookOptions are the choices of a workbook import.
type WorkbookOptions struct {
	// States limits the import to these states (UF); nil imports every
	// state the workbook prices.
	States []string
	// Month is the reference month (MM/YYYY) the caller expects, or "":
	// the workbook's must be the same.
	Month string
	// Progress, when not nil, is called now and then while a sheet is
	// read, with the rows read so far and the sheet's rows (0 when the
	// sheet does not tell), and once at the end of the sheet with done ==
	// total.
	Progress func(sheet string, done, total int64)
}

// SheetSummary says what was read from one sheet of the workbook.
type SheetSummary struct {
	Name    string
	Regime  *domain.Regime // nil for Analítico
	Rows    int            // item rows read
	Skipped int            // rows below the header that are not items (blank, notes, footers)
}

// StateSummary counts what the workbook gives for one state.
type StateSummary struct {
	State        string
	Resources    int // insumos priced in every regime
	Compositions int // compositions with a cost in every regime
	Structures   int // of which with their structure
	// OneRegime counts the records (of Resources and Compositions)
	// priced in some regime but not in every one the workbook has: they
	// carry the regimes they are priced in (domain.BankResource.Regimes),
	// so the other regime reads as not published, never as a zero price.
	OneRegime int
}

// Workbook is what a national workbook gives: the reference month and an
// edition per state, each priced in the regimes the workbook prices the
// state in.
type Workbook struct {
	File    string // the file read (the workbook inside a zip: zip » workbook)
	Month   string // MM/YYYY
	Regimes []domain.Regime
	Sheets  []SheetSummary
	Ignored []string // sheets present and not read (ISE, CSE, …)
	// States are the states to import, in order; Edition(i) is the
	// edition of States[i].
	States []string
	build  func(state string) (Edition, StateSummary)
}

// Edition builds the edition of States[i] and what it counts. Each call
// builds it anew from the sheets read, so that an import can let each
// state's records go once they are stored (app.Service.ImportEditionsFunc)
// instead of holding all 27 states' at once.
func (w *Workbook) Edition(i int) (Edition, StateSummary) { return w.build(w.States[i]) }

// Editions builds the edition of every state, in order.
func (w *Workbook) Editions() ([]Edition, []StateSummary) {
	eds := make([]Edition, len(w.States))
	sums := make([]StateSummary, len(w.States))
	for i := range w.States {
		eds[i], sums[i] = w.Edition(i)
	}
	return eds, sums
}

// WorkbookFile is an open national workbook.
type WorkbookFile struct {
	limits   Limits
	sheetMax int64  // the largest worksheet part, uncompressed
	name     string // as shown in messages
	path     string // the .xlsx on disk (a temporary copy for a zip)
	temp     bool
	book     *excelize.File
	sheets   map[string]string // NFC name → name in the workbook
	source   domain.SourceFile // the file opened (the zip, or the workbook), as its editions record it
}

// workbookPattern is the name of the main workbook in Caixa's monthly zip.
var workbookPattern = regexp.MustCompile(`(?i)^SINAPI_Refer.+ncia_(\d{4})_(\d{2})\.xlsx$`)

// OpenSinapiWorkbook opens the national workbook at path: the .xlsx, or the
// .zip Caixa publishes (the workbook SINAPI_Referência_AAAA_MM.xlsx is
// taken from it). It tells the format by the sheets, not by the name: a
// file that is no zip, or a workbook without the sheets ISD, ICD, CSD, CCD
// and Analítico, answers ErrNotWorkbook. A zip that holds no such workbook,
// or a file that cannot be read, is an EBADREQUEST error naming it.
func OpenSinapiWorkbook(path string) (*WorkbookFile, error) {
	return OpenSinapiWorkbookWith(context.Background(), path, Limits{})
}

// OpenSinapiWorkbookWith is OpenSinapiWorkbook within the caps l (zero
// fields take DefaultLimits'): those of the zip, when path is a zip of
// workbooks, and those of the workbook's own parts, checked before the
// workbook is opened. Going over a cap is a *LimitError naming the file and
// the cap. ctx stops the check.
func OpenSinapiWorkbookWith(ctx context.Context, path string, l Limits) (*WorkbookFile, error) {
	l = l.withDefaults()
	fh, err := os.Open(path)
	if err != nil {
		return nil, badFile(path, 0, "%v", err)
	}
	var magic [4]byte
	n, _ := io.ReadFull(fh, magic[:])
	fh.Close()
	if string(magic[:n]) != xlsxMagic {
		return nil, ErrNotWorkbook
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, badFile(path, 0, "neither a readable XLSX workbook nor a zip (%v): is the download complete?", err)
	}
	if err := checkZipEntries(path, &zr.Reader, l); err != nil {
		zr.Close()
		return nil, err
	}
	wf := &WorkbookFile{name: path, path: path, limits: l}
	isBook := false
	var entries []string
	var found *zip.File
	for _, f := range zr.File {
		if strings.EqualFold(strings.TrimPrefix(f.Name, "/"), "xl/workbook.xml") {
			isBook = true
		}
		name := zipName(f)
		entries = append(entries, name)
		if workbookPattern.MatchString(filepath.Base(name)) && found == nil {
			found = f
		}
	}
	if !isBook {
		if found == nil {
			zr.Close()
			return nil, badFile(path, 0, "the zip holds no SINAPI workbook SINAPI_Referência_AAAA_MM.xlsx (it holds: %s)", listNames(entries))
		}
		tmp, err := extract(ctx, path, found, l)
		zr.Close()
		if err != nil {
			var le *LimitError
			if errors.As(err, &le) || ctx.Err() != nil {
				return nil, err
			}
			return nil, badFile(path, 0, "%s: %v", zipName(found), err)
		}
		wf.name, wf.path, wf.temp = path+" » "+filepath.Base(zipName(found)), tmp, true
	} else {
		zr.Close()
	}
	if err := wf.check(ctx); err != nil {
		wf.Close()
		return nil, err
	}
	wf.book, err = excelize.OpenFile(wf.path, bookOptions(l))
	if err != nil {
		wf.Close()
		return nil, badFile(wf.name, 0, "not a readable XLSX workbook: %v", err)
	}
	wf.sheets = map[string]string{}
	for _, s := range wf.book.GetSheetList() {
		wf.sheets[norm.NFC.String(s)] = s
	}
	known := 0
	for _, s := range []string{SheetInsumosND, SheetInsumosD, SheetCompositionsND, SheetCompositionsD, SheetAnalytic} {
		if _, ok := wf.sheets[s]; ok {
			known++
		}
	}
	if known == 0 {
		wf.Close()
		if wf.temp {
			return nil, badFile(wf.name, 0, "the workbook has none of the sheets ISD, ICD, CSD, CCD, Analítico")
		}
		return nil, ErrNotWorkbook
	}
	if wf.source, err = fileRecord(path); err != nil {
		wf.Close()
		return nil, err
	}
	return wf, nil
}

// fileRecord is the record of the file at path (sourceFile), without
// title lines.
func fileRecord(path string) (domain.SourceFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return domain.SourceFile{}, badFile(path, 0, "%v", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return domain.SourceFile{}, badFile(path, 0, "%v", err)
	}
	return sourceFile(path, fh, st.Size(), nil)
}

// zipName is an entry's name, decoded from Latin-1 when it is not UTF-8
// (Caixa's zip may not flag its UTF-8 names; a Latin-1 name is read right).
func zipName(f *zip.File) string {
	if utf8.ValidString(f.Name) {
		return f.Name
	}
	r := make([]rune, len(f.Name))
	for i := 0; i < len(f.Name); i++ {
		r[i] = rune(f.Name[i])
	}
	return string(r)
}

func listNames(names []string) string {
	if len(names) == 0 {
		return "nothing"
	}
	if len(names) > 10 {
		return strings.Join(names[:10], ", ") + fmt.Sprintf(" and %d more", len(names)-10)
	}
	return strings.Join(names, ", ")
}

// check checks the workbook's parts within its caps (checkWorkbook).
func (wf *WorkbookFile) check(ctx context.Context) error {
	fh, err := os.Open(wf.path)
	if err != nil {
		return badFile(wf.name, 0, "%v", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return badFile(wf.name, 0, "%v", err)
	}
	sizes, err := checkWorkbook(ctx, wf.name, fh, st.Size(), wf.limits)
	var le *LimitError
	if errors.As(err, &le) || ctx.Err() != nil && err != nil {
		return err
	}
	if err != nil {
		return badFile(wf.name, 0, "%v", err)
	}
	for part, n := range sizes {
		if strings.HasPrefix(part, "xl/worksheets/sheet") && n > wf.sheetMax {
			wf.sheetMax = n
		}
	}
	return nil
}

// extract copies a zip entry to a temporary file, within the caps l on
// the bytes it really gives, and returns its path.
func extract(ctx context.Context, zipPath string, f *zip.File, l Limits) (string, error) {
	var total int64
	rc, err := openEntry(ctx, zipPath, f, l, &total)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	tmp, err := os.CreateTemp("", "costdb-sinapi-*.xlsx")
	if err != nil {
		return "", err
	}
	_, err = io.Copy(tmp, rc)
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// Name is the workbook as messages name it.
func (wf *WorkbookFile) Name() string { return wf.name }

// Close releases the workbook and its temporary files; it may be called
// again.
func (wf *WorkbookFile) Close() error {
	var err error
	if wf.book != nil {
		err = wf.book.Close()
		wf.book = nil
	}
	if wf.temp {
		os.Remove(wf.path)
		wf.temp = false
	}
	return err
}

// sheetError is the error of a cell or row of a sheet: it names the
// workbook, the sheet, the row and (col ≥ 0) the column.
func (wf *WorkbookFile) sheetError(sheet string, row, col int, format string, args ...any) error {
	where := "sheet " + sheet
	if row > 0 {
		where += fmt.Sprintf(" row %d", row)
	}
	if col >= 0 {
		name, _ := excelize.ColumnNumberToName(col + 1)
		where += " column " + name
	}
	return domain.Errorf(domain.EBADREQUEST, "bankfiles: %s: %s: %s", wf.name, where, fmt.Sprintf(format, args...))
}

// wbSheet is one sheet being read: its rows, its title rows and header.
type wbSheet struct {
	wf       *WorkbookFile
	name     string // as the workbook spells it
	label    string // as messages spell it
	rows     *sheetRows
	title    []Row  // rows above the header
	header   Header // normalised
	line     int    // row of the header
	sum      SheetSummary
	progress func(done, total int64)
	ctx      context.Context
}

// openSheet opens a sheet and reads down to its header: the first row for
// which isHeader says yes, among the first maxTitleRows non-blank rows.
// want names the header's titles in the error of a sheet without one.
func (wf *WorkbookFile) openSheet(ctx context.Context, label string, isHeader func(Header) bool, want string, progress func(string, int64, int64)) (*wbSheet, error) {
	name, ok := wf.sheets[norm.NFC.String(label)]
	if !ok {
		return nil, wf.sheetError(label, 0, -1, "the sheet is missing")
	}
	rows, err := openSheet(wf.book, name)
	if err != nil {
		return nil, wf.sheetError(label, 0, -1, "%v", err)
	}
	s := &wbSheet{wf: wf, name: name, label: label, rows: rows, ctx: ctx, sum: SheetSummary{Name: label}}
	if progress != nil {
		s.progress = func(done, total int64) { progress(label, done, total) }
	}
	for n := 0; n < maxTitleRows; {
		line, cells, err := rows.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			rows.close()
			return nil, wf.sheetError(label, 0, -1, "%v", err)
		}
		trimCells(cells)
		if isBlank(cells) {
			continue
		}
		n++
		h := make(Header, len(cells))
		for i, c := range cells {
			h[i] = NormalizeName(c)
		}
		if isHeader(h) {
			s.header, s.line = h, line
			return s, nil
		}
		s.title = append(s.title, Row{Line: line, Cells: append([]string(nil), cells...)})
	}
	rows.close()
	return nil, wf.sheetError(label, 0, -1, "no header row (%s) in its first %d rows", want, maxTitleRows)
}

// next returns the next non-blank row below the header; ok is false at the
// end of the sheet.
func (s *wbSheet) next() (Row, bool, error) {
	for {
		line, cells, err := s.rows.next()
		if err == io.EOF {
			s.report(true)
			return Row{}, false, nil
		}
		if err != nil {
			return Row{}, false, s.wf.sheetError(s.label, 0, -1, "%v", err)
		}
		if line%1024 == 0 {
			if err := s.ctx.Err(); err != nil {
				return Row{}, false, err
			}
			s.report(false)
		}
		trimCells(cells)
		if isBlank(cells) {
			s.sum.Skipped++
			continue
		}
		return Row{Line: line, Cells: cells}, true, nil
	}
}

func (s *wbSheet) report(end bool) {
	if s.progress == nil {
		return
	}
	done, total := s.rows.progress()
	if end {
		total = done
	}
	s.progress(done, total)
}

func (s *wbSheet) close() { s.rows.close() }

// column returns the first header column whose name starts with one of
// names (a whole word: "CODIGO DO INSUMO" for "CODIGO"), or -1.
func (h Header) column(names ...string) int {
	for i, n := range h {
		for _, name := range names {
			if n == name || strings.HasPrefix(n, name+" ") || strings.HasPrefix(n, name+"(") {
				return i
			}
		}
	}
	return -1
}

// require returns the column of a title, or an error naming the header row.
func (s *wbSheet) require(title string, names ...string) (int, error) {
	if i := s.header.column(names...); i >= 0 {
		return i, nil
	}
	return -1, s.wf.sheetError(s.label, s.line, -1, "the header has no column %q", title)
}

// stateColumns returns the columns of the states (UF abbreviations) in
// row, with the states in the workbook's order.
func stateColumns(cells []string) (cols []int, states []string) {
	for i, c := range cells {
		if u := strings.ToUpper(strings.TrimSpace(c)); len(u) == 2 && domain.ValidState(u) {
			cols, states = append(cols, i), append(states, u)
		}
	}
	return cols, states
}

// states finds the state columns: in the header row, or else in the
// nearest row above it that names states (the composition sheets name each
// state once, over its cost column, in the row above the header).
func (s *wbSheet) states() (cols []int, states []string, row int, err error) {
	if cols, states = stateColumns(s.header); len(cols) > 0 {
		return cols, states, s.line, nil
	}
	for i := len(s.title) - 1; i >= 0; i-- {
		if cols, states = stateColumns(s.title[i].Cells); len(cols) > 0 {
			return cols, states, s.title[i].Line, nil
		}
	}
	return nil, nil, 0, s.wf.sheetError(s.label, s.line, -1, "no state column (AC, AL, … TO) in the header or the rows above it")
}

// monthPattern finds MM/YYYY in a title row.
var wbMonthPattern = regexp.MustCompile(`\b(\d{2})/(\d{4})\b`)

// month returns the reference month a sheet's title rows state ("Mês de
// Referência" and MM/YYYY in the same row), its row, or "".
func (s *wbSheet) month() (string, int) {
	for _, r := range s.title {
		text := NormalizeName(strings.Join(r.Cells, " "))
		if !strings.Contains(text, "MES DE REFERENCIA") {
			continue
		}
		if m := wbMonthPattern.FindStringSubmatch(text); m != nil && domain.ValidMonth(m[0]) {
			return m[0], r.Line
		}
	}
	return "", 0
}

// wbCode reads a SINAPI code: digits as they are (text keeps its leading
// zeros), or a number cell's stored value (89306, 89306.0, 8.9306E4) as
// its integer. ok is false for anything else (blank, notes, footers).
func wbCode(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	if allDigits(s) {
		return s, strings.Trim(s, "0") != "" // 0 is the stored value of a code formula, not a code
	}
	d, err := decimal.NewFromString(s)
	if err != nil || !d.IsInteger() || d.Sign() <= 0 {
		return "", false
	}
	return d.String(), true
}

// wbNumber reads a price, a cost or a coefficient: a number cell's stored
// value, or text with a decimal comma ("1.234,56"); blank gives ok false.
func wbNumber(s string) (d decimal.Decimal, ok bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return d, false, nil
	}
	text := xlsxNumber(s)
	if strings.IndexByte(text, ',') >= 0 {
		var good bool
		if text, good = brNumber(text); !good {
			return d, false, fmt.Errorf("%q is not a number", s)
		}
	}
	d, perr := decimal.NewFromString(text)
	if perr != nil {
		return d, false, fmt.Errorf("%q is not a number", s)
	}
	if d.IsNegative() {
		return d, false, fmt.Errorf("%q is negative", s)
	}
	return d, true, nil
}

// price reads a price or cost cell: absent (blank or 0: Caixa's "no price
// this month") or rounded half up to SinapiPlaces.
func (s *wbSheet) price(row Row, col int, state string) (decimal.Decimal, bool, error) {
	d, ok, err := wbNumber(row.Cell(col))
	if err != nil {
		return d, false, s.wf.sheetError(s.label, row.Line, col, "the price of %s %v", state, err)
	}
	if !ok || d.IsZero() {
		return d, false, nil
	}
	return domain.RoundHalfUp(d, SinapiPlaces), true, nil
}

// maxCents bounds a price: 10¹⁵ reais, far above any bank's, well inside
// int64 centavos.
const maxCents = 100_000_000_000_000_000

// cents reads a price cell as price does, in centavos.
func (s *wbSheet) cents(row Row, col int, state string) (int64, bool, error) {
	d, ok, err := s.price(row, col, state)
	if err != nil || !ok {
		return 0, ok, err
	}
	c := d.Shift(SinapiPlaces)
	if c.Cmp(decimal.New(maxCents, 0)) >= 0 {
		return 0, false, s.wf.sheetError(s.label, row.Line, col, "the price of %s %q is too large", state, row.Cell(col))
	}
	return c.IntPart(), true, nil
}

// wbItem is one insumo or composition row of a price sheet.
type wbItem struct {
	code, description, unit, class string
	line                           int
	price                          []int64 // in centavos, per state column (kept small: 27 states × every row)
	has                            []bool
}

// wbPrices is what one price sheet gives, by code, in row order.
type wbPrices struct {
	label  string
	byCode map[string]*wbItem
	order  []*wbItem
	states []string // the sheet's state columns
}

// Read reads the workbook: the price sheets of each regime present (ISD
// and CSD: não desonerado; ICD and CCD: desonerado), then Analítico, and
// checks them all; the editions, one per state, are built from what it
// read when asked (Workbook.Edition). It changes nothing anywhere: the
// caller imports the editions.
func (wf *WorkbookFile) Read(ctx context.Context, opt WorkbookOptions) (*Workbook, error) {
	out := &Workbook{File: wf.name}
	type pair struct {
		regime       domain.Regime
		insumos, com string
	}
	var pairs []pair
	for _, p := range []pair{{domain.NaoDesonerado, SheetInsumosND, SheetCompositionsND}, {domain.Desonerado, SheetInsumosD, SheetCompositionsD}} {
		_, hasI := wf.sheets[p.insumos]
		_, hasC := wf.sheets[p.com]
		switch {
		case hasI && hasC:
			pairs = append(pairs, p)
		case hasI:
			return nil, wf.sheetError(p.com, 0, -1, "the sheet is missing (the workbook has %s, the insumos of the same regime)", p.insumos)
		case hasC:
			return nil, wf.sheetError(p.insumos, 0, -1, "the sheet is missing (the workbook has %s, the compositions of the same regime)", p.com)
		}
	}
	if len(pairs) == 0 {
		return nil, wf.sheetError(SheetInsumosND, 0, -1, "the sheet is missing: the workbook has neither ISD and CSD nor ICD and CCD")
	}
	if _, ok := wf.sheets[SheetAnalytic]; !ok {
		return nil, wf.sheetError(SheetAnalytic, 0, -1, "the sheet is missing (the composition structure)")
	}
	read := map[string]bool{SheetAnalytic: true, SheetInsumosNoCharges: true}
	for _, p := range pairs {
		read[p.insumos], read[p.com] = true, true
		out.Regimes = append(out.Regimes, p.regime)
	}
	for _, s := range wf.book.GetSheetList() {
		if !read[norm.NFC.String(s)] {
			out.Ignored = append(out.Ignored, s)
		}
	}

	var wanted map[string]bool
	if opt.States != nil {
		wanted = map[string]bool{}
		for _, s := range opt.States {
			if !domain.ValidState(s) {
				return nil, domain.Errorf(domain.EINVALID, "bankfiles: %q is not a state (UF)", s)
			}
			wanted[s] = true
		}
	}
	month := monthClaim{}
	type regimeData struct {
		regime domain.Regime
		ins    *wbPrices
		com    *wbPrices
	}
	var data []regimeData
	for _, p := range pairs {
		r := p.regime
		ins, err := wf.readPrices(ctx, p.insumos, true, &month, opt.Progress)
		if err != nil {
			return nil, err
		}
		out.Sheets = append(out.Sheets, ins.sum(p.insumos, &r))
		com, err := wf.readPrices(ctx, p.com, false, &month, opt.Progress)
		if err != nil {
			return nil, err
		}
		out.Sheets = append(out.Sheets, com.sum(p.com, &r))
		data = append(data, regimeData{r, ins.prices, com.prices})
	}
	structure, parents, asum, err := wf.readAnalytic(ctx, &month, opt.Progress)
	if err != nil {
		return nil, err
	}
	out.Sheets = append(out.Sheets, asum)
	noCharges, nsum, err := wf.readNoCharges(ctx, &month, opt.Progress)
	if err != nil {
		return nil, err
	}
	if nsum != nil {
		out.Sheets = append(out.Sheets, *nsum)
	}

	// The month: the sheets' titles, else the name, and the caller's; a
	// name that says another month than the sheets is refused.
	if m := workbookPattern.FindStringSubmatch(filepath.Base(wf.name)); m != nil {
		named := m[2] + "/" + m[1]
		if month.value == "" {
			month.value, month.where = named, "the file name"
		} else if named != month.value {
			return nil, badFile(wf.name, 0, "the workbook says month %s (%s), the file name says %s", month.value, month.where, named)
		}
	}
	switch {
	case month.value == "" && opt.Month == "":
		return nil, badFile(wf.name, 0, "the workbook states no reference month (\"Mês de Referência\" MM/AAAA above the headers, or SINAPI_Referência_AAAA_MM.xlsx as its name): give --month")
	case month.value == "":
		month.value = opt.Month
	case opt.Month != "" && opt.Month != month.value:
		return nil, badFile(wf.name, 0, "the workbook is of %s (%s), not of %s", month.value, month.where, opt.Month)
	}
	out.Month = month.value

	// The states: those asked for, else every state priced.
	present := map[string]bool{}
	for _, d := range data {
		for _, p := range []*wbPrices{d.ins, d.com} {
			for i, st := range p.states {
				for _, it := range p.order {
					if it.has[i] {
						present[st] = true
						break
					}
				}
			}
		}
	}
	var states []string
	if wanted != nil {
		for st := range wanted {
			if !present[st] {
				return nil, badFile(wf.name, 0, "the workbook has no price for the state %s", st)
			}
			states = append(states, st)
		}
	} else {
		for st := range present {
			states = append(states, st)
		}
	}
	sort.Strings(states)
	if len(states) == 0 {
		return nil, badFile(wf.name, 0, "the workbook has no price for any state")
	}

	out.States = states
	name, ref, src := wf.name, out.Month, wf.source
	out.build = func(st string) (Edition, StateSummary) {
		ed, sum := buildState(name, st, ref, func(yield func(domain.Regime, *wbPrices, *wbPrices)) {
			for _, d := range data {
				yield(d.regime, d.ins, d.com)
			}
		}, structure, parents)
		ed.Edition.Files = []domain.SourceFile{src}
		return withBase(ed, st, noCharges), sum
	}
	return out, nil
}

// monthClaim is the reference month the sheets state, and where.
type monthClaim struct{ value, where string }

// readResult is a price sheet read.
type readResult struct {
	prices  *wbPrices
	rows    int
	skipped int
}

func (r readResult) sum(name string, g *domain.Regime) SheetSummary {
	return SheetSummary{Name: name, Regime: g, Rows: r.rows, Skipped: r.skipped}
}

// readPrices reads an insumo sheet (ISD, ICD) or a composition sheet (CSD,
// CCD): code, description, unit, and a price per state column.
func (wf *WorkbookFile) readPrices(ctx context.Context, label string, insumos bool, month *monthClaim, progress func(string, int64, int64)) (readResult, error) {
	want := "Código, Descrição, Unidade"
	isHeader := func(h Header) bool { return h.column("CODIGO") >= 0 && h.column("DESCRICAO") >= 0 }
	s, err := wf.openSheet(ctx, label, isHeader, want, progress)
	if err != nil {
		return readResult{}, err
	}
	defer s.close()
	if m, line := s.month(); m != "" {
		switch {
		case month.value == "":
			month.value, month.where = m, fmt.Sprintf("sheet %s row %d", label, line)
		case month.value != m:
			return readResult{}, wf.sheetError(label, line, -1, "the reference month is %s, but %s says %s", m, month.where, month.value)
		}
	}
	code, err := s.require("Código", "CODIGO")
	if err != nil {
		return readResult{}, err
	}
	desc, err := s.require("Descrição", "DESCRICAO")
	if err != nil {
		return readResult{}, err
	}
	unit, err := s.require("Unidade", "UNIDADE")
	if err != nil {
		return readResult{}, err
	}
	class := -1
	if insumos {
		class = s.header.column("CLASSIFICACAO")
	}
	cols, states, stateRow, err := s.states()
	if err != nil {
		return readResult{}, err
	}
	if stateRow != s.line {
		// The state names its cost column, the first of its pair; the
		// column under it must not be the pair's "%AS".
		for i, c := range cols {
			if h := s.header[c]; strings.HasPrefix(h, "%") {
				return readResult{}, wf.sheetError(label, s.line, c, "the column under %s (row %d) is %q, not its cost (Custo (R$))", states[i], stateRow, h)
			}
		}
	}
	for i, c := range cols {
		if c == code || c == desc || c == unit {
			return readResult{}, wf.sheetError(label, s.line, c, "the state column %s is also a column of the item", states[i])
		}
	}
	p := &wbPrices{label: label, byCode: map[string]*wbItem{}, states: states}
	res := readResult{prices: p}
	var noCode []*wbItem // composition rows whose code is only in the formula
	for {
		row, ok, err := s.next()
		if err != nil {
			return readResult{}, err
		}
		if !ok {
			break
		}
		it := &wbItem{line: row.Line, description: strings.Clone(row.Cell(desc)), unit: strings.Clone(row.Cell(unit)),
			class: strings.Clone(row.Cell(class)), price: make([]int64, len(cols)), has: make([]bool, len(cols))}
		priced := false
		for i, c := range cols {
			if it.price[i], it.has[i], err = s.cents(row, c, states[i]); err != nil {
				return readResult{}, err
			}
			priced = priced || it.has[i] || row.Cell(c) != ""
		}
		c, isCode := wbCode(row.Cell(code))
		if !isCode && !insumos && (it.description != "" || priced) && (row.Cell(code) == "" || row.Cell(code) == "0") {
			// A composition code is a HYPERLINK formula whose stored
			// value may be empty or 0: read the formula later.
			noCode = append(noCode, it)
			continue
		}
		if !isCode {
			if priced {
				return readResult{}, wf.sheetError(label, row.Line, code, "%q is not a SINAPI code, yet the row has prices", row.Cell(code))
			}
			res.skipped++
			continue
		}
		it.code = c
		if err := p.add(wf, it); err != nil {
			return readResult{}, err
		}
	}
	if len(noCode) > 0 {
		if err := wf.codesFromFormulas(ctx, s.name, label, code, noCode); err != nil {
			return readResult{}, err
		}
		for _, it := range noCode {
			if it.code == "" {
				res.skipped++
				continue
			}
			if err := p.add(wf, it); err != nil {
				return readResult{}, err
			}
		}
		// Keep the rows in sheet order.
		sort.SliceStable(p.order, func(i, j int) bool { return p.order[i].line < p.order[j].line })
	}
	res.rows = len(p.order)
	res.skipped += s.sum.Skipped
	return res, nil
}

func (p *wbPrices) add(wf *WorkbookFile, it *wbItem) error {
	if prev := p.byCode[it.code]; prev != nil {
		return wf.sheetError(p.label, it.line, -1, "code %s is listed twice (rows %d and %d)", it.code, prev.line, it.line)
	}
	p.byCode[it.code] = it
	p.order = append(p.order, it)
	return nil
}

// formulaCode finds the composition code at the end of a HYPERLINK formula:
// =HYPERLINK("#"&CELL(…,MATCH(105003,…)),105003).
var formulaCode = regexp.MustCompile(`[,;]\s*(\d+)\s*\)\s*$`)

// codesFromFormulas sets the code of each item from the formula of its
// code cell. Formulas are not in excelize's row stream: they are read as a
// stream of the sheet's part (streamFormulas), or, for a shared formula,
// through excelize's whole-sheet API within the formula-sheet cap. A row
// whose cell holds no such formula is a note if it has no price (its code
// stays empty), an error otherwise.
func (wf *WorkbookFile) codesFromFormulas(ctx context.Context, sheet, label string, col int, items []*wbItem) error {
	rows := make(map[int]bool, len(items))
	for _, it := range items {
		rows[it.line] = true
	}
	formulas, err := streamFormulas(ctx, wf.path, sheet, col, rows)
	switch {
	case err == nil:
		return wf.setCodes(label, col, items, func(line int) (string, error) { return formulas[line], nil })
	case ctx.Err() != nil:
		return err
	case !errors.Is(err, errFormulaFallback):
		return wf.sheetError(label, 0, -1, "%v", err)
	}
	// A shared formula: excelize derives it from its master cell, reading
	// the whole sheet, within the cap.
	if wf.sheetMax > wf.limits.FormulaSheetBytes {
		// The largest worksheet stands for this one: a bound, not its size.
		return &LimitError{File: wf.name, Entry: "sheet " + label, Cap: CapFormulaSheet, Limit: wf.limits.FormulaSheetBytes, Unit: "bytes"}
	}
	book, err := excelize.OpenFile(wf.path, bookOptions(wf.limits))
	if err != nil {
		return wf.sheetError(label, 0, -1, "%v", err)
	}
	defer book.Close()
	colName, _ := excelize.ColumnNumberToName(col + 1)
	return wf.setCodes(label, col, items, func(line int) (string, error) {
		return book.GetCellFormula(sheet, colName+strconv.Itoa(line))
	})
}

// setCodes sets each item's code from the formula formula gives for its
// line.
func (wf *WorkbookFile) setCodes(label string, col int, items []*wbItem, formula func(line int) (string, error)) error {
	for _, it := range items {
		f, err := formula(it.line)
		if err != nil {
			return wf.sheetError(label, it.line, col, "%v", err)
		}
		if m := formulaCode.FindStringSubmatch(f); m != nil {
			it.code = m[1]
			continue
		}
		priced := false
		for _, h := range it.has {
			priced = priced || h
		}
		if priced {
			return wf.sheetError(label, it.line, col, "no composition code: the cell holds neither a code nor a HYPERLINK formula ending in one (%q)", f)
		}
	}
	return nil
}

// wbParent is a composition's own line in Analítico.
type wbParent struct{ description, unit string }

// readAnalytic reads the structure of every composition from Analítico:
// a composition's line (Tipo Item empty), then a line per item, each
// repeating the composition's code.
func (wf *WorkbookFile) readAnalytic(ctx context.Context, month *monthClaim, progress func(string, int64, int64)) (map[string][]domain.StructureItem, map[string]wbParent, SheetSummary, error) {
	label := SheetAnalytic
	sum := SheetSummary{Name: label}
	isHeader := func(h Header) bool { return h.column("TIPO ITEM") >= 0 && h.column("COEFICIENTE") >= 0 }
	s, err := wf.openSheet(ctx, label, isHeader, "Código da Composição, Tipo Item, Código do Item, Coeficiente", progress)
	if err != nil {
		return nil, nil, sum, err
	}
	defer s.close()
	if m, line := s.month(); m != "" && month.value != "" && m != month.value {
		return nil, nil, sum, wf.sheetError(label, line, -1, "the reference month is %s, but %s says %s", m, month.where, month.value)
	}
	var col [6]int
	for i, c := range []struct {
		title string
		names []string
	}{
		{"Código da Composição", []string{"CODIGO DA COMPOSICAO"}},
		{"Tipo Item", []string{"TIPO ITEM"}},
		{"Código do Item", []string{"CODIGO DO ITEM", "CODIGO ITEM"}},
		{"Coeficiente", []string{"COEFICIENTE"}},
		{"Descrição", []string{"DESCRICAO"}},
		{"Unidade", []string{"UNIDADE"}},
	} {
		if col[i], err = s.require(c.title, c.names...); err != nil {
			return nil, nil, sum, err
		}
	}
	structure := map[string][]domain.StructureItem{}
	parents := map[string]wbParent{}
	for {
		row, ok, err := s.next()
		if err != nil {
			return nil, nil, sum, err
		}
		if !ok {
			break
		}
		kind := NormalizeName(row.Cell(col[1]))
		code, isCode := wbCode(row.Cell(col[0]))
		if !isCode {
			if kind != "" || row.Cell(col[2]) != "" || row.Cell(col[3]) != "" {
				return nil, nil, sum, wf.sheetError(label, row.Line, col[0], "%q is not a composition code, yet the row is an item", row.Cell(col[0]))
			}
			sum.Skipped++
			continue
		}
		sum.Rows++
		if kind == "" {
			if _, ok := parents[code]; !ok {
				parents[code] = wbParent{strings.Clone(row.Cell(col[4])), strings.Clone(row.Cell(col[5]))}
			}
			continue
		}
		var k domain.ItemKind
		switch kind {
		case "INSUMO":
			k = domain.KindResource
		case "COMPOSICAO":
			k = domain.KindComposition
		default:
			return nil, nil, sum, wf.sheetError(label, row.Line, col[1], "Tipo Item %q is neither INSUMO nor COMPOSICAO", row.Cell(col[1]))
		}
		item, isCode := wbCode(row.Cell(col[2]))
		if !isCode {
			return nil, nil, sum, wf.sheetError(label, row.Line, col[2], "the item code %q is not a SINAPI code", row.Cell(col[2]))
		}
		coef, ok, err := wbNumber(row.Cell(col[3]))
		if err != nil {
			return nil, nil, sum, wf.sheetError(label, row.Line, col[3], "the coefficient %v", err)
		}
		if !ok {
			return nil, nil, sum, wf.sheetError(label, row.Line, col[3], "the coefficient is empty")
		}
		structure[code] = append(structure[code], domain.StructureItem{Kind: k, Code: item, Coefficient: coef})
	}
	sum.Skipped += s.sum.Skipped
	return structure, parents, sum, nil
}

// buildState makes the edition of one state: every insumo and composition
// priced in the state in some regime, sorted by code; one priced in some
// of the state's regimes only names them (Regimes; counted in OneRegime).
// The edition's regimes are those the state has any price in.
func buildState(file, state, month string, each func(func(domain.Regime, *wbPrices, *wbPrices)), structure map[string][]domain.StructureItem, parents map[string]wbParent) (Edition, StateSummary) {
	sum := StateSummary{State: state}
	ed := Edition{Edition: domain.Edition{
		Bank: "SINAPI", State: state, Month: month,
		Source: fmt.Sprintf("SINAPI/CAIXA (Caixa Econômica Federal / IBGE), %s %s: %s", state, month, filepath.Base(file)),
	}}
	type slot struct {
		item   *wbItem
		prices [2]int64
		has    [2]bool
	}
	res, com := map[string]*slot{}, map[string]*slot{}
	var any [2]bool // the regimes the state has a price in
	each(func(g domain.Regime, ins, cs *wbPrices) {
		for _, x := range []struct {
			p  *wbPrices
			to map[string]*slot
		}{{ins, res}, {cs, com}} {
			i := indexOf(x.p.states, state)
			for _, it := range x.p.order {
				s := x.to[it.code]
				if s == nil {
					s = &slot{item: it}
					x.to[it.code] = s
				}
				if i >= 0 && it.has[i] {
					s.prices[g], s.has[g], any[g] = it.price[i], true, true
				}
			}
		}
	})
	// The edition's regimes: those the workbook prices the state in (a
	// state whose ISD and CSD columns are blank is desonerado only).
	var regimes []domain.Regime
	for g, ok := range any {
		if ok {
			regimes = append(regimes, domain.Regime(g))
			ed.Edition.AddRegime(domain.Regime(g))
		}
	}
	// priced returns the regimes a record is priced in: nil when it is
	// every regime read (the edition's), and whether it is any.
	priced := func(s *slot) ([]domain.Regime, bool) {
		var in []domain.Regime
		for _, g := range regimes {
			if s.has[g] {
				in = append(in, g)
			}
		}
		switch {
		case len(in) == 0:
			return nil, false
		case len(in) == len(regimes):
			return nil, true
		}
		sum.OneRegime++
		return in, true
	}
	for _, code := range sortedKeys(res) {
		s := res[code]
		in, ok := priced(s)
		if !ok {
			continue
		}
		p := domain.PriceLine{PND: decimal.New(s.prices[domain.NaoDesonerado], -SinapiPlaces), PD: decimal.New(s.prices[domain.Desonerado], -SinapiPlaces)}
		p.PNDI, p.PDI = p.PND, p.PD
		ed.Resources = append(ed.Resources, &domain.BankResource{
			Code: code, Description: s.item.description, Unit: s.item.unit,
			Type: sinapiType(s.item.class, s.item.description), Prices: p, Regimes: in,
		})
	}
	for _, code := range sortedKeys(com) {
		s := com[code]
		in, ok := priced(s)
		if !ok {
			continue
		}
		c := &domain.BankComposition{
			Code: code, Description: s.item.description, Unit: s.item.unit,
			Cost:  domain.UnitPrice{PND: decimal.New(s.prices[domain.NaoDesonerado], -SinapiPlaces), PD: decimal.New(s.prices[domain.Desonerado], -SinapiPlaces)},
			Items: structure[code], Regimes: in,
		}
		if c.Description == "" {
			c.Description = parents[code].description
		}
		if c.Unit == "" {
			c.Unit = parents[code].unit
		}
		if len(c.Items) > 0 {
			sum.Structures++
		}
		ed.Compositions = append(ed.Compositions, c)
	}
	sum.Resources, sum.Compositions = len(ed.Resources), len(ed.Compositions)
	ed.Edition.Resources, ed.Edition.Compositions, ed.Edition.Structures = sum.Resources, sum.Compositions, sum.Structures
	return ed, sum
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// sortedKeys returns the codes in byte order, the order the stores keep.
func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
