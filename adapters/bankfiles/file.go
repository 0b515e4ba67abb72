package bankfiles

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// Row is one row of a bank file: the line it starts on (CSV) or its row
// number (XLSX), and its cells with the spaces around them trimmed.
type Row struct {
	Line  int
	Cells []string
}

// Cell returns cell i, or "" when the row has no such cell (i < 0 included,
// so that an optional column that is absent reads as empty).
func (r Row) Cell(i int) string {
	if i < 0 || i >= len(r.Cells) {
		return ""
	}
	return r.Cells[i]
}

// Header is a header row with every name normalised (see NormalizeName):
// upper case, accents removed, inner spaces collapsed, so that formats match
// "CODIGO  DA COMPOSICAO", "Código" and "Custo Produtivo\n(R$/h)" plainly.
type Header []string

// Index returns the column whose name is name, or -1.
func (h Header) Index(name string) int {
	for i, n := range h {
		if n == name {
			return i
		}
	}
	return -1
}

// Prefix returns the first column whose name is name or starts with name
// followed by a space or a parenthesis ("CUSTO PRODUTIVO (R$/H)" for "CUSTO
// PRODUTIVO"), or -1.
func (h Header) Prefix(name string) int {
	for i, n := range h {
		if n == name || strings.HasPrefix(n, name) && (n[len(name)] == ' ' || n[len(name)] == '(') {
			return i
		}
	}
	return -1
}

// Has reports whether every name is a column (exactly).
func (h Header) Has(names ...string) bool {
	for _, n := range names {
		if h.Index(n) < 0 {
			return false
		}
	}
	return true
}

// width is the number of columns up to the last named one.
func (h Header) width() int {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i] != "" {
			return i + 1
		}
	}
	return 0
}

// NormalizeName normalises a header cell or a title for matching: accents
// removed (Ç → C, Ã → A…), upper case, runs of white space (line breaks
// included) turned into one space, no space at either end.
func NormalizeName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\u00a0':
			space = b.Len() > 0
			continue
		case space:
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune upper-cases a letter and drops its accent (Portuguese letters).
func foldRune(r rune) rune {
	switch r {
	case 'á', 'à', 'â', 'ã', 'ä', 'Á', 'À', 'Â', 'Ã', 'Ä':
		return 'A'
	case 'é', 'è', 'ê', 'ë', 'É', 'È', 'Ê', 'Ë':
		return 'E'
	case 'í', 'ì', 'î', 'ï', 'Í', 'Ì', 'Î', 'Ï':
		return 'I'
	case 'ó', 'ò', 'ô', 'õ', 'ö', 'Ó', 'Ò', 'Ô', 'Õ', 'Ö':
		return 'O'
	case 'ú', 'ù', 'û', 'ü', 'Ú', 'Ù', 'Û', 'Ü':
		return 'U'
	case 'ç', 'Ç':
		return 'C'
	case 'ñ', 'Ñ':
		return 'N'
	}
	if r >= 'a' && r <= 'z' {
		return r - ('a' - 'A')
	}
	return r
}

// numberStyle says how the numbers of a file are written.
type numberStyle int

const (
	// numbersBR: decimal comma, "." between thousands ("3.244,53"), as in
	// the ";"-separated CSV files of Caixa.
	numbersBR numberStyle = iota
	// numbersDot: a decimal point and no thousands separator, as XLSX
	// stores numbers; a cell with a comma is read as numbersBR (numbers
	// typed as text).
	numbersDot
	// numbersFloat: as numbersDot, the cells holding the binary
	// floating-point text XLSX stores ("159.91999999999999"), read as the
	// shortest decimal that is the same float (159.92).
	numbersFloat
)

// maxTitleRows is how many rows above the header a file may have.
const maxTitleRows = 50

