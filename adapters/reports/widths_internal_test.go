package reports

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// intDigits counts the digits of the integer part as writing it out does,
// for any coefficient and exponent (zeros, fractions, trailing zeros,
// negative numbers, coefficients past int64).
func TestIntDigits(t *testing.T) {
	for _, s := range []string{"0", "0.00", "0.5", "-0.5", "1", "9", "10", "99.99", "100", "12.00", "-12.3400",
		"1234567.891", "999999999999999", "1000000000000000", "123456789012345678901234567890.5", "-98765432109876543210"} {
		d := decimal.RequireFromString(s)
		want := len(d.Abs().Truncate(0).String())
		if got := intDigits(d); got != want {
			t.Errorf("intDigits(%s) = %d, want %d", s, got, want)
		}
	}
	for _, d := range []decimal.Decimal{decimal.New(12, 3), decimal.New(0, 5), decimal.New(-7, 2), decimal.New(1200, -2), decimal.New(5, -3)} {
		want := len(d.Abs().Truncate(0).String())
		if got := intDigits(d); got != want {
			t.Errorf("intDigits(%s) = %d, want %d", d, got, want)
		}
	}
}

// A column measured text by text is as wide as its widest text, whether
// the texts come widest first or last (the texts that cannot be wider
// are skipped unmeasured): capitals, wide and narrow letters, accents
// (two bytes a rune), digits.
func TestColWidthsText(t *testing.T) {
	texts := []string{"iiii", "MMMM", "AÇÃO", "ÇÇÇÇÇÇ", "mw", "1234567", "alvenaria de vedação", "ALVENARIA", "l.i,j", "WWWWWWWWWW", "ação ação ação", ""}
	want := 0.0
	for _, s := range texts {
		want = max(want, textWidth(s))
	}
	for _, order := range [][]string{texts, reverse(texts)} {
		w := colWidths{0}
		for _, s := range order {
			w.text('A', s)
		}
		if w[0] != want {
			t.Errorf("column measured over %q = %v, want %v", order, w[0], want)
		}
	}
}

func reverse(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// fracDigits counts the places as d.String() writes them (trailing zeros
// left out), for small and large coefficients and any exponent.
func TestFracDigits(t *testing.T) {
	ds := []decimal.Decimal{decimal.New(0, -3), decimal.New(12300, -4), decimal.New(-5, -1), decimal.New(7, 2), decimal.New(120, 0),
		decimal.New(1, -18), decimal.New(-1000000000000000000, -19), decimal.New(999999999999999999, -7)}
	for _, s := range []string{"0", "0.00", "12.50", "-0.0001", "123456789012345678901234567890.123450", "1234567890123456789.5", "1e-30", "100"} {
		ds = append(ds, decimal.RequireFromString(s))
	}
	for _, d := range ds {
		want := 0
		if s := d.String(); strings.IndexByte(s, '.') >= 0 {
			want = len(s) - strings.IndexByte(s, '.') - 1
		}
		if got := fracDigits(d); got != want {
			t.Errorf("fracDigits(%s) = %d, want %d", d.String(), got, want)
		}
	}
}

// plainText, one read of a text, says to escape exactly the texts that
// xml.EscapeText changes, and sees every underscore.
func TestPlainText(t *testing.T) {
	for _, s := range []string{"", "abc", "a<b", "a>b", "a&b", "it's", `"q"`, "tab\there", "line\nbreak", "cr\r", "\x01",
		"ação", "ação <", "ç\x01", "\xff", "a\xffb", "ç\xff", "a_x0041_", "_", "snake_case", "ç_x", "𝄞 clef"} {
		var b strings.Builder
		_ = xml.EscapeText(&b, []byte(s))
		wantEscape := b.String() != s
		escape, underscore := plainText(s)
		if escape != wantEscape || underscore != strings.Contains(s, "_") {
			t.Errorf("plainText(%q) = %v, %v; want %v, %v", s, escape, underscore, wantEscape, strings.Contains(s, "_"))
		}
	}
}
