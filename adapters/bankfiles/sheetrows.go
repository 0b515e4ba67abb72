package bankfiles

import (
	"context"
	"io"
	"strings"

	"github.com/shopspring/decimal"
)

// SheetReader reads the rows of any CSV or XLSX sheet (the first worksheet
// of a workbook) through the same bounded readers as the bank files: the
// workbook is checked against Limits (entries, sizes, compression ratio)
// before excelize opens it, and CSV lines are capped. It serves the
// spreadsheets tenders publish, whose layout is not a bank's.
type SheetReader struct {
	src   rowSource
	style numberStyle
}

// OpenSheetReader opens r (size bytes, name for messages) within l.
func OpenSheetReader(ctx context.Context, name string, r io.ReaderAt, size int64, l Limits) (*SheetReader, error) {
	src, style, err := openSource(ctx, name, r, size, l)
	if err != nil {
		return nil, err
	}
	return &SheetReader{src: src, style: style}, nil
}

// Next returns the next row's number (the spreadsheet's own row number,
// 1-based) and its cells, trimmed; io.EOF at the end. The cells are valid
// until the next call.
func (s *SheetReader) Next() (int, []string, error) {
	line, cells, err := s.src.next()
	if err != nil {
		return 0, nil, err
	}
	trimCells(cells)
	return line, cells, nil
}

// Close releases the file.
func (s *SheetReader) Close() error { return s.src.close() }

// Number parses a cell as an exact decimal, the way the file writes
// numbers: XLSX stored floats as the shortest decimal they are, text
// numbers the Brazilian way ("1.234,56"), a currency sign and spaces
// ("R$ 12,30") tolerated. ok is false when the cell is not a number.
func (s *SheetReader) Number(cell string) (decimal.Decimal, bool) {
	t := strings.TrimSpace(cell)
	t = strings.TrimPrefix(t, "R$")
	t = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\u00a0' {
			return -1
		}
		return r
	}, t)
	if t == "" {
		return decimal.Decimal{}, false
	}
	if s.style == numbersFloat {
		t = xlsxNumber(t)
	}
	if s.style == numbersBR || strings.IndexByte(t, ',') >= 0 {
		var ok bool
		if t, ok = brNumber(t); !ok {
			return decimal.Decimal{}, false
		}
	}
	d, err := decimal.NewFromString(t)
	if err != nil {
		return decimal.Decimal{}, false
	}
	return d, true
}