// File is one bank file being read: its name, its title rows, its header,
// and its data rows, which a Format reads with Next. A File hands out rows
// only; the Format decides what they mean.
type File struct {
	// Name is the file as the caller named it (a path), used in messages.
	Name string
	// Title holds the rows above the header (report title, state, month…).
	Title []Row
	// Header is the header row, normalised.
	Header Header
	// HeaderLine is the line of the header row.
	HeaderLine int
	// State (UF) and Month (MM/YYYY) are the edition being imported, for
	// formats that check what the file says of them.
	State, Month string
	// Regime is the regime the caller imposes (costdb import sinapi
	// --regime), or nil; what a file's regime is otherwise is the Format's
	// business.
	Regime *domain.Regime

	ctx      context.Context
	src      rowSource
	style    numberStyle
	padRows  bool // XLSX leaves out trailing empty cells: pad rows to the header
	width    int
	rows     int
	skipped  int
	footers  []Row
	progress func(done, total int64)
}

// Next returns the next data row. Blank rows are skipped. A footer (a row
// whose only text is in its first non-empty cell and starts with "TOTAL",
// like "TOTAL DE INSUMOS : 4811") is kept aside (see Footers) and skipped.
// A row of a CSV file with fewer cells than the header is an error (a
// truncated row). ok is false at the end of the file. The row's cells are
// valid until the next call.
func (f *File) Next() (row Row, ok bool, err error) {
	for {
		line, cells, err := f.src.next()
		if err == io.EOF {
			f.report()
			return Row{}, false, nil
		}
		if err != nil {
			return Row{}, false, f.wrap(err)
		}
		trimCells(cells)
		if isBlank(cells) {
			continue
		}
		if f.rows%512 == 0 {
			if err := f.ctx.Err(); err != nil {
				return Row{}, false, err
			}
			f.report()
		}
		row := Row{Line: line, Cells: cells}
		if isFooter(cells) {
			f.footers = append(f.footers, Row{Line: line, Cells: append([]string(nil), cells...)})
			continue
		}
		if len(cells) < f.width {
			if !f.padRows {
				return Row{}, false, f.Errorf(line, "short row: %d cells where the header has %d (truncated line?)", len(cells), f.width)
			}
			for len(row.Cells) < f.width {
				row.Cells = append(row.Cells, "")
			}
		}
		f.rows++
		return row, true, nil
	}
}

// Skip counts a data row that the format leaves out on purpose (a material
// DNIT does not price).
func (f *File) Skip() { f.skipped++ }

// Footers returns the footer rows read so far.
func (f *File) Footers() []Row { return f.footers }

// Rows returns the number of data rows read so far.
func (f *File) Rows() int { return f.rows }

// Errorf returns the error of a bad line of the file: an EBADREQUEST
// *domain.Error whose message names the file and the line.
func (f *File) Errorf(line int, format string, args ...any) error {
	return badFile(f.Name, line, format, args...)
}

// TitleText returns the title rows' cells joined by " - ", normalised (see
// NormalizeName).
func (f *File) TitleText() string {
	var parts []string
	for _, r := range f.Title {
		for _, c := range r.Cells {
			if c != "" {
				parts = append(parts, c)
			}
		}
	}
	return NormalizeName(strings.Join(parts, " - "))
}

// Decimal parses cell col of row as a non-negative number, exactly. field
// names the column in messages. CSV files with ";" write numbers the
// Brazilian way ("3.244,53"); XLSX cells hold them with a decimal point.
func (f *File) Decimal(row Row, col int, field string) (decimal.Decimal, error) {
	s := row.Cell(col)
	if s == "" {
		return decimal.Decimal{}, f.Errorf(row.Line, "%s is empty", field)
	}
	text := s
	if f.style == numbersFloat {
		s = xlsxNumber(s)
		text = s
	}
	if f.style == numbersBR || strings.IndexByte(s, ',') >= 0 {
		var ok bool
		if text, ok = brNumber(s); !ok {
			return decimal.Decimal{}, f.Errorf(row.Line, "%s %q is not a number", field, s)
		}
	}
	return parseDecimal(f.Name, row.Line, field, text)
}

// Column returns the column of a header name found by Index (exact) or by
// Prefix (when prefix is true), and an error naming the missing column.
func (f *File) Column(name string, prefix bool) (int, error) {
	i := f.Header.Index(name)
	if i < 0 && prefix {
		i = f.Header.Prefix(name)
	}
	if i < 0 {
		return -1, f.Errorf(f.HeaderLine, "no column %q in the header", name)
	}
	return i, nil
}

