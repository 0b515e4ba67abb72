package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// TestBankCompositionView: a bank composition shown as a company's one
// keeps its published cost, cuts each structure line by the rounding
// method, and shows what the bank did not publish as unpriced and missing.
func TestBankCompositionView(t *testing.T) {
	ed := &domain.Edition{Bank: "SICRO3", State: "AL", Month: "01/2024"}
	c := &domain.BankComposition{Code: "0307731", Description: "Aparelho", Unit: "dm³", Cost: up("112.02", "0"),
		Regimes: []domain.Regime{domain.NaoDesonerado}}
	structure := []domain.PricedItem{
		{Item: domain.Item{Code: "M1", Kind: domain.KindResource, Quantity: dec("0.33333")}, UnitPrice: up("10.1010", "10.1010")},
		{Item: domain.Item{Code: "GONE", Kind: domain.KindResource, Quantity: dec("1")}, Missing: true,
			Unpriced: [2]bool{true, true}, Reason: "resource GONE does not exist in SICRO3 AL 01/2024"},
	}
	pc := domain.BankCompositionView(ed, c, structure, domain.Truncate4)
	if pc.ID != "0307731" || pc.State != "AL" || pc.IsSicro || len(pc.Banks) != 1 || pc.Banks[0].Name != "SICRO3" {
		t.Errorf("composition %+v", pc.Composition)
	}
	if !pc.Prices.PND.Equal(dec("112.02")) || pc.Prices.Unpriced != [2]bool{false, true} {
		t.Errorf("prices %+v: the published cost, desonerado unpriced", pc.Prices)
	}
	// 0.33333 × 10.1010 = 3.36696333, cut to 4 places.
	if it := pc.Items[0]; it.Bank != "SICRO3" || !it.Total.PND.Equal(dec("3.3669")) {
		t.Errorf("line %+v, want bank SICRO3 and total 3.3669", it)
	}
	want := []domain.MissingPrice{
		{Bank: "SICRO3", Code: "0307731", Kind: domain.KindComposition, Reason: "composition 0307731 has no desonerado price in SICRO3 AL 01/2024", Unpriced: [2]bool{false, true}},
		{Bank: "SICRO3", Code: "GONE", Kind: domain.KindResource, Reason: "resource GONE does not exist in SICRO3 AL 01/2024", Unpriced: [2]bool{true, true}},
	}
	if diff := cmp.Diff(want, pc.Missing); diff != "" {
		t.Errorf("missing (-want +got):\n%s", diff)
	}
}
