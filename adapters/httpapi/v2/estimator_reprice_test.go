package v2_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

const peDir = "../../bankfiles/testdata/sinapi-pe-202410/"

// importPE imports the real SINAPI PE 10/2024 edition into the harness.
func importPE(t *testing.T, h *apitest.Harness) {
	t.Helper()
	im, err := bankfiles.NewImporter(bankfiles.OfficialSinapi(), "PE", "10/2024")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv",
		"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_Desonerado.csv",
		"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_NaoDesonerado.csv"} {
		if _, err := im.AddFile(context.Background(), peDir+f); err != nil {
			t.Fatal(err)
		}
	}
	eds, err := im.Editions()
	if err != nil {
		t.Fatal(err)
	}
	data := make([]app.EditionData, len(eds))
	for i, e := range eds {
		data[i] = app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}
	}
	if _, err := h.App.ImportEditions(context.Background(), data); err != nil {
		t.Fatal(err)
	}
}

// officialPrice reads a price from one of Caixa's CSV reports by hand:
// the row whose code column is code, the money column, decimal comma.
func officialPrice(t *testing.T, file, codeCol, priceCol, code string) (decimal.Decimal, bool) {
	t.Helper()
	raw, err := os.ReadFile(peDir + file)
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(raw))
	r.Comma, r.FieldsPerRecord, r.LazyQuotes = ';', -1, true
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	ci, pi := -1, -1
	for i, h := range rows[0] {
		switch strings.TrimSpace(h) {
		case codeCol:
			ci = i
		case priceCol:
			pi = i
		}
	}
	for _, row := range rows[1:] {
		if len(row) > pi && strings.TrimSpace(row[ci]) == code {
			return d(strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(row[pi]), ".", ""), ",", ".")), true
		}
	}
	return decimal.Zero, false
}

