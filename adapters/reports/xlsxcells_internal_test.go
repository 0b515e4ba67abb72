package reports

import (
	"bufio"
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// A row of typed cells is written as its boxed cells were (refRow): texts
// that need escaping, preserving white space or cutting, numbers, ints,
// styles without a value, formulas with XML's special characters, an
// indented text (an analytic item's description) against the text with
// its spaces, and the same errors.
func TestTypedCellsAsBoxed(t *testing.T) {
	long := strings.Repeat("é", maxCellChars-1) + "ab"
	rows := [][]any{
		{"plain", nil, 12, 3.25, -0.5, 1e21, 0.1 + 0.2},
		{" lead", "trail ", "a<b>&'\"", "line\nbreak\r\ttab", "_x0041_ and _x00e9_", "bad\xffutf8", "", long},
		{excelize.Cell{StyleID: 7}, excelize.Cell{StyleID: 3, Value: "x"}, excelize.Cell{StyleID: 2, Value: 1.5, Formula: `SUMIF(N10:N20,">0",K10:K20)`},
			excelize.Cell{Value: 2, Formula: "A1&B1"}, excelize.Cell{StyleID: 9, Value: 0.0}},
	}
	for i, cells := range rows {
		for _, height := range []float64{0, 30, 45.5} {
			want, err := writeRef(i+9, cells, height)
			if err != nil {
				t.Fatal(err)
			}
			got, err := writeTyped(i+9, cells, height)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("row %d, height %v:\n got %s\nwant %s", i, height, got, want)
			}
		}
	}
	for _, bad := range []any{math.NaN(), math.Inf(1), excelize.Cell{Value: "t", Formula: "A1"}, int64(3), []byte("x")} {
		_, refErr := writeRef(9, []any{bad}, 0)
		_, err := writeTyped(9, []any{bad}, 0)
		if refErr == nil || err == nil || err.Error() != refErr.Error() {
			t.Errorf("%v: error %v, want %v", bad, err, refErr)
		}
	}
	if _, err := writeTyped(9, []any{1}, excelize.MaxRowHeight+1); err != excelize.ErrMaxRowHeight {
		t.Errorf("a row too tall: %v", err)
	}
}

// An indented text cell is the text with its spaces before it.
func TestIndentedTextCell(t *testing.T) {
	for _, s := range []string{"PEDREIRO", "", " já com espaço", "a & <b>", "_x0041_", strings.Repeat("x", maxCellChars-3), strings.Repeat("é", maxCellChars)} {
		for level := 1; level <= 3; level++ {
			want, err := writeRef(9, []any{nil, excelize.Cell{StyleID: 4, Value: strings.Repeat("  ", level) + s}}, 0)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			r := &rawRows{w: bufio.NewWriter(&buf)}
			c := textCell(4, s)
			c.indent = level
			if err := r.rowX(9, []xcell{{}, c}, nil, 0); err != nil {
				t.Fatal(err)
			}
			r.w.Flush()
			if got := buf.String(); got != want {
				t.Errorf("%q at level %d:\n got %.200s\nwant %.200s", s, level, got, want)
			}
		}
	}
}

func writeRef(n int, cells []any, height float64) (string, error) {
	var buf bytes.Buffer
	r := &rawRows{w: bufio.NewWriter(&buf)}
	err := r.refRow(n, cells, height)
	r.w.Flush()
	return buf.String(), err
}

func writeTyped(n int, cells []any, height float64) (string, error) {
	var buf bytes.Buffer
	s := &sheet{raw: &rawRows{w: bufio.NewWriter(&buf)}, row: n, heights: map[int]float64{}}
	if height > 0 {
		s.heights[n] = height
	}
	for i, v := range cells {
		if err := s.put(byte('A'+i), n, v); err != nil {
			return "", err
		}
	}
	err := s.flushRow()
	s.raw.w.Flush()
	return buf.String(), err
}

// A number written from its decimal digits is what strconv.FormatFloat
// writes of its float, over edge cases and random decimals of up to 19
// digits and 20 places; a number floatDigits refuses is written from its
// float.
func TestNumberDigitsAsFloat(t *testing.T) {
	ds := figureCases()
	for _, s := range []string{"0.1", "0.3", "123456789012345", "1234567890123456", "-999999999999999", "9007199254740993", "9.000000000000001", "-9.000000000000001",
		"0.000000000000000001", "1e-7", "100", "1.10", "2.5e1"} {
		ds = append(ds, decimal.RequireFromString(s))
	}
	taken, fails := 0, 0
	for _, d := range ds {
		c := numCell(d, 0)
		if c.kind == cellDigits {
			taken++
		}
		r := &rawRows{}
		b, err := r.appendCell(nil, 'A', &c, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := `<c r="A"><v>` + strconv.FormatFloat(d.InexactFloat64(), 'f', -1, 64) + `</v></c>`
		if string(b) != want && fails < 20 {
			fails++
			t.Errorf("%s: %s, want %s", d.String(), b, want)
		}
	}
	if taken < len(ds)/4 {
		t.Errorf("digits written for %d of %d numbers", taken, len(ds))
	}
}
