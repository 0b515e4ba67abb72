package bankfiles

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// This file reads a state agency's price table (ORSE, SEINFRA-CE, SETOP…)
// through a mapping: a small JSON document that says where the table's
// columns are and what they mean, so that a new agency is a new mapping,
// not new code. The rows go into the same Builder as the official files, so
// the same checks apply (a code given twice with other data is refused,
// prices are exact decimals, the caps of limits.go bound the file); unlike
// the official readers, every bad row of the file is reported at once.
// The format is documented in docs/importing.md ("Any agency's table").

// Mapping describes an agency's table. Field names are the JSON keys.
type Mapping struct {
	// Bank names the bank the editions belong to (ORSE, SEINFRA-CE), upper
	// case once read. SINAPI and SICRO3 have their own importers.
	Bank string `json:"bank"`
	// Publisher opens the editions' Source ("CEHOP/SE"); the bank when
	// empty.
	Publisher string `json:"publisher,omitempty"`
	// State (UF) and Month (MM/YYYY) of the edition; either may be left
	// out and given on the command line.
	State string `json:"state,omitempty"`
	Month string `json:"month,omitempty"`
	// Sheet is the worksheet of an XLSX file (the first when empty).
	Sheet string `json:"sheet,omitempty"`
	// Separator is the field separator of a CSV file, ";" or "," or "\t"
	// (told from the first line when empty). DecimalComma says numbers are
	// written 1.234,56 (the default with ";").
	Separator    string `json:"separator,omitempty"`
	DecimalComma *bool  `json:"decimal_comma,omitempty"`
	// SkipRows is the number of rows above the header (title rows), blank
	// rows included. NoHeader says the table has no header row: its
	// columns must then all be given by letter.
	SkipRows int  `json:"skip_rows,omitempty"`
	NoHeader bool `json:"no_header,omitempty"`
	// Decimals is the number of decimal places of the prices (0 to 8): a
	// price with more places is refused, unless Round says the agency
	// publishes its prices rounded half up to Decimals places from cells
	// that hold more (SEINFRA-CE's equipment costs: 39.25166523 shown and
	// used as 39,2517).
	Decimals int  `json:"decimals"`
	Round    bool `json:"round,omitempty"`
	// Columns of the table.
	Code        *Column `json:"code"`
	Description *Column `json:"description"`
	Unit        *Column `json:"unit"`
	Class       *Column `json:"class,omitempty"`
	// Classes maps each value of the class column (compared without
	// accents, case or extra spaces) to a kind; Kind is the kind of every
	// row when there is no class column.
	Classes map[string]string `json:"classes,omitempty"`
	Kind    string            `json:"kind,omitempty"`
	// Prices are the price columns, each with its regime.
	Prices []PriceColumn `json:"prices"`
}

// Column is where a column is: the text of its header cell (compared
// without accents, case or extra spaces) or its letter (A, B… AA).
type Column struct {
	Title  string `json:"title,omitempty"`
	Letter string `json:"column,omitempty"`
}

// PriceColumn is a price column and its regime: "desonerado",
// "nao-desonerado" or "single" (one price for both regimes).
type PriceColumn struct {
	Column
	Regime string `json:"regime"`
}

// The kinds a row may be (Mapping.Kind, the values of Mapping.Classes).
var mappingKinds = map[string]int{
	"material":    domain.TypeMaterial,
	"labour":      domain.TypeLabor,
	"equipment":   domain.TypeEquipment,
	"services":    domain.TypeServices,
	"composition": -1,
}

// kindComposition is the type mappingKinds gives a composition row.
const kindComposition = -1

// maxMappingErrors is how many row errors one message lists.
const maxMappingErrors = 100

// ReadMapping reads and checks a mapping, reporting every fault at once.
// Unknown keys are refused (a misspelt key would otherwise be ignored).
func ReadMapping(name string, r io.Reader) (*Mapping, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var m Mapping
	if err := dec.Decode(&m); err != nil {
		return nil, badFile(name, 0, "not a mapping: %v", err)
	}
	if dec.More() {
		return nil, badFile(name, 0, "not a mapping: more than one JSON value")
	}
	m.Bank = domain.NormalizeBank(m.Bank)
	if errs := m.check(); len(errs) > 0 {
		return nil, badFile(name, 0, "bad mapping:\n  %s", strings.Join(errs, "\n  "))
	}
	return &m, nil
}

