package domain_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/costdb/costdb/domain"
)

// TestCatalogueNames: every unit and known bank has a human name.
func TestCatalogueNames(t *testing.T) {
	for _, u := range domain.Units {
		if domain.UnitNames[u] == "" {
			t.Errorf("unit %q has no name in UnitNames", u)
		}
	}
	for _, b := range domain.KnownBanks {
		if domain.BankNames[b] == "" {
			t.Errorf("bank %q has no name in BankNames", b)
		}
	}
	if len(domain.UnitNames) != len(domain.Units) || len(domain.BankNames) != len(domain.KnownBanks) {
		t.Errorf("UnitNames or BankNames names something not listed")
	}
}

// TestValidMonthIsThePattern: the hand-written check accepts exactly what
// the published pattern MM/YYYY (month 01-12, year 1900-2199) does: every
// string of the shape NN/NNNN, and random strings near it.
func TestValidMonthIsThePattern(t *testing.T) {
	pattern := regexp.MustCompile(`^(0[1-9]|1[0-2])/(19|20|21)[0-9]{2}$`)
	check := func(s string) {
		if got, want := domain.ValidMonth(s), pattern.MatchString(s); got != want {
			t.Fatalf("ValidMonth(%q) = %v, the pattern says %v", s, got, want)
		}
	}
	for n := 0; n < 1000000; n++ {
		check(fmt.Sprintf("%02d/%04d", n/10000, n%10000))
	}
	alphabet := "0123456789/-. a\n"
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		b := make([]byte, 5+rng.IntN(4))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if rng.IntN(2) == 0 && len(b) > 2 {
			b[2] = '/'
		}
		check(string(b))
	}
	for _, s := range []string{"", "1/2026", "01/2026 ", "١٢/2026", "09/2026", "12/2199", "00/2026", "13/2026", "09/1899", "09/2200"} {
		check(s)
	}
}
