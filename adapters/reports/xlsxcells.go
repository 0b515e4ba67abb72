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
)

// xcell is a typed cell of a table's row.
type xcell struct {
	kind   cellKind
	style  int
	indent int // for text: the spaces written before it (two per level)
	text   string
	i      int
	f      float64
	// the formula, sheet.fbuf[f0:f1] (none when equal)
	f0, f1 int32
}

func textCell(style int, s string) xcell { return xcell{kind: cellText, style: style, text: s} }

func emptyCell(style int) xcell { return xcell{kind: cellEmpty, style: style} }

func intCell(i int) xcell { return xcell{kind: cellInt, i: i} }

// numCell is number's cell: an exact decimal as a number, with a style.
func numCell(d decimal.Decimal, style int) xcell {
	return xcell{kind: cellFloat, style: style, f: d.InexactFloat64()}
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
func (r *rawRows) rowX(n int, cells []xcell, fbuf []byte, height float64) error {
	w := r.w
	w.WriteString(`<row r="`)
	r.num = strconv.AppendInt(r.num[:0], int64(n), 10)
	w.Write(r.num)
	w.WriteByte('"')
	if height > 0 {
		if height > excelize.MaxRowHeight {
			return excelize.ErrMaxRowHeight
		}
		w.WriteString(` ht="`)
		r.scratch = strconv.AppendFloat(r.scratch[:0], height, 'f', -1, 64)
		w.Write(r.scratch)
		w.WriteString(`" customHeight="1"`)
	}
	w.WriteByte('>')
	for i := range cells {
		if c := &cells[i]; c.kind != cellAbsent {
			if err := r.cellX(byte('A'+i), n, c, fbuf); err != nil {
				return err
			}
		}
	}
	_, err := w.WriteString(`</row>`)
	return err
}

// cellX writes one typed cell as rawRows.cell writes its boxed form.
func (r *rawRows) cellX(col byte, n int, c *xcell, fbuf []byte) error {
	w := r.w
	w.WriteString(`<c r="`)
	w.WriteByte(col)
	w.Write(r.num) // the row's number
	w.WriteByte('"')
	if c.style != 0 {
		w.WriteString(` s="`)
		r.scratch = strconv.AppendInt(r.scratch[:0], int64(c.style), 10)
		w.Write(r.scratch)
		w.WriteByte('"')
	}
	value := r.scratch[:0]
	switch c.kind {
	case cellInt:
		value = strconv.AppendInt(value, int64(c.i), 10)
	case cellFloat:
		if math.IsNaN(c.f) || math.IsInf(c.f, 0) {
			return fmt.Errorf("reports: the number %v in cell %c%d", c.f, col, n)
		}
		value = strconv.AppendFloat(value, c.f, 'f', -1, 64)
	case cellText:
		return r.textX(c)
	}
	r.scratch = value
	w.WriteByte('>')
	if c.f1 > c.f0 {
		w.WriteString(`<f>`)
		if err := xml.EscapeText(w, fbuf[c.f0:c.f1]); err != nil {
			return err
		}
		w.WriteString(`</f>`)
	}
	if len(value) > 0 {
		w.WriteString(`<v>`)
		w.Write(value)
		w.WriteString(`</v>`)
	}
	_, err := w.WriteString(`</c>`)
	return err
}

// textX writes a text cell's inline string: its indent (spaces, which make
// it preserve its white space) and its text as inlineText writes them
// together. Spaces are never escaped and start no escaped character, so
// the text is escaped alone, unless indent and text together pass what a
// cell holds.
func (r *rawRows) textX(c *xcell) error {
	w := r.w
	pad := 2 * c.indent
	text, preserve := "", false
	if pad > 0 && pad+len(c.text) > maxCellChars {
		text, preserve = inlineText(strings.Repeat(" ", pad) + c.text)
		pad = 0
	} else {
		text, preserve = inlineText(c.text)
		preserve = preserve || pad > 0
	}
	w.WriteString(` t="inlineStr"><is><t`)
	if preserve {
		w.WriteString(` xml:space="preserve"`)
	}
	w.WriteByte('>')
	for range pad {
		w.WriteByte(' ')
	}
	w.WriteString(text)
	_, err := w.WriteString(`</t></is></c>`)
	return err
}
