package v2_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/bankfiles/workbooktest"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// realCharges reads DNIT's real AL 01/2024 encargos tables (both regimes).
func realCharges(t *testing.T) []*domain.ChargesTable {
	t.Helper()
	var out []*domain.ChargesTable
	for _, name := range []string{"AL 01-2024 Relat_rio Sint_tico de Encargos Sociais.xlsx", "AL 01-2024 Relat_rio Sint_tico de Encargos Sociais - com desonera__o.xlsx"} {
		path := "../../bankfiles/testdata/sicro-al-202401-package/" + name
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := fh.Stat()
		tab, err := bankfiles.ReadSicroCharges(context.Background(), path, fh, st.Size(), "", "")
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tab)
	}
	return out
}

// GET /banks/{bank}/labour-charges serves the real DNIT AL 01/2024 tables
// stored on the engine at hand exactly as the file holds them (every row,
// every item, as the reader read them, items past 10 decimal places
// rounded half up to 10; a few totals checked by hand
// against the sheet), filtered by state, month and regime; a bad filter
// is 400 naming each parameter; a bank without tables an empty list.
func TestLabourChargesTables(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	tabs := realCharges(t)
	if err := h.App.PutChargesTables(context.Background(), tabs); err != nil {
		t.Fatal(err)
	}
	doc := expect(t, h.Do("GET", banks+"/sicro3/labour-charges?state=al&month=01/2024", u.Token, ""), 200)
	if got := ids(t, doc); !cmp.Equal(got, []string{"SICRO3-AL-2024-01-nao-desonerado", "SICRO3-AL-2024-01-desonerado"}) {
		t.Fatalf("ids %v", got)
	}
	byRegime := map[string]domain.ChargesTable{"nao-desonerado": *tabs[0], "desonerado": *tabs[1]}
	for _, d := range doc["data"].([]any) {
		a := d.(obj)["attributes"].(obj)
		want := byRegime[a["regime"].(string)]
		if a["bank"] != "SICRO3" || a["state"] != "AL" || a["month"] != "01/2024" || len(a["items"].([]any)) != 26 {
			t.Errorf("attributes %v", keys(a))
		}
		rows := a["rows"].([]any)
		if len(rows) != len(want.Rows) {
			t.Fatalf("%d rows, want %d", len(rows), len(want.Rows))
		}
		for i, r := range rows {
			row, w := r.(obj), want.Rows[i]
			if row["code"] != w.Code || row["description"] != w.Description || num(t, row["total"]) != w.Total.String() {
				t.Errorf("row %d = %v, want %+v", i, row, w)
			}
			for k, p := range row["items"].([]any) {
				if num(t, p) != domain.RoundHalfUp(w.Items[k], domain.MaxDecimalPlaces).String() { // 10 places at most in any answer
					t.Errorf("%s %s = %v, want %s", w.Code, want.Items[k], p, w.Items[k])
				}
			}
		}
	}
	// By hand, against the sheet (shown with 2 places).
	one := expect(t, h.Do("GET", banks+"/SICRO3/labour-charges?regime=desonerado", u.Token, ""), 200)
	rows := one["data"].([]any)[0].(obj)["attributes"].(obj)["rows"].([]any)
	shown := map[string]string{"P9803": "52.72", "P9821": "82.35"}
	for _, r := range rows {
		row := r.(obj)
		if want, ok := shown[row["code"].(string)]; ok {
			if got := domain.RoundHalfUp(decimal.RequireFromString(num(t, row["total"])), 2).StringFixed(2); got != want {
				t.Errorf("%s desonerado total %s, the sheet shows %s", row["code"], got, want)
			}
			delete(shown, row["code"].(string))
		}
	}
	if len(shown) != 0 {
		t.Errorf("codes not served: %v", shown)
	}

	if got := ids(t, expect(t, h.Do("GET", banks+"/SINAPI/labour-charges", u.Token, ""), 200)); len(got) != 0 {
		t.Errorf("SINAPI without tables: %v", got)
	}
	if got := ids(t, expect(t, h.Do("GET", banks+"/SICRO3/labour-charges?state=PE", u.Token, ""), 200)); len(got) != 0 {
		t.Errorf("PE: %v", got)
	}
	errs := errorsOf(t, h.Do("GET", banks+"/SICRO3/labour-charges?state=XX&month=13/2024&regime=both", u.Token, ""), 400)
	params := map[string]bool{}
	for _, e := range errs {
		params[e.Parameter] = true
	}
	if !params["state"] || !params["month"] || !params["regime"] {
		t.Errorf("errors %+v, want one per parameter", errs)
	}
}

// Caixa's table (built in its documented layout) is served the same way:
// per regime the horista and the mensalista, "Não incide" as 0.
func TestSinapiLabourChargesTables(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	path := t.TempDir() + "/SINAPI_Encargos_Sociais_AC_201304.xlsx"
	if err := workbooktest.SinapiCharges(path, "ACRE VIGÊNCIA A PARTIR DE 04/2013"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tabs, err := bankfiles.ReadSinapiCharges(context.Background(), path, bytes.NewReader(b), int64(len(b)), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.App.PutChargesTables(context.Background(), tabs); err != nil {
		t.Fatal(err)
	}
	doc := expect(t, h.Do("GET", banks+"/sinapi/labour-charges?state=AC&regime=desonerado", u.Token, ""), 200)
	if got := ids(t, doc); !cmp.Equal(got, []string{"SINAPI-AC-2013-04-desonerado"}) {
		t.Fatalf("ids %v", got)
	}
	rows := doc["data"].([]any)[0].(obj)["attributes"].(obj)["rows"].([]any)
	type row struct{ Code, Kind, Total, B1 string }
	var got []row
	for _, r := range rows {
		o := r.(obj)
		got = append(got, row{str(o["code"]), str(o["kind"]), num(t, o["total"]), num(t, o["items"].([]any)[9])})
	}
	want := []row{{"HORISTA", "horista", "82.48", "17.87"}, {"MENSALISTA", "mensalista", "46.33", "0"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}
