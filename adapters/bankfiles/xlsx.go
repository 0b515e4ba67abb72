package bankfiles

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// This file is a small reader of XLSX (Office Open XML) workbooks: enough to
// read the cell values of the first worksheet, which is all the banks'
// published reports use. It streams the sheet (a SINAPI sheet is tens of
// megabytes of XML) and keeps only the shared strings in memory. Styles,
// formulas, merged cells and dates are ignored: a cell is its stored value.

// maxColumns is the number of columns of an XLSX sheet (XFD).
const maxColumns = 16384

// xlsxMagic starts every ZIP file, hence every XLSX workbook.
const xlsxMagic = "PK\x03\x04"

// xlsMagic starts an OLE2 compound file, the Excel 97–2003 .xls format.
const xlsMagic = "\xd0\xcf\x11\xe0"

// xlsxRows reads the rows of the first worksheet of a workbook.
type xlsxRows struct {
	rc      io.ReadCloser
	count   *countingReader
	dec     *xml.Decoder
	strings []string
	line    int // number of the last row read
	cells   []string
}

// openXLSX opens the first worksheet of the workbook in r.
func openXLSX(r io.ReaderAt, size int64) (*xlsxRows, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("not a readable XLSX workbook: %v", err)
	}
	files := make(map[string]*zip.File, len(zr.File))
	for _, f := range zr.File {
		files[strings.TrimPrefix(f.Name, "/")] = f
	}
	sheetPath, stringsPath, err := xlsxParts(files)
	if err != nil {
		return nil, err
	}
	x := &xlsxRows{}
	if f := files[stringsPath]; f != nil {
		if x.strings, err = readSharedStrings(f); err != nil {
			return nil, fmt.Errorf("XLSX shared strings: %v", err)
		}
	}
	sheet := files[sheetPath]
	if sheet == nil {
		return nil, fmt.Errorf("the XLSX workbook has no worksheet %s", sheetPath)
	}
	rc, err := sheet.Open()
	if err != nil {
		return nil, fmt.Errorf("XLSX worksheet: %v", err)
	}
	x.rc = rc
	x.count = &countingReader{r: rc, total: int64(sheet.UncompressedSize64)}
	x.dec = xml.NewDecoder(x.count)
	return x, nil
}