// ReadMappingFile reads the mapping at path.
func ReadMappingFile(path string) (*Mapping, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, badFile(path, 0, "%v", err)
	}
	return ReadMapping(path, bytes.NewReader(b))
}

// check returns every fault of m.
func (m *Mapping) check() []string {
	var errs []string
	add := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	switch {
	case m.Bank == "":
		add("bank: is required")
	case m.Bank == "SINAPI" || m.Bank == "SICRO3" || m.Bank == domain.BankMyBase:
		add("bank: %s has its own importer (costdb import %s), not a mapping", m.Bank, strings.ToLower(m.Bank))
	case len(m.Bank) > 32 || strings.ContainsAny(m.Bank, "/ \t"):
		add("bank: %q must be at most 32 characters, without spaces or /", m.Bank)
	}
	if m.State != "" && !domain.ValidState(strings.ToUpper(m.State)) {
		add("state: %q is not a state code (UF)", m.State)
	}
	if m.Month != "" && !domain.ValidMonth(m.Month) {
		add("month: %q is not MM/YYYY", m.Month)
	}
	switch m.Separator {
	case "", ";", ",", "\t":
	default:
		add("separator: %q is not one of \";\", \",\", \"\\t\"", m.Separator)
	}
	if m.SkipRows < 0 || m.SkipRows > maxTitleRows {
		add("skip_rows: %d is not between 0 and %d", m.SkipRows, maxTitleRows)
	}
	if m.Decimals < 0 || m.Decimals > 8 {
		add("decimals: %d is not between 0 and 8", m.Decimals)
	}
	col := func(key string, c *Column, required bool) {
		switch {
		case c == nil:
			if required {
				add("%s: is required", key)
			}
		case (c.Title == "") == (c.Letter == ""):
			add("%s: give either \"title\" or \"column\"", key)
		case c.Letter != "":
			if _, err := excelize.ColumnNameToNumber(c.Letter); err != nil || strings.ToUpper(c.Letter) != c.Letter {
				add("%s: column %q is not a column letter (A, B… AA)", key, c.Letter)
			}
		case m.NoHeader:
			add("%s: no_header: the columns must be given by letter, not by title", key)
		}
	}
	col("code", m.Code, true)
	col("description", m.Description, true)
	col("unit", m.Unit, true)
	col("class", m.Class, false)
	if m.Class != nil {
		if len(m.Classes) == 0 {
			add("classes: is required with a class column (each value of the column and its kind)")
		}
		for v, k := range m.Classes {
			if _, ok := mappingKinds[k]; !ok {
				add("classes: %q: kind %q is not one of material, labour, equipment, services, composition", v, k)
			}
		}
	} else {
		if _, ok := mappingKinds[m.Kind]; !ok {
			add("kind: %q is not one of material, labour, equipment, services, composition (required without a class column)", m.Kind)
		}
	}
	if len(m.Prices) == 0 {
		add("prices: at least one price column is required")
	}
	seen := map[string]bool{}
	for i, p := range m.Prices {
		c := p.Column
		col(fmt.Sprintf("prices[%d]", i), &c, true)
		switch p.Regime {
		case "desonerado", "nao-desonerado", "single":
			if seen[p.Regime] {
				add("prices[%d]: a second %s price column", i, p.Regime)
			}
			seen[p.Regime] = true
		default:
			add("prices[%d]: regime %q is not one of desonerado, nao-desonerado, single", i, p.Regime)
		}
	}
	if seen["single"] && len(m.Prices) > 1 {
		add("prices: a single price column stands for both regimes and comes alone")
	}
	return errs
}

// regimes returns the regimes of price column p.
func (p PriceColumn) regimes() []domain.Regime {
	switch p.Regime {
	case "desonerado":
		return []domain.Regime{domain.Desonerado}
	case "nao-desonerado":
		return []domain.Regime{domain.NaoDesonerado}
	}
	return []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
}

// MappedSummary says what an agency's table gave.
type MappedSummary struct {
	File         string
	Rows         int // data rows read
	Skipped      int // rows without any price (group headings, not priced)
	Resources    int
	Compositions int
}

