package bankfiles_test

import (
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/domain"
)

// TestWorkbookNoChargesSheet: the sheet ISE (insumos sem encargos) gives
// the labour insumos their price without charges in each state where it
// has one (domain.BankResource.Base); a material keeps none, even with a
// figure in ISE, and the prices with charges are those of ISD/ICD.
func TestWorkbookNoChargesSheet(t *testing.T) {
	wb, _ := realWorkbook(t)
	var labour, material string
	for i := range wb.Insumos {
		in := &wb.Insumos[i]
		switch {
		case labour == "" && in.Class == "MÃO DE OBRA":
			labour = in.Code
			in.NoCharges = map[string]string{"MG": "18.37"} // PE left blank
		case material == "" && in.Class == "MATERIAL":
			material = in.Code
			in.NoCharges = map[string]string{"MG": "1.11", "PE": "1.12"}
		}
	}
	if labour == "" || material == "" {
		t.Fatal("the real workbook has no labour or no material insumo")
	}
	got, err := readWorkbook(t, writeWorkbook(t, t.TempDir(), "SINAPI_Referência_2026_08.xlsx", wb), bankfiles.WorkbookOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ig := range got.Ignored {
		if ig == bankfiles.SheetInsumosNoCharges {
			t.Errorf("ISE listed as not read: %v", got.Ignored)
		}
	}
	bases := map[string]map[string]string{} // state → code → base ("" none)
	for i, st := range got.States {
		ed, _ := got.Edition(i)
		bases[st] = map[string]string{}
		for _, r := range ed.Resources {
			b := ""
			if r.Base.Valid {
				b = r.Base.Decimal.StringFixed(2)
			}
			bases[st][r.Code] = b
			if r.Code == labour && r.Type != domain.TypeLabor {
				t.Errorf("%s is not read as labour (type %d)", labour, r.Type)
			}
		}
	}
	for _, c := range []struct{ state, code, want string }{
		{"MG", labour, "18.37"}, {"PE", labour, ""}, {"MG", material, ""}, {"PE", material, ""},
	} {
		if b, ok := bases[c.state][c.code]; !ok || b != c.want {
			t.Errorf("%s %s: base %q (present %v), want %q", c.state, c.code, b, ok, c.want)
		}
	}
}
