package v2_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

const banks = base + "/banks"

// importExtra imports, besides the sample (SICRO3 AL 01/2024, SINAPI MG
// 08/2026), SINAPI MG 12/2023 (a month that sorts before 01/2024 only
// chronologically), with a code that is both a composition and a resource,
// a composition whose structure names an item the edition lacks, and codes
// with a space and a slash; and SINAPI MG 08/2026 region Norte.
func importExtra(t *testing.T, h *apitest.Harness) {
	t.Helper()
	d := func(s string) decimal.Decimal { return decimal.RequireFromString(s) }
	both := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	dec2023 := app.EditionData{
		Edition: domain.Edition{Bank: "SINAPI", State: "MG", Month: "12/2023", Regimes: []domain.Regime{domain.Desonerado}, Source: "test"},
		Resources: []*domain.BankResource{
			{Code: "7777", Description: "RECURSO DE CÓDIGO REPETIDO", Unit: "UN", Type: domain.TypeMaterial, Prices: domain.PriceLine{PD: d("1.5"), PDI: d("1.5")}},
			{Code: "AB 01", Description: "CÓDIGO COM ESPAÇO", Unit: "UN", Type: domain.TypeMaterial, Prices: domain.PriceLine{PD: d("2")}},
			{Code: "10/ORSE", Description: "CÓDIGO COM BARRA", Unit: "UN", Type: domain.TypeMaterial, Prices: domain.PriceLine{PD: d("3")}},
		},
		Compositions: []*domain.BankComposition{
			{Code: "7777", Description: "COMPOSIÇÃO DE CÓDIGO REPETIDO", Unit: "M2", Class: "PARE", Cost: domain.UnitPrice{PD: d("9.99")},
				Items: []domain.StructureItem{
					{Kind: domain.KindResource, Code: "7777", Coefficient: d("2")},
					{Kind: domain.KindResource, Code: "GONE", Coefficient: d("0.5")},
				}},
		},
	}
	north := app.EditionData{
		Edition:   domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026", Region: "Norte", Regimes: both, Source: "test"},
		Resources: []*domain.BankResource{{Code: "0001", Description: "AREIA", Unit: "M3", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: d("1"), PD: d("1")}}},
	}
	if _, err := h.App.ImportEditions(context.Background(), []app.EditionData{dec2023, north}); err != nil {
		t.Fatal(err)
	}
}

// ids lists the ids of a list document's data.
func ids(t *testing.T, doc obj) []string {
	t.Helper()
	list, ok := doc["data"].([]any)
	if !ok {
		t.Fatalf("data is not a list: %v", doc)
	}
	out := []string{}
	for _, x := range list {
		out = append(out, str(x.(obj)["id"]))
	}
	return out
}

// codes lists the codes of a list document of bank items.
func codes(t *testing.T, doc obj) []string {
	t.Helper()
	out := []string{}
	for _, x := range doc["data"].([]any) {
		out = append(out, str(x.(obj)["attributes"].(obj)["code"]))
	}
	return out
}

func total(t *testing.T, doc obj) string {
	t.Helper()
	return num(t, doc["meta"].(obj)["total"])
}

const (
	sinapiID   = "SINAPI-MG-2026-08"
	sicroID    = "SICRO3-AL-2024-01"
	dec2023ID  = "SINAPI-MG-2023-12"
	northID    = "SINAPI-MG-2026-08~Tk9SVEU" // base64url("NORTE")
	sinapiPath = banks + "/" + sinapiID
	sicroPath  = banks + "/" + sicroID
)

