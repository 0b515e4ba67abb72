package pgstore

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/costdb/costdb/app"
)

// The runes that split a text into tokens are exactly unicode.IsSpace's
// (the list migration 0016 translates to a space): a rune Go takes for a
// space that the list missed, or one it does not, fails here.
func TestTermSpacesAreUnicodeSpaces(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.IsSpace(r) != strings.ContainsRune(termSpaces, r) {
			t.Errorf("U+%04X: unicode.IsSpace %v, in termSpaces %v", r, unicode.IsSpace(r), !unicode.IsSpace(r))
		}
	}
	if n := len([]rune(termSpaces)); n != 25 {
		t.Errorf("termSpaces has %d runes, want 25 (migration 0016 lists 24 beside the space)", n)
	}
}

// A word without white space is in a folded text exactly when it is in
// one of the text's tokens: checked on every substring of texts with
// unusual spaces and lookalikes that are not spaces.
func TestTermsHoldEveryWordOfTheirText(t *testing.T) {
	texts := []string{
		"BLOCO CERÂMICO PARA ALVENARIA DE VEDAÇÃO",
		"a\u00a0b\u2003c\u3000d\te\nf\u0085g\u202fh\u205fi\u1680j\u2028k\u2029l\vm\fn\ro",
		"x\u200by\u180ez\ufeffw  tail ",
		"  ",
		"100% a_b",
	}
	for _, text := range texts {
		fold := app.Fold(text)
		toks := terms(fold)
		if !slices.IsSorted(toks) || len(slices.Compact(slices.Clone(toks))) != len(toks) {
			t.Errorf("%q: tokens %q not sorted and distinct", text, toks)
		}
		for i := range fold { // every substring of whole runes
			for j := i + 1; j <= len(fold); j++ {
				if j < len(fold) && !utf8.RuneStart(fold[j]) {
					continue
				}
				w := fold[i:j]
				if strings.ContainsFunc(w, unicode.IsSpace) || utf8.RuneCountInString(w) < minTermRunes {
					continue
				}
				in := slices.ContainsFunc(toks, func(tok string) bool { return strings.Contains(tok, w) })
				if in != strings.Contains(fold, w) {
					t.Errorf("%q: word %q in a token %v, in the text %v", text, w, in, strings.Contains(fold, w))
				}
			}
		}
	}
}

// SetTermsAt sets how many changed tokens a transaction gathers before it
// writes them, until the test ends (the tests of listterms_test.go run
// with a small one, so that long writes write them on the way too).
func SetTermsAt(t testing.TB, n int) {
	old := termsAt
	termsAt = n
	t.Cleanup(func() { termsAt = old })
}
