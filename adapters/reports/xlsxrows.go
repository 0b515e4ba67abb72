package reports

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"strings"
	"unicode/utf16"

	"github.com/klauspost/compress/flate"
	"github.com/xuri/excelize/v2"
)

// The rows of a budget table go to the client as they are computed.
//
// excelize's stream writer keeps a sheet's XML (in memory up to 16 MB,
// then in a temporary file) and copies it into the zip only when the
// workbook is written, after the last row: the first byte of a workbook
// came when the whole table had been computed (a 50,000-line budget: 0.6
// s of 0.9 s, the sheet's XML held besides), and a stream writer cannot be
// given a writer of its own (its buffer is unexported). So the workbook is
// still made by excelize (styles, the header rows, the layout, the footer,
// the signature block, the sheet "BDI", every other part of the package),
// with one row in place of the table's rows: a row holding tableMark. When
// excelize writes the sheet into the zip (through File.SetZipWriter, the
// zip going straight to the client), that row is replaced by the table's
// rows, encoded here as excelize's stream writer encodes them
// (rawRows.cell: inline strings, numbers, formulas with their cached
// values) and written into the zip entry as they come
// (docs/performance.md, "XLSX and PDF of 50,000-line budgets streamed" has the figures).

// tableMark is the text of the row that stands for a table's rows until
// the workbook is written.
const tableMark = "costdb:table-rows"

// xlsxDeflate is the deflate level of a workbook's zip: the fastest
// (docs/performance.md, "XLSX and PDF of 50,000-line budgets streamed": the sheet of a 50,000-line budget is about 40 MB
// of XML; level 1 takes a third of the default level's time for a file
// about 25% larger). The deflater is klauspost/compress's, not the
// standard library's: at level 1 it makes 2–3% smaller workbooks in about
// 10% less of the whole workbook's CPU time (docs/performance.md, "documents of 50,000 lines within 3× the JSON report").
const xlsxDeflate = flate.BestSpeed

// xlsxDeflateAhead deflates a workbook's entries beside the writing of
// their XML (deflateAhead); false deflates as the XML is written.
var xlsxDeflateAhead = true

// newZip is a zip writer over w with the workbook's deflate level.
func newZip(w io.Writer) *zip.Writer {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		fw, err := flate.NewWriter(out, xlsxDeflate)
		if err != nil || !xlsxDeflateAhead {
			return fw, err
		}
		return newDeflateAhead(fw), nil
	})
	return zw
}

// spliceZip is the zip writer excelize writes a workbook through: the
// entry whose XML holds the row of tableMark gets the table's rows
// (rows) in place of that row; every other byte goes through as it is.
type spliceZip struct {
	*zip.Writer
	rows    func(w io.Writer) error
	pending *splicer // the worksheet entry being written, while its mark is not found
	done    bool     // the rows were written
}

func (z *spliceZip) Create(name string) (io.Writer, error) {
	if err := z.flushPending(); err != nil {
		return nil, err
	}
	w, err := z.Writer.Create(name)
	if err != nil || z.done || !strings.HasPrefix(name, "xl/worksheets/") {
		return w, err
	}
	z.pending = &splicer{w: w, z: z}
	return z.pending, nil
}

// flushPending writes what a worksheet entry without the mark held back.
func (z *spliceZip) flushPending() error {
	p := z.pending
	z.pending = nil
	if p == nil || p.passing {
		return nil
	}
	_, err := p.w.Write(p.buf.Bytes())
	return err
}

func (z *spliceZip) Close() error {
	if err := z.flushPending(); err != nil {
		return err
	}
	if !z.done {
		return errors.New("reports: the table's rows were not written: no row marks their place")
	}
	return z.Writer.Close()
}

// splicer writes a worksheet's XML, holding it back until the row of
// tableMark is whole, which it replaces by the table's rows; after it,
// passing.
type splicer struct {
	w       io.Writer
	z       *spliceZip
	buf     bytes.Buffer
	passing bool
}

var (
	markText = []byte(">" + tableMark + "<")
	rowStart = []byte("<row ")
	rowEnd   = []byte("</row>")
)

func (s *splicer) Write(p []byte) (int, error) {
	if s.passing {
		return s.w.Write(p)
	}
	s.buf.Write(p)
	b := s.buf.Bytes()
	m := bytes.Index(b, markText)
	if m < 0 {
		return len(p), nil
	}
	end := bytes.Index(b[m:], rowEnd)
	if end < 0 {
		return len(p), nil // the row's end is still to come
	}
	start := bytes.LastIndex(b[:m], rowStart)
	if start < 0 {
		return 0, errors.New("reports: the table's mark is not in a row")
	}
	end += m + len(rowEnd)
	if _, err := s.w.Write(b[:start]); err != nil {
		return 0, err
	}
	if err := s.z.rows(s.w); err != nil {
		return 0, err
	}
	s.z.done = true
	s.passing = true
	if _, err := s.w.Write(b[end:]); err != nil {
		return 0, err
	}
	s.buf = bytes.Buffer{}
	return len(p), nil
}

// rawRows writes sheet rows as XML (a row, its cells), to a buffered
// writer over a zip entry.
type rawRows struct {
	w       *bufio.Writer
	num     []byte // the row's number
	scratch []byte // a number being written
}

// maxCellChars is the most UTF-16 units a cell holds (excelize.TotalCellChars).
const maxCellChars = excelize.TotalCellChars

// escapedUnicode is text a spreadsheet would read as an escaped character
// (_xHHHH_): its underscore is escaped itself.
var escapedUnicode = regexp.MustCompile(`_x[0-9A-Fa-f]{4}_`)

// inlineText is s as an inline string's text: cut to maxCellChars, XML
// escaped (line breaks kept), "_xHHHH_" escaped; preserve when it starts or
// ends with white space (xml:space="preserve", else readers drop it).
func inlineText(s string) (text string, preserve bool) {
	if s == "" {
		return "", false
	}
	if len(s) > maxCellChars {
		if u := utf16.Encode([]rune(s)); len(u) > maxCellChars {
			s = string(utf16.Decode(u[:maxCellChars]))
		}
	}
	for _, c := range []byte{'\t', '\n', '\r', ' '} {
		if s[0] == c || s[len(s)-1] == c {
			preserve = true
		}
	}
	escape, underscore := plainText(s)
	if escape {
		var b strings.Builder
		_ = xml.EscapeText(&b, []byte(s))
		s = strings.ReplaceAll(b.String(), "&#xA;", "\n")
	}
	if underscore && strings.Contains(s, "_x") {
		s = escapedUnicode.ReplaceAllStringFunc(s, func(m string) string { return "_x005F" + m })
	}
	return s, preserve
}

// plainText reads s once (every text cell of a table goes through it):
// escape when xml.EscapeText would change it (one of <>&'" or a control
// character, or invalid UTF-8), underscore when it holds an underscore
// (what an escaped character, _xHHHH_, starts with).
func plainText(s string) (escape, underscore bool) {
	utf8Read := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '_':
			underscore = true
		case c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\'' || c == '"':
			escape = true
		case c >= 0x80 && !utf8Read:
			utf8Read = true // the rest of s, once
			if !isPlainUTF8(s[i:]) {
				escape = true
			}
		}
	}
	return escape, underscore
}

func isPlainUTF8(s string) bool {
	for _, r := range s {
		if r == 0xFFFD || r < 0x20 {
			return false
		}
	}
	return true
}