func TestBanksList(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	other := h.AddUser("Construtora Beta", "bia@beta.com.br")

	// Any company reads the sample editions, in key order.
	for _, tok := range []string{u.Token, other.Token} {
		doc := expect(t, h.Do("GET", banks, tok, ""), 200)
		if diff := cmp.Diff([]string{sicroID, sinapiID}, ids(t, doc)); diff != "" {
			t.Errorf("ids (-want +got):\n%s", diff)
		}
	}
	doc := expect(t, h.Do("GET", banks+"?filter[name]=sinapi", u.Token, ""), 200)
	a := doc["data"].([]any)[0].(obj)["attributes"].(obj)
	want := obj{
		"name": "SINAPI", "location": "MG", "version": "08/2026", "region": "",
		"regimes": []any{"nao-desonerado", "desonerado"}, "resources": "19", "compositions": "8", "structures": "5",
	}
	for k, v := range want {
		got := a[k]
		if n, ok := got.(interface{ String() string }); ok {
			got = n.String()
		}
		if diff := cmp.Diff(v, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", k, diff)
		}
	}
	if !strings.Contains(str(a["source"]), "SINAPI/CAIXA") || str(a["imported_at"]) == "" {
		t.Errorf("source %q, imported_at %q", a["source"], a["imported_at"])
	}
	first := doc["data"].([]any)[0].(obj)
	if self := first["links"].(obj)["self"]; self != sinapiPath {
		t.Errorf("links %v", first["links"])
	}
	if rel := first["relationships"].(obj)["items"].(obj)["links"].(obj)["related"]; rel != sinapiPath+"/items" {
		t.Errorf("relationships %v", first["relationships"])
	}

	// The extra editions are imported together, an hour from now: after the sample.
	later := time.Now().Add(time.Hour)
	h.App.Now = func() time.Time { return later }
	importExtra(t, h)
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"", []string{sicroID, dec2023ID, sinapiID, northID}},
		{"filter[bank]=SICRO3", []string{sicroID}},
		{"filter[location]=mg", []string{dec2023ID, sinapiID, northID}},
		{"filter[state]=SP", []string{}},
		{"filter[version]=08/2026", []string{sinapiID, northID}},
		{"filter[month]=12/2023", []string{dec2023ID}},
		{"filter[region]=norte", []string{northID}},
		{"filter[regime]=nao-desonerado", []string{sicroID, sinapiID, northID}},
		{"filter[regime]=desonerado&filter[name]=sinapi&filter[location]=MG", []string{dec2023ID, sinapiID, northID}},
		// Chronological: 12/2023 before 01/2024, though "01/2024" < "12/2023".
		{"sort=version,region", []string{dec2023ID, sicroID, sinapiID, northID}},
		{"sort=-month,location", []string{sinapiID, northID, sicroID, dec2023ID}},
		{"sort=location,-version", []string{sicroID, sinapiID, northID, dec2023ID}},
		{"sort=-name", []string{dec2023ID, sinapiID, northID, sicroID}},
		{"sort=-region", []string{northID, sicroID, dec2023ID, sinapiID}},
		{"sort=-imported_at,bank&page[size]=2", []string{dec2023ID, northID}},
		{"page[size]=3&page[number]=2", []string{northID}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			doc := expect(t, h.Do("GET", banks+"?"+tt.query, u.Token, ""), 200)
			if diff := cmp.Diff(tt.want, ids(t, doc)); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
	page := expect(t, h.Do("GET", banks+"?page[size]=3&page[number]=2&filter[location]=MG", u.Token, ""), 200)
	if total(t, page) != "3" || page["links"].(obj)["prev"] == nil {
		t.Errorf("page 2 of 3 editions by 3: %v", page)
	}

	for _, tt := range []struct{ query, param string }{
		{"filter[state]=XX", "filter[state]"},
		{"filter[version]=2026-08", "filter[version]"},
		{"filter[regime]=maybe", "filter[regime]"},
		{"filter[code]=1", "filter[code]"},
		{"filter[name]=SINAPI&filter[bank]=SINAPI", "filter[name]"},
		{"sort=code", "sort"},
		{"page[size]=0", "page[size]"},
		{"include=items", "include"},
	} {
		t.Run("400 "+tt.query, func(t *testing.T) {
			errs := errorsOf(t, h.Do("GET", banks+"?"+tt.query, u.Token, ""), 400)
			if errs[0].Parameter != tt.param && !(tt.param == "filter[name]" && errs[0].Parameter == "filter[bank]") {
				t.Errorf("errors %v, want one about %s", errs, tt.param)
			}
		})
	}
	if errs := errorsOf(t, h.Do("GET", banks, "", ""), 401); errs[0].Code != "unauthorized" {
		t.Errorf("no token: %v", errs)
	}
}

