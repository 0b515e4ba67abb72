package v2_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/bankfiles/workbooktest"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// importWorkbook writes wb, reads it and imports its editions as costdb
// import sinapi does, each replacing its state's edition of the month.
func importWorkbook(t *testing.T, h *apitest.Harness, wb workbooktest.Workbook) {
	t.Helper()
	var buf bytes.Buffer
	if err := workbooktest.Write(&buf, wb); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "SINAPI_Referência_2026_08.xlsx")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	wf, err := bankfiles.OpenSinapiWorkbook(path)
	if err != nil {
		t.Fatal(err)
	}
	defer wf.Close()
	got, err := wf.Read(context.Background(), bankfiles.WorkbookOptions{})
	if err != nil {
		t.Fatal(err)
	}
	edition := func(i int) (*app.EditionData, error) {
		e, _ := got.Edition(i)
		return &app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions, Replace: true}, nil
	}
	if _, err := h.App.ImportEditionsFunc(context.Background(), len(got.States), edition); err != nil {
		t.Fatal(err)
	}
}

// TestSinapiWorkbookOverHTTP imports a national workbook made of the real
// MG 08/2026 data and PE's published figures, and reads every price and
// every composition cost back through both APIs, to the centavo; an
// insumo a state does not price is absent there, never 0. Re-importing the
// month replaces it, and a composition built on it is re-priced.
func TestSinapiWorkbookOverHTTP(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	wb, want, err := workbooktest.Real("../../bankfiles/testdata/sinapi-pe-202410")
	if err != nil {
		t.Fatal(err)
	}

	// An own composition on 89306's items, priced from the sample's MG edition.
	id := sinapiComposition(t, h, u.Token, "ALV-001")
	expect(t, h.Do("POST", compositions+"/"+id+"/add_banks", u.Token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`), 200)
	a := attrs(t, expect(t, h.Do("POST", compositions+"/"+id+"/add_items", u.Token, items89306), 200))
	ownPrice := func(a obj) [2]string {
		p := a["prices"].(obj)
		return [2]string{num(t, p["pnd"]), num(t, p["pd"])}
	}
	if got := ownPrice(a); !sameMoney(got[:], []string{"113.33", "110.13"}) {
		t.Fatalf("own composition before the import: %v", got)
	}

	importWorkbook(t, h, wb)

	const v1Find = "/api/v1/banks/find_by_code?bank=sinapi&version=08/2026"
	for _, st := range []string{"MG", "PE"} {
		path := banks + "/SINAPI-" + st + "-2026-08/items/"
		for _, r := range want[st].Resources {
			p := attrs(t, expect(t, h.Do("GET", path+r.Code+"?kind=resource", u.Token, ""), 200))["prices"].(obj)
			got := [4]string{numText(p["pnd"]), numText(p["pd"]), numText(p["pndi"]), numText(p["pdi"])}
			w := [4]string{r.Prices.PND.StringFixed(2), r.Prices.PD.StringFixed(2), r.Prices.PNDI.StringFixed(2), r.Prices.PDI.StringFixed(2)}
			for i, g := range []domain.Regime{domain.NaoDesonerado, domain.Desonerado, domain.NaoDesonerado, domain.Desonerado} {
				if !r.Priced(g) {
					w[i] = "" // not published: null, never 0
				}
			}
			if !sameMoney(got[:], w[:]) {
				t.Errorf("%s resource %s: v2 prices %v, published %v", st, r.Code, got, w)
			}
			v1 := v1Item(t, h, u.Token, v1Find+"&state="+st+"&kind=resource&code="+r.Code, 200)
			if !sameMoney([]string{numText(v1["unitary_pnd"]), numText(v1["unitary_pd"])}, w[:2]) {
				t.Errorf("%s resource %s: v1 %v / %v, published %v", st, r.Code, v1["unitary_pnd"], v1["unitary_pd"], w)
			}
		}
		price := map[string][2]decimal.Decimal{}
		for _, r := range want[st].Resources {
			price[r.Code] = [2]decimal.Decimal{r.Prices.PND, r.Prices.PD}
		}
		for _, c := range want[st].Compositions {
			price[c.Code] = [2]decimal.Decimal{c.Cost.PND, c.Cost.PD}
		}
		for _, c := range want[st].Compositions {
			a := attrs(t, expect(t, h.Do("GET", path+c.Code+"?kind=composition", u.Token, ""), 200))
			p := a["prices"].(obj)
			w := []string{c.Cost.PND.StringFixed(2), c.Cost.PD.StringFixed(2)}
			if got := []string{num(t, p["pnd"]), num(t, p["pd"])}; !sameMoney(got, w) {
				t.Errorf("%s composition %s: v2 cost %v, published %v", st, c.Code, got, w)
			}
			v1 := v1Item(t, h, u.Token, v1Find+"&state="+st+"&kind=composition&code="+c.Code, 200)
			if got := []string{numText(v1["unitary_pnd"]), numText(v1["unitary_pd"])}; !sameMoney(got, w) {
				t.Errorf("%s composition %s: v1 cost %v, published %v", st, c.Code, got, w)
			}
			structure, _ := a["structure"].([]any)
			if len(structure) != len(c.Items) {
				t.Errorf("%s composition %s: %d structure items, want %d", st, c.Code, len(structure), len(c.Items))
				continue
			}
			if st != "MG" || len(c.Items) == 0 {
				continue // PE's 10/2024 costs do not come from the 08/2026 structure
			}
			// The published cost is Σ trunc₂(coefficient × unit price) of
			// the structure as the API serves it.
			var sum [2]decimal.Decimal
			for i, x := range structure {
				s := x.(obj)
				coef := decimal.RequireFromString(num(t, s["coefficient"]))
				if s["code"] != c.Items[i].Code || !coef.Equal(c.Items[i].Coefficient) || s["missing"] != false {
					t.Errorf("MG %s structure item %d: %v", c.Code, i, s)
				}
				sum[0] = sum[0].Add(coef.Mul(decimal.RequireFromString(num(t, s["unitary_pnd"]))).Truncate(2))
				sum[1] = sum[1].Add(coef.Mul(decimal.RequireFromString(num(t, s["unitary_pd"]))).Truncate(2))
			}
			if !sum[0].Equal(c.Cost.PND) || !sum[1].Equal(c.Cost.PD) {
				t.Errorf("MG %s: the structure totals %s / %s, published %s / %s", c.Code, sum[0], sum[1], c.Cost.PND, c.Cost.PD)
			}
		}
	}
	// PE prices its labour insumos in the desonerado regime only (see
	// workbooktest.Real): their não desonerado price is null in both APIs,
	// never 0. States with blank columns have no edition.
	peRes := map[string]*decimal.Decimal{}
	for _, r := range want["PE"].Resources {
		peRes[r.Code] = &r.Prices.PD
	}
	for _, code := range []string{"7153", "12868", "37666"} {
		p := attrs(t, expect(t, h.Do("GET", banks+"/SINAPI-PE-2026-08/items/"+code+"?kind=resource", u.Token, ""), 200))["prices"].(obj)
		if p["pnd"] != nil || p["pndi"] != nil || !sameMoney([]string{num(t, p["pd"]), num(t, p["pdi"])}, []string{peRes[code].String(), peRes[code].String()}) {
			t.Errorf("PE %s prices %v: pnd null, pd %s", code, p, peRes[code])
		}
		v1 := v1Item(t, h, u.Token, v1Find+"&state=PE&kind=resource&code="+code, 200)
		if v1["unitary_pnd"] != nil || !sameMoney([]string{numText(v1["unitary_pd"])}, []string{peRes[code].String()}) {
			t.Errorf("PE %s v1 %v", code, v1)
		}
	}
	errorsOf(t, h.Do("GET", banks+"/SINAPI-SP-2026-08", u.Token, ""), 404)
	if a := attrs(t, expect(t, h.Do("GET", banks+"/SINAPI-PE-2026-08", u.Token, ""), 200)); num(t, a["resources"]) != "19" || num(t, a["compositions"]) != "8" {
		t.Errorf("PE edition %v", a)
	}

	// The own composition is priced from the workbook's MG edition: the same
	// figures.
	if got := ownPrice(attrs(t, expect(t, h.Do("GET", compositions+"/"+id, u.Token, ""), 200))); !sameMoney(got[:], []string{"113.33", "110.13"}) {
		t.Errorf("own composition after the import: %v", got)
	}

	// The month again, corrected: 34586 costs 3.00 in MG, and MG no longer
	// prices 87286. The edition is replaced: 87286 is gone (the bank
	// composition reads it as missing), and the own composition is
	// re-priced: 15.37 × 3.00 = 46.11 for 34586 (it was 40.26), nothing for
	// 87286 (it was 12.48 / 12.31).
	for i := range wb.Insumos {
		if wb.Insumos[i].Code == "34586" {
			wb.Insumos[i].Prices["MG"] = [2]string{"3.00", "3.00"}
		}
	}
	for i := range wb.Compositions {
		if wb.Compositions[i].Code == "87286" {
			delete(wb.Compositions[i].Costs, "MG")
		}
	}
	importWorkbook(t, h, wb)
	errorsOf(t, h.Do("GET", banks+"/SINAPI-MG-2026-08/items/87286", u.Token, ""), 404)
	expect(t, h.Do("GET", banks+"/SINAPI-PE-2026-08/items/87286", u.Token, ""), 200)
	a = attrs(t, expect(t, h.Do("GET", compositions+"/"+id, u.Token, ""), 200))
	if got := ownPrice(a); !sameMoney(got[:], []string{"106.70", "103.67"}) {
		t.Errorf("own composition after the re-import: %v, want 106.70 / 103.67", got)
	}
	if m, ok := a["missing"]; ok {
		if b, _ := json.Marshal(m); !bytes.Contains(b, []byte(`"87286"`)) {
			t.Errorf("missing %s does not name 87286", b)
		}
	}
	structure := attrs(t, expect(t, h.Do("GET", banks+"/SINAPI-MG-2026-08/items/89306", u.Token, ""), 200))["structure"].([]any)
	for _, x := range structure {
		if s := x.(obj); (s["code"] == "87286") != (s["missing"] == true) {
			t.Errorf("89306's structure item %v: only 87286 is missing", s)
		}
	}
}

// v1Item reads a v1 find_by_code answer.
func v1Item(t *testing.T, h *apitest.Harness, token, path string, status int) map[string]any {
	t.Helper()
	r := h.Do("GET", path, token, "")
	if r.Status != status {
		t.Fatalf("GET %s: status %d, want %d\n%s", path, r.Status, status, r.Body)
	}
	if status != http.StatusOK {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	dec.UseNumber()
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func numText(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return ""
}

// sameMoney compares amounts as numbers (the APIs write 2.6 for 2.60); ""
// is null and equals only "".
func sameMoney(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] == "" || want[i] == "" {
			if got[i] != want[i] {
				return false
			}
			continue
		}
		g, err := decimal.NewFromString(got[i])
		if err != nil || !g.Equal(decimal.RequireFromString(want[i])) {
			return false
		}
	}
	return true
}
