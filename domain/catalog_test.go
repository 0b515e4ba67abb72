package domain_test

import (
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