func TestBankDetail(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	importExtra(t, h)

	for _, id := range []string{sinapiID, strings.ToLower(sinapiID), "Sinapi-mg-2026-08"} {
		doc := expect(t, h.Do("GET", banks+"/"+id, u.Token, ""), 200)
		d := data(t, doc)
		if d["type"] != "banks" || d["id"] != sinapiID || num(t, attrs(t, doc)["resources"]) != "19" || d["links"].(obj)["self"] != sinapiPath {
			t.Errorf("GET %s: %v", id, d)
		}
	}
	doc := expect(t, h.Do("GET", banks+"/"+northID, u.Token, ""), 200)
	if a := attrs(t, doc); a["region"] != "Norte" || num(t, a["resources"]) != "1" || data(t, doc)["id"] != northID {
		t.Errorf("regional edition: %v", a)
	}
	if a := attrs(t, expect(t, h.Do("GET", banks+"/"+dec2023ID, u.Token, ""), 200)); cmp.Diff([]any{"desonerado"}, a["regimes"]) != "" {
		t.Errorf("an edition with one regime: regimes %v", a["regimes"])
	}

	for _, id := range []string{"SINAPI-MG-2026-09", "SINAPI-SP-2026-08", "SINAPI-XX-2026-08", "SINAPI-MG-2026-13", "nope", "-MG-2026-08", "SINAPI-MG-2026-08~", "SINAPI-MG-2026-08~!!", "SINAPI-MG-2026-08~U1VM"} {
		if errs := errorsOf(t, h.Do("GET", banks+"/"+id, u.Token, ""), 404); errs[0].Code != "not_found" {
			t.Errorf("GET %s: %v", id, errs)
		}
	}
	if errs := errorsOf(t, h.Do("GET", sinapiPath+"?page[size]=1", u.Token, ""), 400); errs[0].Parameter != "page[size]" {
		t.Errorf("a list parameter on one edition: %v", errs)
	}
	errorsOf(t, h.Do("GET", sinapiPath, "", ""), 401)
}

