package app_test

import (
	"bytes"
	"testing"

	"github.com/costdb/costdb/app"
)

// TestCodeKeyOrdersNaturally: for every pair of (folded) codes, the byte
// order of their CodeKeys is NaturalCompare's order, so a store may index
// the keys instead of comparing codes.
func TestCodeKeyOrdersNaturally(t *testing.T) {
	codes := []string{
		"", "0", "00", "000123", "123", "88309", "88316", "100001", "9", "10", "e1", "e9017", "e9017a",
		"alv-001", "alv-3", "alv-9", "alv-10", "abc", "abd", "a", "a0", "a00b", "a0b", "a1", "a-1", "a 1",
		"r-009", "r-9", "r-10", "z", "~", "\x7f", "é", "1.2.3", "1.10.3", "12345678901234567890", "12345678901234567891",
	}
	sign := func(n int) int {
		switch {
		case n < 0:
			return -1
		case n > 0:
			return 1
		}
		return 0
	}
	for _, a := range codes {
		for _, b := range codes {
			want := sign(app.NaturalCompare(a, b))
			if got := sign(bytes.Compare(app.CodeKey(a), app.CodeKey(b))); got != want {
				t.Errorf("CodeKey(%q) vs CodeKey(%q) = %d, NaturalCompare = %d", a, b, got, want)
			}
		}
	}
}
