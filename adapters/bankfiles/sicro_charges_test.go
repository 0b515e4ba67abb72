package bankfiles_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/domain"
)

const chargesDir = "testdata/sicro-al-202401-package/"

func readCharges(t *testing.T, path, state, month string) (*bankfiles.ChargesTable, error) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return bankfiles.ReadSicroCharges(context.Background(), path, fh, st.Size(), state, month)
}

// TestSicroChargesReal reads DNIT's real encargos sociais tables of AL
// 01/2024, without and with desoneração: 101 labour codes each (44
// horistas, 57 mensalistas), the state, month and regime from the titles,
// the totals exactly as stored (the sheet shows them rounded to 2 places).
func TestSicroChargesReal(t *testing.T) {
	for _, tc := range []struct {
		file   string
		regime domain.Regime
		want   map[string]string // code → total shown by the sheet, 2 places
	}{
		{"AL 01-2024 Relat_rio Sint_tico de Encargos Sociais.xlsx", domain.NaoDesonerado,
			map[string]string{"P9801": "109.62", "P9803": "76.07", "P9821": "109.48"}},
		{"AL 01-2024 Relat_rio Sint_tico de Encargos Sociais - com desonera__o.xlsx", domain.Desonerado,
			map[string]string{"P9803": "52.72", "P9821": "82.35"}},
	} {
		tab, err := readCharges(t, chargesDir+tc.file, "", "")
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if tab.Bank != "SICRO3" || tab.State != "AL" || tab.Month != "01/2024" || tab.Regime != tc.regime {
			t.Errorf("%s: %s %s %s %v, want SICRO3 AL 01/2024 %v", tc.file, tab.Bank, tab.State, tab.Month, tab.Regime, tc.regime)
		}
		hourly, monthly := 0, 0
		got := map[string]bankfiles.ChargesRow{}
		for _, r := range tab.Rows {
			got[r.Code] = r
			if r.Monthly {
				monthly++
			} else {
				hourly++
			}
			if r.Total.Sign() <= 0 || r.Total.GreaterThan(domain.MaxLabourCharges) {
				t.Errorf("%s %s: total %s", tc.file, r.Code, r.Total)
			}
		}
		if len(tab.Rows) != 101 || hourly != 44 || monthly != 57 {
			t.Errorf("%s: %d rows (%d horistas, %d mensalistas), want 101 (44, 57)", tc.file, len(tab.Rows), hourly, monthly)
		}
		for code, shown := range tc.want {
			r, ok := got[code]
			if !ok || r.Total.StringFixed(2) != shown {
				t.Errorf("%s %s: total %s (%v), want %s%% as the sheet shows it", tc.file, code, r.Total, ok, shown)
			}
		}
		if r := got["P9801"]; tc.regime == domain.NaoDesonerado && (r.Description != "Ajudante" || r.Unit != "h" || r.Monthly) {
			t.Errorf("P9801 = %+v", r)
		}
	}
}

// TestSicroChargesTitleDecides: a table read for another state or month
// is refused naming both; nothing is returned.
func TestSicroChargesTitleDecides(t *testing.T) {
	path := chargesDir + "AL 01-2024 Relat_rio Sint_tico de Encargos Sociais.xlsx"
	for _, tc := range []struct{ state, month, want string }{
		{"PE", "01/2024", "the title rows say AL; the import is for PE"},
		{"AL", "02/2024", "the title rows say 01/2024; the import is for 02/2024"},
	} {
		tab, err := readCharges(t, path, tc.state, tc.month)
		if err == nil || tab != nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, %v; want an error saying %q", tc.state, tc.month, tab, err, tc.want)
		}
	}
	// A file that is not the table.
	if _, err := readCharges(t, "testdata/sicro-al-202401/SICRO_AL_202401_Relatorio_Sintetico_Materiais.xlsx", "", ""); err == nil ||
		!strings.Contains(err.Error(), "not DNIT's encargos sociais table") {
		t.Errorf("materials read as encargos: %v", err)
	}
}