func TestBankItemsBrowse(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	importExtra(t, h)
	items := sinapiPath + "/items"

	doc := expect(t, h.Do("GET", items, u.Token, ""), 200)
	if total(t, doc) != "27" || len(doc["data"].([]any)) != 20 {
		t.Fatalf("SINAPI MG 08/2026 has 19 resources and 8 compositions; got total %s, %d on page 1", total(t, doc), len(doc["data"].([]any)))
	}
	// Code order, natural: 7153 before 12868.
	if got := codes(t, doc)[:3]; cmp.Diff([]string{"7153", "12868", "34556"}, got) != "" {
		t.Errorf("first codes %v", got)
	}
	first := doc["data"].([]any)[0].(obj)
	if first["type"] != "bank_items" || first["id"] != sinapiID+":R:7153" {
		t.Errorf("first item %v", first)
	}
	if rel := first["relationships"].(obj)["bank"].(obj); rel["data"].(obj)["type"] != "banks" || rel["data"].(obj)["id"] != sinapiID ||
		rel["links"].(obj)["related"] != base+"/banks/"+sinapiID {
		t.Errorf("bank relationship %v", rel)
	}
	if self := first["links"].(obj)["self"]; self != items+"/7153?kind=resource" {
		t.Errorf("self %v", self)
	}

	for _, tt := range []struct {
		path, query string
		want        []string
		total       string
	}{
		{items, "filter[code]=893", []string{"89306"}, "1"},
		{items, "filter[description]=alvenaria&filter[kind]=composition", []string{"87286", "89282", "89290", "89298", "89306", "89478"}, "6"},
		{items, "filter[description]=traco", []string{"87286"}, "1"},                                // TRAÇO
		{items, "filter[description]=cerâmicos", []string{"89282", "89290", "89298", "89306"}, "4"}, // CERÂMICOS, not CERAMICO
		{items, "filter[description]=horista&sort=-code", []string{"37666", "12868", "7153"}, "3"},
		{items, "filter[kind]=composition&page[size]=3&page[number]=3", []string{"89306", "89478"}, "8"},
		{items, "filter[kind]=resource&filter[code]=3859", []string{"38590", "38592", "38596", "38599"}, "4"},
		{items, "filter[search]=88309", []string{"88309"}, "1"},
		{items, "filter[unit]=h", []string{"7153", "12868", "37666", "88309", "88316"}, "5"},
		{items, "filter[kind]=composition&sort=-unit,description&page[size]=3", []string{"87286", "89478", "89306"}, "8"},
		{items, "page[size]=5&page[number]=7", []string{}, "27"},
		{sicroPath + "/items", "filter[code]=0307731", []string{"0307731"}, "1"},
		{sicroPath + "/items", "filter[code]=e90&sort=code&page[size]=2", []string{"E9001", "E9009"}, "9"},
		{sicroPath + "/items", "filter[description]=escavadeira", []string{"E9017"}, "1"},
		{banks + "/" + dec2023ID + "/items", "", []string{"10/ORSE", "7777", "7777", "AB 01"}, "4"},
		{banks + "/" + dec2023ID + "/items", "filter[kind]=resource&sort=-kind,-code", []string{"AB 01", "7777", "10/ORSE"}, "3"},
	} {
		t.Run(tt.path+"?"+tt.query, func(t *testing.T) {
			doc := expect(t, h.Do("GET", tt.path+"?"+tt.query, u.Token, ""), 200)
			if diff := cmp.Diff(tt.want, codes(t, doc)); diff != "" {
				t.Errorf("codes (-want +got):\n%s", diff)
			}
			if got := total(t, doc); got != tt.total {
				t.Errorf("total %s, want %s", got, tt.total)
			}
		})
	}

	// A list entry counts a composition's structure and leaves it out.
	doc = expect(t, h.Do("GET", items+"?filter[code]=89306", u.Token, ""), 200)
	a := doc["data"].([]any)[0].(obj)["attributes"].(obj)
	if diff := cmp.Diff([]string{"code", "composition_type", "description", "kind", "prices", "structure_items", "unit"}, keys(a)); diff != "" {
		t.Errorf("list entry attributes (-want +got):\n%s", diff)
	}
	if num(t, a["structure_items"]) != "6" {
		t.Errorf("structure_items %v", a["structure_items"])
	}
	// The same code as a composition and a resource: composition first.
	doc = expect(t, h.Do("GET", banks+"/"+dec2023ID+"/items?filter[code]=7777", u.Token, ""), 200)
	if diff := cmp.Diff([]string{dec2023ID + ":C:7777", dec2023ID + ":R:7777"}, ids(t, doc)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}

	for _, tt := range []struct{ query, param string }{
		{"filter[kind]=both", "filter[kind]"},
		{"filter[code]=", "filter[code]"},
		{"filter[location]=MG", "filter[location]"},
		{"sort=price", "sort"},
		{"page[number]=0", "page[number]"},
		{"kind=resource", "kind"},
	} {
		t.Run("400 "+tt.query, func(t *testing.T) {
			if errs := errorsOf(t, h.Do("GET", items+"?"+tt.query, u.Token, ""), 400); errs[0].Parameter != tt.param {
				t.Errorf("errors %v, want one about %s", errs, tt.param)
			}
		})
	}
	errorsOf(t, h.Do("GET", banks+"/SINAPI-MG-2026-09/items", u.Token, ""), 404)
	errorsOf(t, h.Do("GET", banks+"/nope/items", u.Token, ""), 404)
	errorsOf(t, h.Do("GET", items, "", ""), 401)
}

