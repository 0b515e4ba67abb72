package reports

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// pdfExact prints every place a figure has (2 at least), so that a
// printed unit price is the one the computation used.
func TestPDFExact(t *testing.T) {
	for in, want := range map[string]string{
		"8.428": "8,428", "113.33": "113,33", "110": "110,00", "1234.5": "1.234,50", "1234567.8901": "1.234.567,8901",
		"0.0241": "0,0241", "36.506667": "36,506667", "8.42800": "8,428", "-12.5": "-12,50", "22.2345": "22,2345",
		"0.123456789012": "0,123456789", // rounded to 10 places, its zero dropped
	} {
		if got := pdfExact(decimal.RequireFromString(in)); got != want {
			t.Errorf("pdfExact(%s) = %q, want %q", in, got, want)
		}
	}
}

// wrap breaks at spaces, every line fits, nothing is lost: joined with one
// space the lines give the text back; a word wider than a line is broken.
func TestWrap(t *testing.T) {
	regular, _, err := pdfFaces()
	if err != nil {
		t.Fatal(err)
	}
	const size = 8
	long := "ALVENARIA DE VEDAÇÃO DE BLOCOS CERÂMICOS FURADOS NA HORIZONTAL DE 9X19X19 CM (ESPESSURA 9 CM) E ARGAMASSA DE ASSENTAMENTO COM PREPARO EM BETONEIRA"
	for _, width := range []float64{60, 120, 276, 1000} {
		lines := regular.wrap(long, size, width, nil)
		got := strings.Join(lines, " ")
		if width < 70 { // ASSENTAMENTO is wider than the line: broken inside
			got, long := strings.ReplaceAll(got, " ", ""), strings.ReplaceAll(long, " ", "")
			if got != long {
				t.Errorf("width %v: the lines give %q back", width, got)
			}
		} else if got != long {
			t.Errorf("width %v: the lines give %q back", width, got)
		}
		for _, l := range lines {
			if w := regular.width(l, size); w > width-4 && strings.Contains(l, " ") {
				t.Errorf("width %v: %q is %.1f wide", width, l, w)
			}
		}
		if width == 1000 && len(lines) != 1 {
			t.Errorf("width 1000: %d lines, want 1", len(lines))
		}
		if width == 120 && len(lines) < 4 {
			t.Errorf("width 120: %d lines, want several", len(lines))
		}
	}
	word := strings.Repeat("W", 40)
	lines := regular.wrap(word, size, 60, nil)
	if len(lines) < 2 || strings.Join(lines, "") != word {
		t.Errorf("a word wider than a line: %q", lines)
	}
	for _, l := range lines {
		if regular.width(l, size) > 56 {
			t.Errorf("%q is wider than the line", l)
		}
	}
	if got := regular.wrap("", size, 60, nil); len(got) != 1 || got[0] != "" {
		t.Errorf("empty: %q", got)
	}
}