// report calls the progress function with the bytes read so far.
func (f *File) report() {
	if f.progress != nil {
		done, total := f.src.progress()
		f.progress(done, total)
	}
}

// wrap names the file (and the line, for CSV errors) in a reading error.
func (f *File) wrap(err error) error {
	var le *LimitError
	if errors.As(err, &le) {
		return err
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return f.Errorf(pe.StartLine, "%v", pe.Err)
	}
	return f.Errorf(0, "%v", err)
}

// brNumber turns a number written the Brazilian way ("3.244,53", "4,05",
// "12") into the decimal-point text decimal parses ("3244.53"). Thousands
// groups must have three digits, so that "1.2,5" is refused.
func brNumber(s string) (string, bool) {
	intPart, frac, hasFrac := strings.Cut(s, ",")
	if hasFrac && (frac == "" || !allDigits(frac)) {
		return "", false
	}
	neg := strings.HasPrefix(intPart, "-")
	if neg {
		intPart = intPart[1:]
	}
	if intPart == "" {
		return "", false
	}
	if strings.IndexByte(intPart, '.') >= 0 {
		groups := strings.Split(intPart, ".")
		if len(groups[0]) == 0 || len(groups[0]) > 3 {
			return "", false
		}
		for _, g := range groups[1:] {
			if len(g) != 3 {
				return "", false
			}
		}
		intPart = strings.Join(groups, "")
	}
	if !allDigits(intPart) {
		return "", false
	}
	out := intPart
	if neg {
		out = "-" + out
	}
	if hasFrac {
		out += "." + frac
	}
	return out, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// trimCells trims the spaces around every cell, in place.
func trimCells(cells []string) {
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c) // Unicode spaces too: U+00A0 pads some sheets
	}
}

func isBlank(cells []string) bool {
	for _, c := range cells {
		if c != "" {
			return false
		}
	}
	return true
}

// isFooter reports whether a row is a footer: one non-empty cell, starting
// with "TOTAL".
func isFooter(cells []string) bool {
	first := -1
	for i, c := range cells {
		if c == "" {
			continue
		}
		if first >= 0 {
			return false
		}
		first = i
	}
	return first >= 0 && strings.HasPrefix(NormalizeName(cells[first]), "TOTAL")
}

// rowSource yields the rows of a file. next returns io.EOF at the end; the
// cells it returns are valid until the next call.
type rowSource interface {
	next() (line int, cells []string, err error)
	progress() (done, total int64)
	close() error
}

// openSource opens a file as CSV or XLSX, telling one from the other by its
// first bytes, and returns the style of its numbers.
func openSource(ctx context.Context, name string, r io.ReaderAt, size int64, l Limits) (rowSource, numberStyle, error) {
	var magic [4]byte
	n, _ := r.ReadAt(magic[:], 0)
	switch string(magic[:n]) {
	case xlsxMagic:
		x, err := openXLSX(ctx, name, r, size, l)
		if err != nil {
			return nil, 0, err
		}
		return x, numbersFloat, nil
	case xlsMagic:
		return nil, 0, errors.New("this is an Excel 97-2003 (.xls) workbook: save it as XLSX or CSV")
	}
	return openCSV(name, r, size, l)
}

// csvSource reads a CSV file; the separator is ";" or ",", whichever the
// first line that holds either has more of (outside quotes or not: titles
// rarely hold either, and a bare title line is passed over).
// A file that is not UTF-8 is read as Windows-1252, the encoding Excel
// saves CSV in on Brazilian Windows.
type csvSource struct {
	r      *csv.Reader
	count  *countingReader
	cp1252 bool
}

