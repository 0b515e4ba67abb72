package reports

import (
	"encoding/xml"
	"fmt"
	"math"
	"strconv"

	"github.com/xuri/excelize/v2"
)

// The way a table's rows were written before typed cells (xlsxcells.go),
// kept as the reference TestTypedCellsAsBoxed compares with.

// row writes row n with cells from column A (nil cells left out) and, when
// height > 0, its height in points.
func (r *rawRows) refRow(n int, cells []any, height float64) error {
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
		w.WriteString(strconv.FormatFloat(height, 'f', -1, 64))
		w.WriteString(`" customHeight="1"`)
	}
	w.WriteByte('>')
	for i, v := range cells {
		if v == nil {
			continue
		}
		if err := r.refCell(byte('A'+i), n, v); err != nil {
			return err
		}
	}
	_, err := w.WriteString(`</row>`)
	return err
}

// cell writes one cell: text (an inline string), an int, a float64, or an
// excelize.Cell of those with a style and a formula (a formula's value is
// its cached value), as excelize's stream writer writes them.
func (r *rawRows) refCell(col byte, n int, v any) error {
	style, formula := 0, ""
	if c, ok := v.(excelize.Cell); ok {
		style, formula, v = c.StyleID, c.Formula, c.Value
	}
	w := r.w
	w.WriteString(`<c r="`)
	w.WriteByte(col)
	w.Write(r.num) // the row's number
	w.WriteByte('"')
	if style != 0 {
		w.WriteString(` s="`)
		w.WriteString(strconv.Itoa(style))
		w.WriteByte('"')
	}
	var value string
	switch x := v.(type) {
	case nil:
	case int:
		value = strconv.Itoa(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("reports: the number %v in cell %c%d", x, col, n)
		}
		value = strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		if formula != "" {
			return fmt.Errorf("reports: a formula with a text value in cell %c%d", col, n)
		}
		text, preserve := inlineText(x)
		w.WriteString(` t="inlineStr"><is><t`)
		if preserve {
			w.WriteString(` xml:space="preserve"`)
		}
		w.WriteByte('>')
		w.WriteString(text)
		_, err := w.WriteString(`</t></is></c>`)
		return err
	default:
		return fmt.Errorf("reports: a cell value of type %T in cell %c%d", v, col, n)
	}
	w.WriteByte('>')
	if formula != "" {
		w.WriteString(`<f>`)
		if err := xml.EscapeText(w, []byte(formula)); err != nil {
			return err
		}
		w.WriteString(`</f>`)
	}
	if value != "" {
		w.WriteString(`<v>`)
		w.WriteString(value)
		w.WriteString(`</v>`)
	}
	_, err := w.WriteString(`</c>`)
	return err
}