// ReadMapped reads the agency table at path through m into the editions
// to import (see Importer.Editions). state and month, when not empty, give
// what the mapping leaves out; given in both, they must agree. Every bad
// row is reported in one error, by its line.
func ReadMapped(ctx context.Context, m *Mapping, path, state, month string, l Limits) ([]Edition, MappedSummary, error) {
	sum := MappedSummary{File: path}
	fh, err := os.Open(path)
	if err != nil {
		return nil, sum, badFile(path, 0, "%v", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, sum, badFile(path, 0, "%v", err)
	}
	meta, err := m.edition(state, month)
	if err != nil {
		return nil, sum, err
	}
	f, err := m.open(ctx, path, fh, st.Size(), l.withDefaults())
	if err != nil {
		return nil, sum, err
	}
	defer f.src.close()
	var b Builder
	b.init()
	errs, err := m.read(f, &b)
	sum.Rows, sum.Skipped = f.rows, f.skipped
	if err != nil {
		return nil, sum, err
	}
	if len(errs) > 0 {
		msg := strings.Join(errs, "\n  ")
		if len(errs) > maxMappingErrors {
			msg = strings.Join(errs[:maxMappingErrors], "\n  ") + fmt.Sprintf("\n  … and %d more", len(errs)-maxMappingErrors)
		}
		return nil, sum, badFile(path, 0, "%d bad rows, nothing imported:\n  %s", len(errs), msg)
	}
	for _, c := range b.counts() {
		sum.Resources, sum.Compositions = max(sum.Resources, c.Resources), max(sum.Compositions, c.Compositions)
	}
	publisher := m.Publisher
	if publisher == "" {
		publisher = m.Bank
	}
	base := path
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	meta.Source = fmt.Sprintf("%s, %s %s: %s", publisher, meta.State, meta.Month, base)
	rec, err := sourceFile(path, fh, st.Size(), f.Title)
	if err != nil {
		return nil, sum, err
	}
	meta.Files = []domain.SourceFile{rec}
	eds, err := b.editions(meta)
	return eds, sum, err
}

// edition returns the edition m and the command line name.
func (m *Mapping) edition(state, month string) (domain.Edition, error) {
	state = strings.ToUpper(strings.TrimSpace(state))
	ms := strings.ToUpper(m.State)
	if state != "" && ms != "" && state != ms {
		return domain.Edition{}, badFile("mapping", 0, "--state %s contradicts the mapping's state %s", state, ms)
	}
	if month != "" && m.Month != "" && month != m.Month {
		return domain.Edition{}, badFile("mapping", 0, "--month %s contradicts the mapping's month %s", month, m.Month)
	}
	if state == "" {
		state = ms
	}
	if month == "" {
		month = m.Month
	}
	if state == "" || month == "" {
		return domain.Edition{}, badFile("mapping", 0, "the state and the month are required: in the mapping or as --state and --month")
	}
	meta := domain.Edition{Bank: m.Bank, State: state, Month: month}
	return meta, checkMeta(meta)
}

// open opens the table (CSV or XLSX, told apart by its content), skips the
// title rows and reads the header row.
func (m *Mapping) open(ctx context.Context, name string, r io.ReaderAt, size int64, l Limits) (*File, error) {
	src, style, err := m.source(ctx, name, r, size, l)
	var le *LimitError
	if errors.As(err, &le) || ctx.Err() != nil && err != nil {
		return nil, err
	}
	if err != nil {
		return nil, badFile(name, 0, "%v", err)
	}
	f := &File{Name: name, ctx: ctx, src: src, style: style, padRows: true}
	fail := func(err error) (*File, error) {
		src.close()
		return nil, err
	}
	for {
		line, cells, err := src.next()
		if err == io.EOF {
			return fail(badFile(name, 0, "the table ends before its header (skip_rows %d)", m.SkipRows))
		}
		if err != nil {
			return fail(f.wrap(err))
		}
		trimCells(cells)
		if line <= m.SkipRows {
			f.Title = append(f.Title, Row{Line: line, Cells: append([]string(nil), cells...)})
			continue
		}
		if m.NoHeader { // the first data row: give it back to Next
			f.HeaderLine = m.SkipRows
			f.src = &pushback{rowSource: src, line: line, cells: append([]string(nil), cells...)}
			return f, nil
		}
		if isBlank(cells) {
			continue
		}
		h := make(Header, len(cells))
		for i, c := range cells {
			h[i] = NormalizeName(c)
		}
		f.Header, f.HeaderLine = h, line
		return f, nil
	}
}

// source opens the row source: the mapping's sheet of a workbook, or a
// CSV file with the mapping's separator.
func (m *Mapping) source(ctx context.Context, name string, r io.ReaderAt, size int64, l Limits) (rowSource, numberStyle, error) {
	var magic [4]byte
	n, _ := r.ReadAt(magic[:], 0)
	switch string(magic[:n]) {
	case xlsxMagic:
		if m.Sheet == "" {
			x, err := openXLSX(ctx, name, r, size, l)
			return x, numbersFloat, err
		}
		if _, err := checkWorkbook(ctx, name, r, size, l); err != nil {
			return nil, 0, err
		}
		var book *excelize.File
		var err error
		if f, ok := r.(*os.File); ok {
			book, err = excelize.OpenFile(f.Name(), bookOptions(l)) // read where it is, not copied into memory
		} else {
			book, err = excelize.OpenReader(io.NewSectionReader(r, 0, size), bookOptions(l))
		}
		if err != nil {
			return nil, 0, fmt.Errorf("not a readable XLSX workbook: %v", err)
		}
		want := NormalizeName(m.Sheet)
		for _, s := range book.GetSheetList() {
			if NormalizeName(s) == want {
				x, err := openSheet(book, s)
				if err != nil {
					book.Close()
					return nil, 0, err
				}
				x.owned = true
				return x, numbersFloat, nil
			}
		}
		list := book.GetSheetList()
		book.Close()
		return nil, 0, fmt.Errorf("the workbook has no sheet %q (it has %s)", m.Sheet, strings.Join(list, ", "))
	case xlsMagic:
		return nil, 0, errors.New("this is an Excel 97-2003 (.xls) workbook: save it as XLSX or CSV")
	}
	src, style, err := openCSV(name, r, size, l)
	if err != nil {
		return nil, 0, err
	}
	cs := src.(*csvSource)
	if m.Separator != "" {
		cs.r.Comma = rune(m.Separator[0])
		style = numbersDot
		if m.Separator == ";" {
			style = numbersBR
		}
	}
	if m.DecimalComma != nil {
		style = numbersDot
		if *m.DecimalComma {
			style = numbersBR
		}
	}
	return cs, style, nil
}

// pushback is a row source that gives one row read ahead first.
type pushback struct {
	rowSource
	line  int
	cells []string
}

func (p *pushback) next() (int, []string, error) {
	if p.cells != nil {
		cells := p.cells
		p.cells = nil
		return p.line, cells, nil
	}
	return p.rowSource.next()
}

// mappedColumns are the indexes of a mapping's columns in a table (-1 for
// an absent optional column).
type mappedColumns struct {
	code, description, unit, class int
	prices                         []int
}

// columns resolves the mapping's columns against f's header. It returns
// their indexes and a fault for every column the header lacks.
func (m *Mapping) columns(f *File) (mappedColumns, []string) {
	var missing []string
	find := func(key string, c *Column) int {
		if c == nil {
			return -1
		}
		if c.Letter != "" {
			n, _ := excelize.ColumnNameToNumber(c.Letter)
			return n - 1
		}
		want := NormalizeName(c.Title)
		if i := f.Header.Index(want); i >= 0 {
			return i
		}
		missing = append(missing, fmt.Sprintf("line %d: %s: no column %q in the header (%s)", f.HeaderLine, key, c.Title, strings.Join(nonEmpty(f.Header), " | ")))
		return -1
	}
	mc := mappedColumns{
		code: find("code", m.Code), description: find("description", m.Description),
		unit: find("unit", m.Unit), class: find("class", m.Class),
	}
	for i := range m.Prices {
		c := m.Prices[i].Column
		mc.prices = append(mc.prices, find(fmt.Sprintf("prices[%d]", i), &c))
	}
	return mc, missing
}

func nonEmpty(h Header) []string {
	var out []string
	for _, s := range h {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// read reads every row of f into b. It returns the faults of the rows (all
// of them), or an error that stops the reading (the file itself).
func (m *Mapping) read(f *File, b *Builder) ([]string, error) {
	mc, errs := m.columns(f)
	if len(errs) > 0 {
		return errs, nil
	}
	seen := map[string]int{} // code → the line that gave it
	classes := map[string]int{}
	for v, k := range m.Classes {
		classes[NormalizeName(v)] = mappingKinds[k]
	}
	for {
		row, ok, err := f.Next()
		if err != nil {
			return errs, err
		}
		if !ok {
			return errs, nil
		}
		rowErrs := m.row(f, b, mc, classes, seen, row)
		for _, e := range rowErrs {
			errs = append(errs, fmt.Sprintf("line %d: %s", row.Line, e))
		}
		if len(errs) > 10*maxMappingErrors {
			return errs, nil // enough to say the mapping does not fit the file
		}
	}
}

// row reads one data row; it returns the row's faults.
func (m *Mapping) row(f *File, b *Builder, mc mappedColumns, classes map[string]int, seen map[string]int, row Row) []string {
	var errs []string
	code, desc, unit := row.Cell(mc.code), row.Cell(mc.description), row.Cell(mc.unit)
	type price struct {
		value   decimal.Decimal
		regimes []domain.Regime
	}
	var prices []price
	for i, col := range mc.prices {
		p := m.Prices[i]
		var field string
		if p.Title != "" {
			field = fmt.Sprintf("price %q", p.Title)
		} else {
			field = "price in column " + p.Letter
		}
		s := row.Cell(col)
		if s == "" || s == "-" {
			continue
		}
		d, err := f.Decimal(row, col, field)
		if err != nil {
			errs = append(errs, stripWhere(err, f, row.Line))
			continue
		}
		if d.IsZero() { // an agency's 0, as Caixa's, is "not priced"
			continue
		}
		if m.Round {
			d = d.Round(int32(m.Decimals)) // half up: prices are not negative
		}
		if places := -d.Exponent(); places > int32(m.Decimals) && !d.Equal(d.Truncate(int32(m.Decimals))) {
			errs = append(errs, fmt.Sprintf("%s %q has more than %d decimal places", field, s, m.Decimals))
			continue
		}
		prices = append(prices, price{d, p.regimes()})
	}
	if len(prices) == 0 && len(errs) == 0 {
		f.Skip() // a group heading or a code not priced
		return nil
	}
	if code == "" {
		errs = append(errs, "the code is empty")
	} else if first, ok := seen[code]; ok {
		errs = append(errs, fmt.Sprintf("code %s is given twice: here and on line %d", code, first))
	} else {
		seen[code] = row.Line
	}
	if desc == "" {
		errs = append(errs, "the description is empty")
	}
	kind := mappingKinds[m.Kind]
	if mc.class >= 0 {
		c := row.Cell(mc.class)
		k, ok := classes[NormalizeName(c)]
		if !ok {
			errs = append(errs, fmt.Sprintf("class %q is not in the mapping's classes", c))
		}
		kind = k
	}
	if len(errs) > 0 {
		return errs
	}
	for _, p := range prices {
		var err error
		if kind == kindComposition {
			err = b.AddComposition(f, row.Line, p.regimes, CompositionRow{Code: code, Description: desc, Unit: unit, Cost: p.value})
		} else {
			err = b.AddResource(f, row.Line, p.regimes, ResourceRow{Code: code, Description: desc, Unit: unit, Type: kind, Productive: p.value, Idle: p.value})
		}
		if err != nil {
			return []string{stripWhere(err, f, row.Line)}
		}
	}
	return nil
}

// stripWhere removes "bankfiles: FILE line N: " from an error of f, the
// list of row errors naming the file once and each line itself.
func stripWhere(err error, f *File, line int) string {
	msg := err.Error()
	for _, p := range []string{fmt.Sprintf("bankfiles: %s line %d: ", f.Name, line), "bankfiles: " + f.Name + ": "} {
		if strings.HasPrefix(msg, p) {
			return msg[len(p):]
		}
	}
	return msg
}
