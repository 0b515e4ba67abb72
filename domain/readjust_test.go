package domain_test

import (
	"strings"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

func series(t *testing.T, name string, pts ...string) *domain.IndexSeries {
	t.Helper()
	var in []domain.IndexPoint
	for i := 0; i < len(pts); i += 2 {
		in = append(in, domain.IndexPoint{Month: pts[i], Value: dec(pts[i+1])})
	}
	s, err := domain.NewIndexSeries(name, in)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReadjust, worked by hand (docs/readjustment.md): INCC-DI, base
// 03/2025 (I0 1000.000), anniversaries 03/2026 (1057.321) and 03/2027
// (1102.500):
//
//	1: 02/2026, 100,000.00: within the first year, factor 0, nothing
//	2: 04/2026,  50,000.00: I 1057.321, trunc(57.321/1000, 4) = 0.0573 → 2,865.00
//	3: 03/2027,  80,000.00: I 1102.500, 0.1025 → 8,200.00
//	total 230,000.00, readjustment 11,065.00
func TestReadjust(t *testing.T) {
	s := series(t, " incc-di ", "03/2025", "1000.000", "03/2026", "1057.321", "03/2027", "1102.500", "04/2026", "1060")
	if s.Name != "INCC-DI" {
		t.Errorf("name %q", s.Name)
	}
	st, err := domain.Readjust(s, "03/2025", domain.DefaultReadjustPlaces, []domain.ReadjustInput{
		{Number: 1, Month: "02/2026", Value: dec("100000.00")},
		{Number: 2, Month: "04/2026", Value: dec("50000.00")},
		{Number: 3, Month: "03/2027", Value: dec("80000.00")},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range st.Rows {
		got = append(got, strings.Join([]string{r.Anniversary, r.I.String(), r.Factor.String(), r.Amount.StringFixed(2)}, " "))
	}
	want := []string{" 1000 0 0.00", "03/2026 1057.321 0.0573 2865.00", "03/2027 1102.5 0.1025 8200.00"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if st.Total.StringFixed(2) != "230000.00" || st.TotalAmount.StringFixed(2) != "11065.00" {
		t.Errorf("totals %s %s", st.Total, st.TotalAmount)
	}
}

// TestReadjustPlaces: I0 876.54, I 912.03: (912.03 − 876.54) / 876.54 =
// 0.04048874…; 4 places 0.0404, 12,345.67 × 0.0404 = 498.765068 → 498.77;
// 6 places 0.040488 → 499.85148696 → 499.85.
func TestReadjustPlaces(t *testing.T) {
	s := series(t, "IPCA", "01/2024", "876.54", "01/2025", "912.03")
	for places, want := range map[int32]string{4: "0.0404 498.77", 6: "0.040488 499.85"} {
		st, err := domain.Readjust(s, "01/2024", places, []domain.ReadjustInput{{Number: 1, Month: "06/2025", Value: dec("12345.67")}})
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Rows[0].Factor.String() + " " + st.Rows[0].Amount.StringFixed(2); got != want {
			t.Errorf("%d places: %s, want %s", places, got, want)
		}
	}
}

// A month the series lacks is an error naming it, never a zero; every bad
// row at once.
func TestReadjustMissing(t *testing.T) {
	s := series(t, "INCC", "03/2025", "1000", "03/2026", "1050")
	_, err := domain.Readjust(s, "03/2025", 4, []domain.ReadjustInput{
		{Number: 1, Month: "05/2028", Value: dec("10")},
		{Number: 2, Month: "02/2025", Value: dec("10")},
		{Number: 3, Month: "13/2026", Value: dec("10")},
	})
	var got []string
	for _, f := range domain.ErrorFields(err) {
		got = append(got, f.Field+": "+f.Message)
	}
	want := []string{
		"/rows/0/month: the index INCC has no number for 03/2028, the anniversary of 05/2028 (base 03/2025)",
		"/rows/1/month: 02/2025 is before the base month 03/2025",
		"/rows/2/month: must be a month MM/YYYY, not \"13/2026\"",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := domain.Readjust(s, "04/2025", 4, []domain.ReadjustInput{{Month: "05/2026", Value: dec("1")}}); err == nil ||
		!strings.Contains(domain.ErrorFields(err)[0].Message, "no number for the base month 04/2025") {
		t.Errorf("a base month the series lacks: %v", err)
	}
}

// TestChain: variations 0.50%, 0.30%, −0.10% from 100 at 12/2025:
// 100.5, 100.8015, 100.8015 × 0.999 = 100.7006985 → 100.700699.
func TestChain(t *testing.T) {
	out, err := domain.Chain([]domain.IndexPoint{
		{Month: "02/2026", Value: dec("0.30")}, {Month: "01/2026", Value: dec("0.50")}, {Month: "03/2026", Value: dec("-0.10")},
	}, dec("0"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range out {
		got = append(got, p.Month+" "+p.Value.String())
	}
	want := []string{"12/2025 100", "01/2026 100.5", "02/2026 100.8015", "03/2026 100.700699"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := domain.Chain([]domain.IndexPoint{{Month: "01/2026", Value: dec("1")}, {Month: "03/2026", Value: dec("1")}}, dec("100")); err == nil {
		t.Error("a gap between variations was accepted")
	}
}
