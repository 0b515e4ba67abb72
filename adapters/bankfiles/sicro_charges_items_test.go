package bankfiles_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// TestSicroChargesItems: the real AL 01/2024 table's 26 charge items
// (A1 … D2) are read per labour code, in the file's order, each as the
// sheet shows it when cut to 2 places (checked by hand against the sheet:
// P9801 Ajudante, sem desoneração: A1 20.00%, B1 17.87%, C3 11.63%, D1
// 12.71%, D2 0.70%), and the items of every code add up to its total
// (the file's own note: only up to the places it shows, 0.005 per item).
func TestSicroChargesItems(t *testing.T) {
	tab, err := readCharges(t, chargesDir+"AL 01-2024 Relat_rio Sint_tico de Encargos Sociais.xlsx", "AL", "01/2024")
	if err != nil {
		t.Fatal(err)
	}
	want := "A1 A2 A3 A4 A5 A6 A7 A8 A9 B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 C1 C2 C3 C4 C5 D1 D2"
	if got := strings.Join(tab.Items, " "); got != want {
		t.Fatalf("items %q, want %q", got, want)
	}
	r := tab.Rows[0]
	if r.Code != "P9801" || len(r.Items) != 26 {
		t.Fatalf("first row %s with %d items", r.Code, len(r.Items))
	}
	for i, shown := range map[int]string{0: "20.00", 9: "17.87", 21: "11.63", 24: "12.71", 25: "0.70"} {
		if got := r.Items[i].StringFixed(2); got != shown {
			t.Errorf("P9801 %s = %s (%s), want %s%% as the sheet shows it", tab.Items[i], got, r.Items[i], shown)
		}
	}
	tol := decimal.RequireFromString("0.005").Mul(decimal.NewFromInt(26))
	for _, r := range tab.Rows {
		sum := decimal.Zero
		for _, p := range r.Items {
			sum = sum.Add(p)
		}
		if sum.Sub(r.Total).Abs().GreaterThan(tol) {
			t.Errorf("%s: items add up to %s, total %s", r.Code, sum, r.Total)
		}
	}
}