func openCSV(name string, r io.ReaderAt, size int64, l Limits) (rowSource, numberStyle, error) {
	utf, err := isUTF8(r, size)
	if err != nil {
		return nil, 0, err
	}
	count := &countingReader{r: io.NewSectionReader(r, 0, size), total: size}
	br := bufio.NewReaderSize(&lineGuard{r: count, name: name, max: l.CSVLine}, 64<<10)
	peek, _ := br.Peek(64 << 10)
	if bytes.IndexByte(peek, 0) >= 0 {
		return nil, 0, errors.New("neither a CSV text file nor an XLSX workbook")
	}
	// The first line that holds a separator: a bare title above the
	// header (a tender's sheet) holds none.
	head := peek
	for rest := peek; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if bytes.ContainsAny(line, ";,") {
			head = line
			break
		}
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	style := numbersDot
	if bytes.Count(head, []byte{';'}) > bytes.Count(head, []byte{','}) {
		cr.Comma = ';'
		style = numbersBR
	}
	return &csvSource{r: cr, count: count, cp1252: !utf}, style, nil
}

func (s *csvSource) next() (int, []string, error) {
	rec, err := s.r.Read()
	if err != nil {
		return 0, nil, err
	}
	line, _ := s.r.FieldPos(0)
	if line == 1 && len(rec) > 0 {
		rec[0] = strings.TrimPrefix(rec[0], "\ufeff")
	}
	if s.cp1252 {
		for i, c := range rec {
			rec[i] = fromCP1252(c)
		}
	}
	return line, rec, nil
}

// isUTF8 reports whether the size bytes of r are valid UTF-8.
func isUTF8(r io.ReaderAt, size int64) (bool, error) {
	buf := make([]byte, 3+64<<10)
	carry := 0 // bytes of a rune cut by the end of the last chunk, moved to buf[0:carry]
	for off := int64(0); off < size; {
		n, err := r.ReadAt(buf[carry:], off)
		if n == 0 && err != nil {
			return false, err
		}
		off += int64(n)
		data := buf[:carry+n]
		cut := len(data)
		if off < size {
			// Leave a rune that the chunk cuts in two for the next one.
			for i := len(data) - 1; i >= 0 && i >= len(data)-3; i-- {
				if !utf8.RuneStart(data[i]) {
					continue
				}
				if !utf8.FullRune(data[i:]) {
					cut = i
				}
				break
			}
		}
		if !utf8.Valid(data[:cut]) {
			return false, nil
		}
		carry = copy(buf, data[cut:])
	}
	return carry == 0, nil
}

// cp1252 maps the bytes 0x80–0x9F of Windows-1252 to their characters; the
// others are those of Latin-1 (the same code point).
var cp1252 = [32]rune{
	'€', 0x81, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0x8d, 'Ž', 0x8f,
	0x90, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0x9d, 'ž', 'Ÿ',
}

// fromCP1252 decodes Windows-1252 text.
func fromCP1252(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < 0x80
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x80:
			b.WriteByte(c)
		case c < 0xa0:
			b.WriteRune(cp1252[c-0x80])
		default:
			b.WriteRune(rune(c))
		}
	}
	return b.String()
}

func (s *csvSource) progress() (int64, int64) { return s.count.n, s.count.total }
func (s *csvSource) close() error             { return nil }

// newFile opens a file and reads down to its header: the first row that
// one of formats recognises. It returns the File and that format, or
// errNoHeader when no row of the first maxTitleRows is a known header.
func newFile(ctx context.Context, name string, r io.ReaderAt, size int64, formats []Format, l Limits) (*File, Format, error) {
	src, style, err := openSource(ctx, name, r, size, l)
	var le *LimitError
	if errors.As(err, &le) || ctx.Err() != nil && err != nil {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, badFile(name, 0, "%v", err)
	}
	f := &File{Name: name, ctx: ctx, src: src, style: style}
	if _, ok := src.(*sheetRows); ok {
		f.padRows = true
	}
	for n := 0; n < maxTitleRows; {
		line, cells, err := src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			src.close()
			return nil, nil, f.wrap(err)
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
		for _, fm := range formats {
			if fm.Detect(h) {
				f.Header, f.HeaderLine, f.width = h, line, h.width()
				return f, fm, nil
			}
		}
		f.Title = append(f.Title, Row{Line: line, Cells: append([]string(nil), cells...)})
	}
	src.close()
	return nil, nil, errNoHeader
}

// errNoHeader is newFile's error for a file none of the formats recognise.
var errNoHeader = errors.New("no known header row")
