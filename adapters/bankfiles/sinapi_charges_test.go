package bankfiles_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/bankfiles/workbooktest"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// sinapiChargesBook writes a table in Caixa's layout (workbooktest.
// SinapiCharges) to a file named name.
func sinapiChargesBook(t *testing.T, name, title string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := workbooktest.SinapiCharges(path, title); err != nil {
		t.Fatal(err)
	}
	return path
}

func readSinapiCharges(path, state, month string) ([]*domain.ChargesTable, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return bankfiles.ReadSinapiCharges(context.Background(), path, bytes.NewReader(b), int64(len(b)), state, month)
}

// TestSinapiCharges reads a table in Caixa's layout: two tables (sem and
// com desoneração), each with the horista and the mensalista, the 26 items
// in the file's order ("Não incide" read as 0), the subtotal rows left
// out, the total the file's; every item column adds up to the total, as
// the file was built.
func TestSinapiCharges(t *testing.T) {
	path := sinapiChargesBook(t, "SINAPI_Encargos_Sociais_AC_201304.xlsx", "ACRE VIGÊNCIA A PARTIR DE 04/2013")
	tabs, err := readSinapiCharges(path, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tabs) != 2 || tabs[0].Regime != domain.NaoDesonerado || tabs[1].Regime != domain.Desonerado {
		t.Fatalf("%d tables: %+v", len(tabs), tabs)
	}
	want := map[domain.Regime][2]string{domain.NaoDesonerado: {"111.51", "69.68"}, domain.Desonerado: {"82.48", "46.33"}}
	for _, tab := range tabs {
		if err := tab.Validate(); err != nil {
			t.Errorf("%s: %v", tab.Key(), err)
		}
		if tab.Bank != "SINAPI" || tab.State != "AC" || tab.Month != "04/2013" || len(tab.Items) != 26 || tab.Items[0] != "A1" || tab.Items[25] != "D2" {
			t.Errorf("%s: %s %s %s, items %v", tab.Key(), tab.Bank, tab.State, tab.Month, tab.Items)
		}
		if len(tab.Rows) != 2 || tab.Rows[0].Code != "HORISTA" || tab.Rows[0].Monthly || tab.Rows[1].Code != "MENSALISTA" || !tab.Rows[1].Monthly {
			t.Fatalf("%s rows: %+v", tab.Key(), tab.Rows)
		}
		for k, r := range tab.Rows {
			sum := decimal.Zero
			for _, p := range r.Items {
				sum = sum.Add(p)
			}
			if r.Total.StringFixed(2) != want[tab.Regime][k] || !sum.Equal(r.Total) {
				t.Errorf("%s %s: total %s (items add up to %s), want %s", tab.Key(), r.Code, r.Total, sum, want[tab.Regime][k])
			}
		}
		if b1 := tab.Rows[1].Items[9]; tab.Items[9] != "B1" || !b1.IsZero() {
			t.Errorf("%s: mensalista %s = %s, want 0 (Não incide)", tab.Key(), tab.Items[9], b1)
		}
	}
	if a1 := tabs[0].Rows[0].Items[0]; a1.StringFixed(2) != "20.00" || !tabs[1].Rows[0].Items[0].IsZero() {
		t.Errorf("A1 INSS: sem desoneração %s, com %s; want 20.00 and 0", a1, tabs[1].Rows[0].Items[0])
	}

	// The file's word against a flag or its name: both named.
	for _, tc := range []struct{ name, title, state, month, want string }{
		{"SINAPI_Encargos_Sociais_AC_201304.xlsx", "ACRE VIGÊNCIA A PARTIR DE 04/2013", "RS", "", "the title rows say AC; the import is for RS"},
		{"SINAPI_Encargos_Sociais_AC_201304.xlsx", "ACRE VIGÊNCIA A PARTIR DE 04/2013", "", "05/2013", "the title rows say 04/2013; the import is for 05/2013"},
		{"SINAPI_Encargos_Sociais_RS_201304.xlsx", "ACRE VIGÊNCIA A PARTIR DE 04/2013", "", "", "the file says state AC, the file name says RS"},
		{"encargos.xlsx", "ENCARGOS SOCIAIS SOBRE A MÃO DE OBRA", "", "", "do not name the state and the month"},
	} {
		_, err := readSinapiCharges(sinapiChargesBook(t, tc.name, tc.title), tc.state, tc.month)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q (%s %s): %v, want %q", tc.name, tc.title, tc.state, tc.month, err, tc.want)
		}
	}
}
