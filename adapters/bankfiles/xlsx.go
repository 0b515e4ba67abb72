package bankfiles

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// This file reads XLSX (Office Open XML) workbooks with
// github.com/xuri/excelize/v2, through its streaming row iterator (Rows), so
// that the memory a sheet takes does not grow with its rows. A cell is its
// stored value (excelize's raw cell value): text as written, numbers as the
// binary floating-point text Excel stores ("159.91999999999999"), which
// File.Decimal turns back into the shortest decimal that reads as the same
// float (159.92) before parsing it exactly.

// xlsxMagic starts every ZIP file, hence every XLSX workbook.
const xlsxMagic = "PK\x03\x04"

// xlsMagic starts an OLE2 compound file, the Excel 97–2003 .xls format.
const xlsMagic = "\xd0\xcf\x11\xe0"

// rawCells asks excelize for stored values, not formatted ones: a number
// formatted "#,##0.00" would otherwise come back as "1,234.56".
var rawCells = excelize.Options{RawCellValue: true}

// bookOptions are excelize's options for a workbook checked within l:
// stored values, excelize's own cap on the uncompressed size (from the
// headers, which checkWorkbook found true), and the size above which a
// worksheet or the shared strings table is read from a temporary file.
func bookOptions(l Limits) excelize.Options {
	return excelize.Options{RawCellValue: true, UnzipSizeLimit: l.TotalBytes, UnzipXMLSizeLimit: xmlMemoryPart}
}

// sheetRows reads the rows of one worksheet with excelize's row iterator.
type sheetRows struct {
	book  *excelize.File
	owned bool // close book with the rows
	rows  *excelize.Rows
	sheet string
	line  int // number of the last row read
	total int // the last row of the sheet's dimension, when it states one
}

// openXLSX opens the first worksheet of the workbook in r, once
// checkWorkbook found it within l.
func openXLSX(ctx context.Context, name string, r io.ReaderAt, size int64, l Limits) (*sheetRows, error) {
	if _, err := checkWorkbook(ctx, name, r, size, l); err != nil {
		return nil, err
	}
	var book *excelize.File
	var err error
	if f, ok := r.(*os.File); ok {
		book, err = excelize.OpenFile(f.Name(), bookOptions(l)) // read where it is, not copied into memory
	} else {
		book, err = excelize.OpenReader(io.NewSectionReader(r, 0, size), bookOptions(l))
	}
	if err != nil {
		return nil, fmt.Errorf("not a readable XLSX workbook: %v", err)
	}
	sheets := book.GetSheetList()
	if len(sheets) == 0 {
		book.Close()
		return nil, errors.New("the XLSX workbook has no worksheet")
	}
	s, err := openSheet(book, sheets[0])
	if err != nil {
		book.Close()
		return nil, err
	}
	s.owned = true
	return s, nil
}

// openSheet opens a worksheet of an open workbook by name.
func openSheet(book *excelize.File, sheet string) (*sheetRows, error) {
	rows, err := book.Rows(sheet)
	if err != nil {
		return nil, fmt.Errorf("worksheet %s: %v", sheet, err)
	}
	s := &sheetRows{book: book, rows: rows, sheet: sheet}
	if dim, err := book.GetSheetDimension(sheet); err == nil { // "A1:BH9010"; "A1" when not kept
		if _, last, ok := strings.Cut(dim, ":"); ok {
			if _, n, err := excelize.CellNameToCoordinates(last); err == nil {
				s.total = n
			}
		}
	}
	return s, nil
}

// next returns the next row (rows the sheet leaves out come back empty)
// and its 1-based number.
func (s *sheetRows) next() (int, []string, error) {
	if !s.rows.Next() {
		if err := s.rows.Error(); err != nil {
			return 0, nil, s.xmlError(err)
		}
		return 0, nil, io.EOF
	}
	s.line++
	cells, err := s.rows.Columns(rawCells)
	if err != nil {
		return 0, nil, s.xmlError(err)
	}
	return s.line, cells, nil
}

func (s *sheetRows) xmlError(err error) error {
	if s.line > 0 {
		return fmt.Errorf("XLSX worksheet %s after row %d: %v", s.sheet, s.line, err)
	}
	return fmt.Errorf("XLSX worksheet %s: %v", s.sheet, err)
}

// progress counts rows, against the sheet's last row when its dimension
// tells it (total 0 when it does not).
func (s *sheetRows) progress() (int64, int64) {
	if s.total < s.line {
		return int64(s.line), 0
	}
	return int64(s.line), int64(s.total)
}

func (s *sheetRows) close() error {
	err := s.rows.Close()
	if s.owned {
		if cerr := s.book.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// xlsxNumber returns the shortest decimal text of a stored number
// ("159.91999999999999" → "159.92", "1E-3" → "0.001"), which is the figure
// the spreadsheet shows at full precision. Text that is not a number is
// returned as it is, for the reader of the column to refuse.
func xlsxNumber(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || strings.IndexByte(v, ',') >= 0 {
		return v
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return v
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// countingReader counts the bytes read through it.
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
