package v2_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

const searchURL = base + "/search"

// importSearchExtra imports, besides the sample (whose SINAPI MG 08/2026
// compositions 89282–89306 are ALVENARIA ESTRUTURAL DE BLOCOS CERÂMICOS
// 14X19X… and whose SICRO3 AL 01/2024 has blocos de concreto), SINAPI PE
// 08/2026 with the resource BLOCO CERÂMICO VAZADO… 14 X 19 X 39 CM, and
// SINAPI MG 07/2026, older than the sample's month, with a shorter one.
func importSearchExtra(t *testing.T, h *apitest.Harness) {
	t.Helper()
	d := decimal.RequireFromString
	both := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	pe := app.EditionData{
		Edition: domain.Edition{Bank: "SINAPI", State: "PE", Month: "08/2026", Regimes: both, Source: "test"},
		Resources: []*domain.BankResource{
			{Code: "7266", Description: "BLOCO CERÂMICO VAZADO PARA ALVENARIA DE VEDAÇÃO, 14 X 19 X 39 CM", Unit: "UN", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: d("1.2"), PD: d("1.2")}},
			{Code: "370", Description: "AREIA MÉDIA", Unit: "M3", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: d("100"), PD: d("100")}},
		},
	}
	jul := app.EditionData{
		Edition:   domain.Edition{Bank: "SINAPI", State: "MG", Month: "07/2026", Regimes: both, Source: "test"},
		Resources: []*domain.BankResource{{Code: "7266", Description: "BLOCO CERAMICO 14X19", Unit: "UN", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: d("1"), PD: d("1")}}},
	}
	if _, err := h.App.ImportEditions(context.Background(), []app.EditionData{pe, jul}); err != nil {
		t.Fatal(err)
	}
}

// hits lists a search answer's hits as "<id> <matched>/<words>".
func hits(t *testing.T, doc obj) []string {
	t.Helper()
	out := []string{}
	for _, x := range doc["data"].([]any) {
		o := x.(obj)
		if o["type"] != "search_hits" {
			t.Errorf("type %v", o["type"])
		}
		a := o["attributes"].(obj)
		out = append(out, str(o["id"])+" "+num(t, a["matched"])+"/"+num(t, a["words"]))
	}
	return out
}

func searchFor(q string, params ...string) string {
	return searchURL + "?q=" + url.QueryEscape(q) + strings.Join(params, "")
}