// Re-pricing the sample budget (SINAPI MG 08/2026, não desonerado, BDI 25%
// on the unit price, truncating) against the real SINAPI PE 10/2024: every
// figure recomputed here from the official files, to the centavo.
func TestRepriceBetweenRealEditions(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	importPE(t, h)
	original := expect(t, h.Do("GET", budgets+"/"+f.id, tok, ""), 200)

	peComp := func(regime, code string) (decimal.Decimal, bool) {
		return officialPrice(t, "SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_"+regime+".csv", "CODIGO  DA COMPOSICAO", "CUSTO TOTAL", code)
	}
	peRes := func(code string) (decimal.Decimal, bool) {
		return officialPrice(t, "SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv", "CODIGO", "PRECO MEDIANO R$", code)
	}
	type line struct{ node, number, code, qty, before string }
	lines := []line{{"n2", "1.1", "89306", "120.5", "113.33"}, {"n3", "1.2", "89478", "33.25", "155.85"}, {"n5", "2.1", "34586", "1000", "2.62"}}
	withBDI := func(unit decimal.Decimal, qty string) decimal.Decimal {
		return unit.Mul(d("1.25")).Truncate(2).Mul(d(qty)).Truncate(2)
	}

	for _, tc := range []struct {
		name, body, regime string
		lacking            []string
	}{
		// Não desonerado: PE 10/2024 publishes no não desonerado insumo
		// prices, so resource 34586 is a line the target lacks.
		{"não desonerado", `{"location":"PE","banks":[{"name":"SINAPI","location":"PE","version":"10/2024"}]}`, "NaoDesonerado", []string{"n5"}},
		{"desonerado", `{"data":{"type":"budget-reprices","attributes":{"location":"PE","desonerado":true,"banks":[{"name":"SINAPI","location":"PE","version":"10/2024"}]}}}`, "Desonerado", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := expect(t, h.Do("POST", budgets+"/"+f.id+"/reprice/preview", tok, tc.body), 200)
			type row struct{ Node, UnitBefore, UnitAfter, UnitDiff, UnitPct, TotBefore, TotAfter, TotDiff string }
			var want []row
			var totBefore, totAfter decimal.Decimal
			stageBefore, stageAfter := map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
			for _, l := range lines {
				before := d(l.before)
				after, ok := peComp(tc.regime, l.code)
				if l.code == "34586" {
					after, ok = peRes(l.code)
					ok = ok && tc.regime == "Desonerado"
				}
				r := row{Node: l.node, UnitBefore: before.StringFixed(2), TotBefore: withBDI(before, l.qty).StringFixed(2)}
				ta := decimal.Zero
				if ok {
					ta = withBDI(after, l.qty)
					r.UnitAfter, r.UnitDiff = after.StringFixed(2), after.Sub(before).StringFixed(2)
					r.UnitPct = after.Sub(before).Mul(d("100")).Div(before).Round(2).StringFixed(2)
				}
				r.TotAfter, r.TotDiff = ta.StringFixed(2), ta.Sub(withBDI(before, l.qty)).StringFixed(2)
				want = append(want, r)
				totBefore, totAfter = totBefore.Add(withBDI(before, l.qty)), totAfter.Add(ta)
				stage := l.number[:1]
				stageBefore[stage], stageAfter[stage] = stageBefore[stage].Add(withBDI(before, l.qty)), stageAfter[stage].Add(ta)
			}
			sort.SliceStable(want, func(i, j int) bool {
				return d(want[i].TotDiff).Abs().GreaterThan(d(want[j].TotDiff).Abs())
			})
			var got []row
			for _, x := range doc["data"].([]any) {
				a := x.(obj)["attributes"].(obj)
				r := row{Node: str(a["node_id"]), UnitBefore: num(t, a["unit_price_before"]), TotBefore: num(t, a["total_with_bdi_before"]),
					TotAfter: num(t, a["total_with_bdi_after"]), TotDiff: num(t, a["total_diff"])}
				if a["unit_price_after"] != nil {
					r.UnitAfter, r.UnitDiff, r.UnitPct = num(t, a["unit_price_after"]), num(t, a["unit_diff"]), num(t, a["unit_diff_pct"])
				}
				got = append(got, r)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("lines, by impact (-recomputed +served):\n%s", diff)
			}
			meta := doc["meta"].(obj)
			if num(t, meta["before"].(obj)["total_with_bdi"]) != totBefore.StringFixed(2) || num(t, meta["after"].(obj)["total_with_bdi"]) != totAfter.StringFixed(2) ||
				num(t, meta["diff"]) != totAfter.Sub(totBefore).StringFixed(2) {
				t.Errorf("totals %v / %v / %v, recomputed %s / %s", meta["before"], meta["after"], meta["diff"], totBefore.StringFixed(2), totAfter.StringFixed(2))
			}
			for _, s := range meta["stages"].([]any) {
				so := s.(obj)
				n := str(so["number"])
				if num(t, so["before"]) != stageBefore[n].StringFixed(2) || num(t, so["after"]) != stageAfter[n].StringFixed(2) {
					t.Errorf("stage %s: %v, recomputed %s → %s", n, so, stageBefore[n].StringFixed(2), stageAfter[n].StringFixed(2))
				}
			}
			var lacking []string
			for _, x := range meta["lacking"].([]any) {
				lacking = append(lacking, str(x))
			}
			if lacking == nil {
				lacking = []string{}
			}
			if diff := cmp.Diff(tc.lacking, lacking); diff != "" {
				t.Errorf("lacking (-want +got):\n%s", diff)
			}

			// The same as CSV: the first line is the one of largest impact.
			r := h.Do("POST", budgets+"/"+f.id+"/reprice/preview?format=csv", tok, tc.body)
			if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
				t.Fatalf("CSV: %d %s", r.Status, r.Header.Get("Content-Type"))
			}
			rows := readCSVBody(t, r.Body)
			if rows[1][0] != map[string]string{"n2": "1.1", "n3": "1.2", "n5": "2.1"}[want[0].Node] ||
				rows[1][14] != strings.Replace(want[0].TotDiff, ".", ",", 1) {
				t.Errorf("CSV first line %v, want %v", rows[1], want[0])
			}
			last := rows[len(rows)-1]
			if last[3] != "Total com BDI" || last[13] != strings.Replace(totAfter.StringFixed(2), ".", ",", 1) {
				t.Errorf("CSV total row %v", last)
			}
		})
	}

	// Applying: the lacking line refuses the new budget unless dropped; the
	// original never changes.
	target := `"location":"PE","banks":[{"name":"SINAPI","location":"PE","version":"10/2024"}]`
	got := errorsOf(t, h.Do("POST", budgets+"/"+f.id+"/reprice", tok, `{`+target+`,"code":"ORC-PE"}`), 422)
	if cmp.Diff([]apiError{{"422", "invalid", "/items/1/items/0/code", ""}}, got) != "" {
		t.Errorf("apply with a lacking line: %v", got)
	}
	nb := create2(t, h, budgets+"/"+f.id+"/reprice", tok, `{`+target+`,"code":"ORC-PE","drop_missing":true}`)
	na := attrs(t, nb)
	p1, _ := peComp("NaoDesonerado", "89306")
	p2, _ := peComp("NaoDesonerado", "89478")
	wantTotal := withBDI(p1, "120.5").Add(withBDI(p2, "33.25"))
	if na["code"] != "ORC-PE" || na["location"] != "PE" || num(t, na["total_with_bdi"]) != wantTotal.StringFixed(2) || num(t, na["lines"]) != "2" {
		t.Errorf("re-priced budget %v, want total with BDI %s", na, wantTotal.StringFixed(2))
	}
	if diff := cmp.Diff(original, expect(t, h.Do("GET", budgets+"/"+f.id, tok, ""), 200)); diff != "" {
		t.Errorf("the original budget changed (-before +after):\n%s", diff)
	}

	for _, tc := range []struct {
		name, body string
		status     int
		want       []apiError
	}{
		{"a bank the budget does not use", `{"banks":[{"name":"SICRO3","location":"AL","version":"01/2024"}]}`, 422, []apiError{{"422", "invalid", "/banks/0/name", ""}}},
		{"an edition not imported", `{"banks":[{"name":"SINAPI","location":"PE","version":"01/2020"}]}`, 422, []apiError{{"422", "invalid", "/banks/0", ""}}},
		{"a bad state", `{"location":"XX"}`, 422, []apiError{{"422", "invalid", "/location", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := errorsOf(t, h.Do("POST", budgets+"/"+f.id+"/reprice/preview", tok, tc.body), tc.status)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
	errorsOf(t, h.Do("POST", budgets+"/"+f.id+"/reprice/preview", f.other.Token, `{}`), 404)
}

// readCSVBody reads an export (BOM, ";").
func readCSVBody(t *testing.T, b []byte) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("\ufeff"))))
	r.Comma, r.FieldsPerRecord = ';', -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