func TestBankItemLookup(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	importExtra(t, h)
	items := sinapiPath + "/items/"

	// 89306 with its six published items, each priced from the edition.
	doc := expect(t, h.Do("GET", items+"89306", u.Token, ""), 200)
	d := data(t, doc)
	if d["id"] != sinapiID+":C:89306" || d["links"].(obj)["self"] != items+"89306?kind=composition" {
		t.Errorf("id %v, links %v", d["id"], d["links"])
	}
	a := attrs(t, doc)
	if a["kind"] != "composition" || a["unit"] != "M2" || !strings.HasPrefix(str(a["description"]), "ALVENARIA ESTRUTURAL DE BLOCOS CERÂMICOS 14X19X29") {
		t.Errorf("attributes %v", a)
	}
	prices := a["prices"].(obj)
	if diff := cmp.Diff([]string{"pd", "pnd"}, keys(prices)); diff != "" || num(t, prices["pnd"]) != "113.33" || num(t, prices["pd"]) != "110.13" {
		t.Errorf("prices %v", prices)
	}
	type line struct{ Kind, Code, Type, Unit, Coef, PND, PD string }
	var got []line
	sum := [2]decimal.Decimal{}
	for i, x := range a["structure"].([]any) {
		s := x.(obj)
		if num(t, s["position"]) != string(rune('1'+i)) || s["missing"] != false || str(s["description"]) == "" {
			t.Errorf("structure item %d: %v", i, s)
		}
		l := line{str(s["kind"]), str(s["code"]), str(s["type"]), str(s["unit"]), num(t, s["coefficient"]), num(t, s["unitary_pnd"]), num(t, s["unitary_pd"])}
		got = append(got, l)
		// Caixa's rule: Σ trunc₂(coefficient × unit price) is the published cost.
		coef := decimal.RequireFromString(l.Coef)
		sum[0] = sum[0].Add(coef.Mul(decimal.RequireFromString(l.PND)).Truncate(2))
		sum[1] = sum[1].Add(coef.Mul(decimal.RequireFromString(l.PD)).Truncate(2))
	}
	want := []line{
		{"composition", "88316", "", "H", "0.6505", "24.88", "23.58"},
		{"composition", "88309", "", "H", "1.1152", "33.62", "31.67"},
		{"composition", "87286", "", "M3", "0.0175", "713.59", "703.92"},
		{"resource", "34788", "4", "UN", "1.54", "1.61", "1.61"},
		{"resource", "34649", "4", "UN", "1.28", "3.48", "3.48"},
		{"resource", "34586", "4", "UN", "15.37", "2.62", "2.62"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("structure (-want +got):\n%s", diff)
	}
	if sum[0].String() != "113.33" || sum[1].String() != "110.13" {
		t.Errorf("the structure totals %s / %s, not the published cost 113.33 / 110.13", sum[0], sum[1])
	}

	// 88309: a composition whose structure was not imported.
	a = attrs(t, expect(t, h.Do("GET", items+"88309", u.Token, ""), 200))
	if p := a["prices"].(obj); num(t, p["pnd"]) != "33.62" || num(t, p["pd"]) != "31.67" {
		t.Errorf("88309 prices %v", p)
	}
	if s, ok := a["structure"].([]any); !ok || len(s) != 0 || num(t, a["structure_items"]) != "0" {
		t.Errorf("88309 structure %v (%d items)", a["structure"], len(s))
	}

	// SICRO: the leading zero stays; E9017, equipment, has four prices.
	doc = expect(t, h.Do("GET", sicroPath+"/items/0307731", u.Token, ""), 200)
	if a := attrs(t, doc); a["code"] != "0307731" || a["unit"] != "dm³" || num(t, a["prices"].(obj)["pnd"]) != "112.02" || data(t, doc)["id"] != sicroID+":C:0307731" {
		t.Errorf("0307731: %v", a)
	}
	errorsOf(t, h.Do("GET", sicroPath+"/items/307731", u.Token, ""), 404)
	doc = expect(t, h.Do("GET", sicroPath+"/items/E9017?kind=resource", u.Token, ""), 200)
	a = attrs(t, doc)
	if diff := cmp.Diff([]string{"code", "description", "kind", "prices", "resource_type", "unit"}, keys(a)); diff != "" {
		t.Errorf("resource attributes (-want +got):\n%s", diff)
	}
	p := a["prices"].(obj)
	if a["kind"] != "resource" || num(t, a["resource_type"]) != "1" || a["unit"] != "h" ||
		num(t, p["pnd"]) != "185.4888" || num(t, p["pd"]) != "182.3921" || num(t, p["pndi"]) != "92.8898" || num(t, p["pdi"]) != "89.7931" {
		t.Errorf("E9017: %v", a)
	}

	// One code, two kinds: the composition unless kind says otherwise.
	ed := banks + "/" + dec2023ID + "/items/"
	if a := attrs(t, expect(t, h.Do("GET", ed+"7777", u.Token, ""), 200)); a["kind"] != "composition" || a["composition_type"] != "PARE" {
		t.Errorf("7777: %v", a)
	}
	if a := attrs(t, expect(t, h.Do("GET", ed+"7777?kind=resource", u.Token, ""), 200)); a["kind"] != "resource" || num(t, a["prices"].(obj)["pd"]) != "1.5" {
		t.Errorf("7777 as a resource: %v", a)
	}
	// A structure item the edition lacks is missing, its prices null (never 0).
	s := attrs(t, expect(t, h.Do("GET", ed+"7777?kind=composition", u.Token, ""), 200))["structure"].([]any)
	if len(s) != 2 || s[0].(obj)["missing"] != false || s[1].(obj)["missing"] != true || s[1].(obj)["description"] != "" ||
		s[1].(obj)["unitary_pd"] != nil || s[1].(obj)["unitary_pnd"] != nil {
		t.Errorf("structure with a missing item: %v", s)
	}
	// Codes with a space, in the path percent-encoded.
	if a := attrs(t, expect(t, h.Do("GET", ed+"AB%2001", u.Token, ""), 200)); a["code"] != "AB 01" {
		t.Errorf("AB 01: %v", a)
	}

	for _, tt := range []struct{ path, param string }{
		{items + "89306?kind=both", "kind"},
		{items + "89306?kind=", "kind"},
		{items + "89306?filter[code]=1", "filter[code]"},
	} {
		if errs := errorsOf(t, h.Do("GET", tt.path, u.Token, ""), 400); errs[0].Parameter != tt.param {
			t.Errorf("GET %s: %v", tt.path, errs)
		}
	}
	for _, path := range []string{
		items + "89306?kind=resource", // a composition only
		sicroPath + "/items/E9017?kind=composition",
		items + "99999",
		banks + "/SINAPI-MG-2026-09/items/89306",
		banks + "/nope/items/89306",
	} {
		if errs := errorsOf(t, h.Do("GET", path, u.Token, ""), 404); errs[0].Code != "not_found" {
			t.Errorf("GET %s: %v", path, errs)
		}
	}
	errorsOf(t, h.Do("GET", items+"89306", "", ""), 401)
}

// TestBankItemCodeWithSlash sends a code holding "/" as %2F. The request
// goes around the harness's contract check, whose router cannot tell %2F
// from a path separator.
func TestBankItemCodeWithSlash(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	importExtra(t, h)
	req, err := http.NewRequest("GET", h.URL+banks+"/"+dec2023ID+"/items/10%2FORSE", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+u.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	doc := expect(t, &apitest.Response{Status: resp.StatusCode, Header: resp.Header, Body: b}, 200)
	if a := attrs(t, doc); a["code"] != "10/ORSE" || data(t, doc)["links"].(obj)["self"] != banks+"/"+dec2023ID+"/items/10%2FORSE?kind=resource" {
		t.Errorf("10/ORSE: %v %v", a, data(t, doc)["links"])
	}
}
