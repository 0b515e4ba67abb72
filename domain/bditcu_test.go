package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

func parts(ac, s, r, g, df, l, taxes, cprb string) domain.BDIParts {
	return domain.BDIParts{AC: domain.Dec(ac), S: domain.Dec(s), R: domain.Dec(r), G: domain.Dec(g),
		DF: domain.Dec(df), L: domain.Dec(l), Taxes: domain.Dec(taxes), CPRB: domain.Dec(cprb)}
}

// The test vectors of the TCU BDI reference (worked examples 1–4, the
// published municipal sheet and the exam answer), reproduced exactly.
func TestBDIPartsRate(t *testing.T) {
	tests := []struct {
		name         string
		p            domain.BDIParts
		rate, noCPRB string
		exactPrefix  string // the exact fraction, first places
	}{
		{"edifícios médio", parts("4.00", "0.80", "1.27", "0", "1.23", "7.40", "5.65", "0"), "22.23", "22.23", "0.22226164190779"},
		{"edifícios médio desonerado", parts("4.00", "0.80", "1.27", "0", "1.23", "7.40", "5.65", "4.50"), "28.35", "22.23", "0.28347674918196"},
		// S and G given apart: the same bracket as one S+G figure.
		{"S and G apart", parts("4.00", "0.40", "1.27", "0.40", "1.23", "7.40", "5.65", "4.50"), "28.35", "22.23", "0.28347674918196"},
		{"published municipal sheet", parts("4.00", "0.80", "1.27", "0", "1.23", "7.31", "10.15", "0"), "28.24", "28.24", "0.28240121000667"},
		{"differentiated, supply", parts("3.45", "0.48", "0.85", "0", "0.85", "5.11", "3.65", "0"), "15.28", "15.28", "0.15278047942916"},
		{"rodovias médio", parts("4.01", "0.40", "0.56", "0", "1.11", "7.30", "6.65", "0"), "22.00", "22.00", "0.21995751677557"},
		{"exam answer, S+R+G as one", parts("6.00", "1.00", "0", "0", "1.00", "5.00", "10.00", "0"), "26.08", "26.08", "0.2608"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := []string{tt.p.Rate().StringFixed(2), tt.p.RateWithoutCPRB().StringFixed(2)}
			if d := cmp.Diff([]string{tt.rate, tt.noCPRB}, got); d != "" {
				t.Errorf("rates (-want +got):\n%s", d)
			}
			if ex := tt.p.Exact(true).String(); len(ex) < len(tt.exactPrefix) || ex[:len(tt.exactPrefix)] != tt.exactPrefix {
				t.Errorf("exact = %s, want %s…", ex, tt.exactPrefix)
			}
		})
	}
}

func TestBDIPartsValidate(t *testing.T) {
	tests := []struct {
		name   string
		p      domain.BDIParts
		fields []string
	}{
		{"fine", parts("4", "0.8", "1.27", "0", "1.23", "7.4", "5.65", "4.5"), nil},
		{"negative", parts("-1", "0.8", "1.27", "0", "1.23", "7.4", "5.65", "0"), []string{"/p/ac"}},
		{"taxes 100", parts("4", "0.8", "1.27", "0", "1.23", "7.4", "95", "5"), []string{"/p/taxes"}},
		{"places", parts("4.00001", "0.8", "1.27", "0", "1.23", "7.4", "5.65", "0"), []string{"/p/ac"}},
		{"100", parts("4", "0.8", "1.27", "0", "1.23", "100", "5.65", "0"), []string{"/p/l"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range domain.ErrorFields(tt.p.Validate("/p")) {
				got = append(got, f.Field)
			}
			if d := cmp.Diff(tt.fields, got); d != "" {
				t.Errorf("fields (-want +got):\n%s", d)
			}
		})
	}
}

func TestCheckBDI(t *testing.T) {
	ref := domain.TCU2622()
	ed, _ := ref.WorkType("buildings")
	type row struct {
		Name, Value, Status string
		Confirmed           bool
	}
	rows := func(c domain.BDICheck) []row {
		var out []row
		for _, r := range c.Rows {
			out = append(out, row{r.Name, r.Value.String(), string(r.Status), r.Range.Confirmed()})
		}
		return out
	}
	// Example 2: every component at its average, desonerado: the applied
	// rate is 28.35 and the checked one (without CPRB) 22.23, inside.
	c := domain.CheckBDI(ed, parts("4.00", "0.80", "1.27", "0", "1.23", "7.40", "5.65", "4.50"))
	want := []row{
		{"ac", "4", "inside", true}, {"sg", "0.8", "inside", true}, {"r", "1.27", "inside", true},
		{"df", "1.23", "inside", false}, {"l", "7.4", "inside", false}, {"bdi", "22.23", "inside", true},
	}
	if d := cmp.Diff(want, rows(c)); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	if c.Flagged != 0 || c.Rate.StringFixed(2) != "28.35" {
		t.Errorf("flagged %d, rate %s", c.Flagged, c.Rate)
	}
	// AC above its 3rd quartile (5.50), profit below its 1st (6.16): both
	// flagged; the BDI itself stays in range.
	c = domain.CheckBDI(ed, parts("6.00", "0.80", "1.27", "0", "1.23", "6.00", "5.65", "0"))
	got := rows(c)
	if got[0].Status != "above" || got[4].Status != "below" || got[5].Status != "inside" || c.Flagged != 2 {
		t.Errorf("rows %+v, flagged %d", got, c.Flagged)
	}
	// A BDI of exactly a bound is inside (bounds inclusive); rodovias'
	// components are unconfirmed, and the row says so.
	rod, _ := ref.WorkType("roads_railways")
	c = domain.CheckBDI(rod, parts("4.01", "0.40", "0.56", "0", "1.11", "5.00", "6.65", "0"))
	if got := rows(c); got[5].Status != "below" || got[1].Confirmed {
		t.Errorf("rodovias rows %+v", got)
	}
	c = domain.CheckBDI(ed, parts("4.00", "0.80", "1.27", "0", "1.23", "5.74", "5.65", "0"))
	if got := rows(c); got[5] != (row{"bdi", "20.34", "inside", true}) {
		t.Errorf("bound: bdi row %+v", got[5])
	}
	// Differentiated BDI, example 3: inside 11.10–16.80.
	sup, _ := ref.WorkType(domain.BDIWorkTypeSupply)
	c = domain.CheckBDI(sup, parts("3.45", "0.48", "0.85", "0", "0.85", "5.11", "3.65", "0"))
	if c.Flagged != 0 || c.Rows[5].Value.String() != "15.28" {
		t.Errorf("supply check %+v", rows(c))
	}
}

func TestBDIReferenceData(t *testing.T) {
	ref := domain.TCU2622()
	want := []string{"buildings", "roads_railways", "water_sewage", "power", "ports"}
	if d := cmp.Diff(want, ref.WorkTypeIDs()); d != "" {
		t.Errorf("work types (-want +got):\n%s", d)
	}
	for _, w := range ref.WorkTypes {
		for k, r := range w.Components {
			if r.Q1.GreaterThan(r.Average) || r.Average.GreaterThan(r.Q3) {
				t.Errorf("%s %s: quartiles out of order", w.ID, k)
			}
		}
		if len(w.Components) != 5 {
			t.Errorf("%s: %d components", w.ID, len(w.Components))
		}
	}
}