func TestSearch(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	other := h.AddUser("Construtora Beta", "bia@beta.com.br")
	// An import shows in the next answer (cached answers are kept under
	// the generation an import moves on).
	if doc := expect(t, h.Do("GET", searchFor("bloco ceramico", "&state=PE"), u.Token, ""), 200); total(t, doc) != "0" {
		t.Fatalf("PE before its import: %v", hits(t, doc))
	}
	importSearchExtra(t, h)

	// The three spellings find BLOCO CERÂMICO with both words.
	for _, q := range []string{"BLOCO CERAMICO", "ceramico bloco", "blóco ceramico"} {
		doc := expect(t, h.Do("GET", searchFor(q, "&state=pe"), u.Token, ""), 200)
		if got := hits(t, doc); len(got) != 1 || got[0] != "SINAPI-PE-2026-08:R:7266 2/2" {
			t.Errorf("%q in PE: %v", q, got)
		}
		a := doc["data"].([]any)[0].(obj)["attributes"].(obj)
		want := obj{"bank": "SINAPI", "state": "PE", "month": "08/2026", "region": "", "kind": "resource", "code": "7266",
			"description": "BLOCO CERÂMICO VAZADO PARA ALVENARIA DE VEDAÇÃO, 14 X 19 X 39 CM", "unit": "UN"}
		for k, v := range want {
			if a[k] != v {
				t.Errorf("%q: %s = %v, want %v", q, k, a[k], v)
			}
		}
		if cmp.Diff([]any{"nao-desonerado", "desonerado"}, a["regimes"]) != "" {
			t.Errorf("regimes %v", a["regimes"])
		}
	}

	// Ranking: every word, then the shorter description, then code; the
	// newest month of each bank and state unless edition=all.
	q := "bloco ceramico 14x19"
	doc := expect(t, h.Do("GET", searchFor(q), u.Token, ""), 200)
	got := hits(t, doc)
	// The sample's real SINAPI MG insumos: BLOCO ESTRUTURAL CERAMICO DE 14
	// X 19 X 29 CM… (34586), … 14 X 19 X 39 CM… (34588), and longer ones.
	want := []string{"SINAPI-PE-2026-08:R:7266 4/4", "SINAPI-MG-2026-08:R:34586 4/4", "SINAPI-MG-2026-08:R:34588 4/4",
		"SINAPI-MG-2026-08:R:38603 4/4", "SINAPI-MG-2026-08:R:34781 4/4", "SINAPI-MG-2026-08:R:34788 4/4",
		"SINAPI-MG-2026-08:C:89282 4/4", "SINAPI-MG-2026-08:C:89290 4/4"}
	if len(got) < len(want) || cmp.Diff(want, got[:len(want)]) != "" {
		t.Fatalf("ranking:\n%s", strings.Join(got, "\n"))
	}
	for i := 1; i < len(got); i++ {
		if got[i-1][strings.LastIndexByte(got[i-1], ' '):] < got[i][strings.LastIndexByte(got[i], ' '):] {
			t.Errorf("%s before %s: fewer words first", got[i-1], got[i])
		}
	}
	for _, g := range got {
		if strings.HasPrefix(g, "SINAPI-MG-2026-07") {
			t.Errorf("an older edition in the default scope: %s", g)
		}
	}
	totalAll := total(t, doc)
	first := doc["data"].([]any)[0].(obj)
	item := first["relationships"].(obj)["item"].(obj)
	related := str(item["links"].(obj)["related"])
	if related != base+"/banks/SINAPI-PE-2026-08/items/7266?kind=resource" {
		t.Errorf("item link %q", related)
	}
	if a := attrs(t, expect(t, h.Do("GET", related, u.Token, ""), 200)); a["code"] != "7266" {
		t.Errorf("the item's link answers %v", a)
	}
	if rel := first["relationships"].(obj)["bank"].(obj)["links"].(obj)["related"]; rel != base+"/banks/SINAPI-PE-2026-08" {
		t.Errorf("bank link %v", rel)
	}
	all := hits(t, expect(t, h.Do("GET", searchFor(q, "&edition=all"), u.Token, ""), 200))
	if all[0] != "SINAPI-MG-2026-07:R:7266 4/4" {
		t.Errorf("edition=all: the shortest description first, got %v", all)
	}

	// Filters.
	for _, c := range []struct{ params, prefix string }{
		{"&kind=composition", ":C:"}, {"&kind=resource", ":R:"}, {"&bank=sicro3", "SICRO3-AL-2024-01:"}, {"&state=MG", "SINAPI-MG-2026-08:"},
	} {
		got := hits(t, expect(t, h.Do("GET", searchFor(q, c.params), u.Token, ""), 200))
		if len(got) == 0 {
			t.Errorf("%s: nothing found", c.params)
		}
		for _, g := range got {
			if !strings.Contains(g, c.prefix) {
				t.Errorf("%s: %s", c.params, g)
			}
		}
	}

	// Pages: page 2 of size 2 is the 3rd and 4th hit; the total and the
	// links as in the other lists.
	doc = expect(t, h.Do("GET", searchFor(q, "&page[size]=2&page[number]=2"), u.Token, ""), 200)
	if cmp.Diff(got2(want), hits(t, doc)) != "" || total(t, doc) != totalAll {
		t.Errorf("page 2: %v total %s, want %v total %s", hits(t, doc), total(t, doc), got2(want), totalAll)
	}
	links := doc["links"].(obj)
	if !strings.Contains(str(links["next"]), "page%5Bnumber%5D=3") || !strings.Contains(str(links["prev"]), "page%5Bnumber%5D=1") || !strings.Contains(str(links["self"]), "q=bloco+ceramico+14x19") {
		t.Errorf("links %v", links)
	}

	// Reference data: another company gets the same answer.
	a := h.Do("GET", searchFor(q), u.Token, "")
	b := h.Do("GET", searchFor(q), other.Token, "")
	if string(a.Body) != string(b.Body) {
		t.Errorf("another company's answer differs:\n%s\n%s", a.Body, b.Body)
	}
	// But the caller must be authenticated.
	if errs := errorsOf(t, h.Do("GET", searchFor(q), "", ""), 401); errs[0].Status != "401" {
		t.Errorf("without a token: %v", errs)
	}

	// Bad input: 400 naming each parameter, all at once.
	for _, c := range []struct {
		path   string
		params []string
	}{
		{searchURL, []string{"q"}},
		{searchFor(""), []string{"q"}},
		{searchFor("   "), []string{"q"}},
		{searchFor("de a e"), []string{"q"}},
		{searchFor(strings.Repeat("bloco ", 40)), []string{"q"}},
		{searchFor("a b c d e f g h i j k l m n o p q r s t u v w x y z aa bb cc dd ee ff gg hh ii jj kk ll mm"), []string{"q"}},
		{searchFor("", "&kind=budget&state=Minas&edition=old&page[size]=0"), []string{"page[size]", "edition", "q", "kind", "state"}},
		{searchFor("bloco", "&sort=code"), []string{"sort"}},
	} {
		errs := errorsOf(t, h.Do("GET", c.path, u.Token, ""), 400)
		var params []string
		for _, e := range errs {
			params = append(params, e.Parameter)
		}
		if cmp.Diff(c.params, params) != "" {
			t.Errorf("%s: parameters %v, want %v", c.path, params, c.params)
		}
	}
}

func got2(want []string) []string { return want[2:4] }
