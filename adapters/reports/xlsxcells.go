package reports

import (
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// A table's rows written into the workbook's zip (xlsxrows.go) are made of
// typed cells, not of []any: each cell of a 50,000-line budget was boxed
// twice (an excelize.Cell into any, its value into any) and its formula
// built by fmt.Sprintf, about a third of the workbook's CPU with the
// allocator behind them (docs/performance.md, "Documents: the rows' XML
// and the text layout"). An xcell holds what rawRows writes; a formula is
// appended to the row's formula buffer (sheet.fbuf), a number is written
// by strconv into a reused buffer. The bytes are those the []any cells
// gave (TestTypedCellsAsBoxed, TestDocumentBytesPinned).

// cellKind is what a cell holds.
type cellKind uint8

const (
	cellAbsent cellKind = iota // not written
	cellEmpty                  // a style, no value
	cellText
	cellInt
	cellFloat
	cellDigits // a number written from its decimal digits: i with places places
)

// xcell is a typed cell of a table's row.
type xcell struct {
	kind   cellKind
	style  int
	indent int // for text: the spaces written before it (two per level)
	text   string
	i      int
	places int
	f      float64
	// the formula, sheet.fbuf[f0:f1] (none when equal)
	f0, f1 int32
}

func textCell(style int, s string) xcell { return xcell{kind: cellText, style: style, text: s} }

func emptyCell(style int) xcell { return xcell{kind: cellEmpty, style: style} }

func intCell(i int) xcell { return xcell{kind: cellInt, i: i} }

// numCell is number's cell: an exact decimal as a number, with a style.
// The number is written as strconv.FormatFloat writes d.InexactFloat64()
// (the shortest digits that read back as the same float): for a decimal
// of at most 15 significant digits, those are its own digits, which are
// written as they are (floatDigits).
func numCell(d decimal.Decimal, style int) xcell {
	if c, p, ok := floatDigits(d); ok {
		return xcell{kind: cellDigits, style: style, i: int(c), places: p}
	}
	return xcell{kind: cellFloat, style: style, f: d.InexactFloat64()}
}

// floatDigits is d's coefficient and places, trailing zeros dropped, when
// its shortest float text is its own digits: at most 15 significant
// digits (any such decimal reads back from its nearest float), and a
// coefficient of at most 2^53 with at most 18 places, which
// Decimal.Float64 divides exactly by a power of ten (one correctly
// rounded division).
func floatDigits(d decimal.Decimal) (c int64, places int, ok bool) {
	c, places, ok = smallDecimal(d)
	if !ok || c > 1<<53 || c < -(1<<53) {
		return 0, 0, false
	}
	for places > 0 && c%10 == 0 {
		c /= 10
		places--
	}
	if c > 999_999_999_999_999 || c < -999_999_999_999_999 {
		return 0, 0, false
	}
	return c, places, true
}

// startRow makes n the row being filled (writing the one before): the
// typed puts of a row follow it, and its formulas are appended to fbuf
// after it.
func (s *sheet) startRow(n int) error {
	if n == s.row {
		return nil
	}
	if n < s.row {
		return fmt.Errorf("reports: row %d written after row %d", n, s.row)
	}
	if err := s.flushRow(); err != nil {
		return err
	}
	s.row = n
	return nil
}

// putX sets the cell of column col on the row being filled (startRow).
func (s *sheet) putX(col byte, c xcell) {
	i := int(col - 'A')
	for len(s.xc) <= i {
		s.xc = append(s.xc, xcell{})
	}
	s.xc[i] = c
}

// formulaFrom is c with the formula appended to fbuf from f0.
func (s *sheet) formulaFrom(c xcell, f0 int) xcell {
	c.f0, c.f1 = int32(f0), int32(len(s.fbuf))
	return c
}

// boxedCell is v, a cell as put takes it (text, an int, a float64, nil, or
// an excelize.Cell of those with a style and a formula), as an xcell; a
// formula is appended to fbuf.
func (s *sheet) boxedCell(col byte, v any) (xcell, error) {
	var c xcell
	formula := ""
	if x, ok := v.(excelize.Cell); ok {
		c.kind, c.style, formula, v = cellEmpty, x.StyleID, x.Formula, x.Value
	}
	switch x := v.(type) {
	case nil:
		if c.kind == cellAbsent {
			return c, nil
		}
	case int:
		c.kind, c.i = cellInt, x
	case float64:
		c.kind, c.f = cellFloat, x
	case string:
		if formula != "" {
			return c, fmt.Errorf("reports: a formula with a text value in cell %c%d", col, s.row)
		}
		c.kind, c.text = cellText, x
	default:
		return c, fmt.Errorf("reports: a cell value of type %T in cell %c%d", v, col, s.row)
	}
	if formula != "" {
		f0 := len(s.fbuf)
		s.fbuf = append(s.fbuf, formula...)
		c = s.formulaFrom(c, f0)
	}
	return c, nil
}

// rowX writes row n of typed cells from column A (absent cells left out)
// and, when height > 0, its height in points; fbuf holds their formulas.
// The row is appended to a reused buffer and written at once.
func (r *rawRows) rowX(n int, cells []xcell, fbuf []byte, height float64) error {
	b := append(r.scratch[:0], `<row r="`...)
	r.num = strconv.AppendInt(r.num[:0], int64(n), 10)
	b = append(append(b, r.num...), '"')
	if height > 0 {
		if height > excelize.MaxRowHeight {
			return excelize.ErrMaxRowHeight
		}
		b = append(b, ` ht="`...)
		b = strconv.AppendFloat(b, height, 'f', -1, 64)
		b = append(b, `" customHeight="1"`...)
	}
	b = append(b, '>')
	var err error
	for i := range cells {
		if c := &cells[i]; c.kind != cellAbsent {
			if b, err = r.appendCell(b, byte('A'+i), c, fbuf); err != nil {
				r.scratch = b
				return err
			}
		}
	}
	b = append(b, `</row>`...)
	r.scratch = b
	_, err = r.w.Write(b)
	return err
}

// appendCell appends one typed cell as rawRows.cell wrote its boxed form.
func (r *rawRows) appendCell(b []byte, col byte, c *xcell, fbuf []byte) ([]byte, error) {
	b = append(append(append(b, `<c r="`...), col), r.num...)
	b = append(b, '"')
	if c.style != 0 {
		b = strconv.AppendInt(append(b, ` s="`...), int64(c.style), 10)
		b = append(b, '"')
	}
	switch c.kind {
	case cellText:
		return appendText(b, c), nil
	case cellFloat:
		if math.IsNaN(c.f) || math.IsInf(c.f, 0) {
			return b, fmt.Errorf("reports: the number %v in cell %c%s", c.f, col, r.num)
		}
	}
	b = append(b, '>')
	if c.f1 > c.f0 {
		b = appendEscaped(append(b, `<f>`...), fbuf[c.f0:c.f1])
		b = append(b, `</f>`...)
	}
	switch c.kind {
	case cellInt:
		b = strconv.AppendInt(append(b, `<v>`...), int64(c.i), 10)
		b = append(b, `</v>`...)
	case cellFloat:
		b = strconv.AppendFloat(append(b, `<v>`...), c.f, 'f', -1, 64)
		b = append(b, `</v>`...)
	case cellDigits:
		b = appendFigure(append(b, `<v>`...), int64(c.i), c.places, 0, '.', false)
		b = append(b, `</v>`...)
	}
	return append(b, `</c>`...), nil
}

// appendEscaped appends s as xml.EscapeText writes it.
func appendEscaped(b []byte, s []byte) []byte {
	for _, c := range s {
		if c < 0x20 || c >= 0x80 || c == '<' || c == '>' || c == '&' || c == '\'' || c == '"' {
			w := byteAppender{b}
			_ = xml.EscapeText(&w, s)
			return w.b
		}
	}
	return append(b, s...)
}

// byteAppender is an io.Writer appending to b.
type byteAppender struct{ b []byte }

func (w *byteAppender) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// appendText appends a text cell's inline string: its indent (spaces,
// which make it preserve its white space) and its text as inlineText
// writes them together. Spaces are never escaped and start no escaped
// character, so the text is escaped alone, unless indent and text together
// pass what a cell holds.
func appendText(b []byte, c *xcell) []byte {
	pad := 2 * c.indent
	text, preserve := "", false
	if pad > 0 && pad+len(c.text) > maxCellChars {
		text, preserve = inlineText(strings.Repeat(" ", pad) + c.text)
		pad = 0
	} else {
		text, preserve = inlineText(c.text)
		preserve = preserve || pad > 0
	}
	b = append(b, ` t="inlineStr"><is><t`...)
	if preserve {
		b = append(b, ` xml:space="preserve"`...)
	}
	b = append(b, '>')
	for range pad {
		b = append(b, ' ')
	}
	b = append(b, text...)
	return append(b, `</t></is></c>`...)
}
