package reports

import "testing"

func TestDateLabels(t *testing.T) {
	for in, want := range map[string]string{"2026-09-15": "15/09/2026", "2026-01-02": "02/01/2026", "": "", "15/09/2026": "15/09/2026"} {
		if got := dateLabel(in); got != want {
			t.Errorf("dateLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

// A wrapped text's lines: one when it fits, more as it grows, a word
// longer than the column cut across lines.
func TestWrappedLines(t *testing.T) {
	for _, c := range []struct {
		s     string
		width float64
		want  int
	}{
		{"Total", 10, 1}, {"", 10, 1}, {"Preço unitário com BDI", 10, 3}, {"abcdefghijklmnopqrstuvwxyz", 10, 3},
		{"ALVENARIA DE VEDAÇÃO DE BLOCOS CERÂMICOS FURADOS NA HORIZONTAL DE 9X19X19 CM", 55, 2},
	} {
		if got := wrappedLines(c.s, c.width, false); got != c.want {
			t.Errorf("wrappedLines(%q, %v) = %d, want %d", c.s, c.width, got, c.want)
		}
	}
}