// xlsxParts finds the paths of the first worksheet and of the shared strings
// through the workbook and its relationships, falling back to the names
// every spreadsheet program writes.
func xlsxParts(files map[string]*zip.File) (sheet, sharedStrings string, err error) {
	sheet, sharedStrings = "xl/worksheets/sheet1.xml", "xl/sharedStrings.xml"
	wb := files["xl/workbook.xml"]
	rels := files["xl/_rels/workbook.xml.rels"]
	if wb == nil || rels == nil {
		if files[sheet] == nil {
			return "", "", errors.New("not an XLSX workbook (no xl/workbook.xml)")
		}
		return sheet, sharedStrings, nil
	}
	var book struct {
		Sheets []struct {
			ID string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := decodeXMLPart(wb, &book); err != nil {
		return "", "", fmt.Errorf("XLSX workbook: %v", err)
	}
	var rel struct {
		List []struct {
			ID     string `xml:"Id,attr"`
			Type   string `xml:"Type,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if err := decodeXMLPart(rels, &rel); err != nil {
		return "", "", fmt.Errorf("XLSX workbook relationships: %v", err)
	}
	target := func(t string) string {
		if strings.HasPrefix(t, "/") {
			return strings.TrimPrefix(t, "/")
		}
		return path.Join("xl", t)
	}
	for _, r := range rel.List {
		if strings.HasSuffix(r.Type, "/sharedStrings") {
			sharedStrings = target(r.Target)
		}
		if len(book.Sheets) > 0 && r.ID == book.Sheets[0].ID {
			sheet = target(r.Target)
		}
	}
	return sheet, sharedStrings, nil
}

func decodeXMLPart(f *zip.File, v any) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return xml.NewDecoder(rc).Decode(v)
}

// readSharedStrings reads the shared string table: the text of each <si>,
// rich-text runs joined, phonetic runs (<rPh>) left out.
func readSharedStrings(f *zip.File) ([]string, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	dec := xml.NewDecoder(rc)
	var (
		out    []string
		text   strings.Builder
		inT    bool
		inRPh  bool
		inItem bool
	)
	for {
		tok, err := dec.RawToken()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				inItem = true
				text.Reset()
			case "t":
				inT = true
			case "rPh":
				inRPh = true
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				inItem = false
				out = append(out, text.String())
			case "t":
				inT = false
			case "rPh":
				inRPh = false
			}
		case xml.CharData:
			if inItem && inT && !inRPh {
				text.Write(t)
			}
		}
	}
}

// next returns the next row that has a cell, with its row number, its cells
// from column A up to the last one stored (a missing cell is ""). Numbers
// are turned into the shortest decimal text that reads back as the same
// binary value (9.564500000000001 stays, 159.91999999999999 becomes 159.92),
// which is the figure the spreadsheet shows at full precision. The slice is
// reused by the next call.
func (x *xlsxRows) next() (int, []string, error) {
	for {
		tok, err := x.dec.RawToken()
		if err == io.EOF {
			return 0, nil, io.EOF
		}
		if err != nil {
			return 0, nil, x.xmlError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local == "row" {
				return x.row(t)
			}
		case xml.EndElement:
			if t.Name.Local == "sheetData" {
				return 0, nil, io.EOF
			}
		}
	}
}

func (x *xlsxRows) xmlError(err error) error {
	if x.line > 0 {
		return fmt.Errorf("XLSX worksheet after row %d: %v", x.line, err)
	}
	return fmt.Errorf("XLSX worksheet: %v", err)
}

// row reads one <row> element, whose start tag is start.
func (x *xlsxRows) row(start xml.StartElement) (int, []string, error) {
	line := x.line + 1
	if r := attr(start, "r"); r != "" {
		n, err := strconv.Atoi(r)
		if err != nil || n <= x.line {
			return 0, nil, x.xmlError(fmt.Errorf("bad row number %q", r))
		}
		line = n
	}
	x.line = line
	x.cells = x.cells[:0]
	col := -1
	var (
		inCell  bool
		ctype   string
		value   strings.Builder
		inV     bool
		inIS    bool
		inT     bool
		inRPh   bool
		hasText bool
	)
	for {
		tok, err := x.dec.RawToken()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, nil, x.xmlError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "c":
				inCell, hasText = true, false
				ctype = attr(t, "t")
				value.Reset()
				c := col + 1
				if ref := attr(t, "r"); ref != "" {
					if c, err = columnIndex(ref); err != nil {
						return 0, nil, fmt.Errorf("XLSX worksheet row %d: %v", line, err)
					}
				}
				if c <= col {
					return 0, nil, fmt.Errorf("XLSX worksheet row %d: cell %s is out of order", line, attr(t, "r"))
				}
				col = c
			case "v":
				inV = inCell
			case "is":
				inIS = inCell
			case "t":
				inT = inIS
			case "rPh":
				inRPh = true
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "c":
				if inCell && hasText {
					for len(x.cells) < col {
						x.cells = append(x.cells, "")
					}
					v, err := x.cellValue(ctype, value.String())
					if err != nil {
						return 0, nil, fmt.Errorf("XLSX worksheet row %d column %s: %v", line, columnName(col), err)
					}
					x.cells = append(x.cells, v)
				}
				inCell = false
			case "v":
				inV = false
			case "is":
				inIS = false
			case "t":
				inT = false
			case "rPh":
				inRPh = false
			case "row":
				return line, x.cells, nil
			}
		case xml.CharData:
			if inV || (inT && !inRPh) {
				value.Write(t)
				hasText = true
			}
		}
	}
}

// cellValue turns a stored value into the cell's text according to its
// type: a shared string index, an inline or formula string, a boolean, an
// error (#N/A) or a number.
func (x *xlsxRows) cellValue(ctype, v string) (string, error) {
	switch ctype {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || i < 0 || i >= len(x.strings) {
			return "", fmt.Errorf("bad shared string index %q", v)
		}
		return x.strings[i], nil
	case "", "n":
		return xlsxNumber(v), nil
	default: // inlineStr, str, b, e, d
		return v, nil
	}
}

// xlsxNumber returns the shortest decimal text of a stored number (see
// next). Text that is not a number is returned as it is, for the reader of
// the column to refuse.
func xlsxNumber(v string) string {
	v = strings.TrimSpace(v)
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return v
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// close releases the worksheet stream.
func (x *xlsxRows) close() error { return x.rc.Close() }

// attr returns the value of an attribute, ignoring its name space.
func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// columnIndex returns the 0-based column of a cell reference ("AB12" → 27).
func columnIndex(ref string) (int, error) {
	n := 0
	i := 0
	for ; i < len(ref); i++ {
		c := ref[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c < 'A' || c > 'Z' {
			break
		}
		n = n*26 + int(c-'A'+1)
		if n > maxColumns {
			return 0, fmt.Errorf("cell reference %q is beyond the last column", ref)
		}
	}
	if i == 0 {
		return 0, fmt.Errorf("bad cell reference %q", ref)
	}
	return n - 1, nil
}

// columnName returns the letters of a 0-based column (27 → "AB").
func columnName(col int) string {
	var b []byte
	for col++; col > 0; col = (col - 1) / 26 {
		b = append([]byte{byte('A' + (col-1)%26)}, b...)
	}
	return string(b)
}

// countingReader counts the bytes read through it, for progress reports.
type countingReader struct {
	r     io.Reader
	n     int64
	total int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
