package v2_test

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// items89306 are the real items of SINAPI 89306 (MG 08/2026).
const items89306 = `{"items":[
	{"bank":"SINAPI","code":"88316","quantity":0.6505,"resource":false},
	{"bank":"SINAPI","code":"88309","quantity":1.1152,"resource":false},
	{"bank":"SINAPI","code":"87286","quantity":0.0175,"resource":false},
	{"bank":"SINAPI","code":"34788","quantity":1.54,"resource":true},
	{"bank":"SINAPI","code":"34649","quantity":1.28,"resource":true},
	{"bank":"SINAPI","code":"34586","quantity":15.37,"resource":true}
]}`

// TestSinapiCompositionOverHTTP is the acceptance test: through HTTP only,
// a client authenticates, builds SINAPI 89306 from its real items, and gets
// Caixa's published prices to the centavo.
func TestSinapiCompositionOverHTTP(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")

	auth := expect(t, h.Do("POST", base+"/authenticate", "", `{"email":"ana@alfa.com.br","secret_token":"`+u.Secret+`"}`), 200)
	token := str(attrs(t, auth)["access_token"])

	id := sinapiComposition(t, h, token, "ALV-001")
	doc := expect(t, h.Do("POST", compositions+"/"+id+"/add_banks", token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`), 200)
	if diff := cmp.Diff(obj{"SINAPI": obj{"estado": "MG", "data": "08/2026", "relatorio": false}}, attrs(t, doc)["banks"]); diff != "" {
		t.Errorf("banks (-want +got):\n%s", diff)
	}

	r := h.Do("POST", compositions+"/"+id+"/add_items", token, items89306)
	a := attrs(t, expect(t, r, 200))
	prices := a["prices"].(obj)
	if got := num(t, prices["pnd"]); got != "113.33" {
		t.Errorf("prices.pnd = %s, want 113.33", got)
	}
	if got := num(t, prices["pd"]); got != "110.13" {
		t.Errorf("prices.pd = %s, want 110.13", got)
	}
	items := a["items"].(obj)
	want := []string{"SINAPI:C:87286", "SINAPI:C:88309", "SINAPI:C:88316", "SINAPI:R:34586", "SINAPI:R:34649", "SINAPI:R:34788"}
	if diff := cmp.Diff(want, keys(items)); diff != "" {
		t.Fatalf("item ids (-want +got):\n%s", diff)
	}
	pedreiro := items["SINAPI:C:88309"].(obj)
	wantItem := obj{
		"banco": "SINAPI", "code": "88309", "description": "PEDREIRO COM ENCARGOS COMPLEMENTARES",
		"type": pedreiro["type"], "unit": "H",
		"unitary_pnd": "33.62", "unitary_pd": "31.67", "coefficient": "1.1152",
		"pnd": "37.49", "pd": "35.31", "is_resource": false, "position": "2",
	}
	if diff := cmp.Diff(wantItem, numbersAsText(pedreiro)); diff != "" {
		t.Errorf("item SINAPI:C:88309 (-want +got):\n%s", diff)
	}
	if got := items["SINAPI:R:34586"].(obj)["is_resource"]; got != true {
		t.Errorf("SINAPI:R:34586 is_resource = %v", got)
	}
	if got := num(t, a["omitted_items"]); got != "0" {
		t.Errorf("omitted_items = %s, want 0", got)
	}

	// A retried request gives the same composition.
	again := attrs(t, expect(t, h.Do("POST", compositions+"/"+id+"/add_items", token, items89306), 200))
	if diff := cmp.Diff(a, again); diff != "" {
		t.Errorf("add_items retried changed the composition (-first +retry):\n%s", diff)
	}
	// And GET shows what add_items answered.
	got := attrs(t, expect(t, h.Do("GET", compositions+"/"+id, token, ""), 200))
	if diff := cmp.Diff(a, got); diff != "" {
		t.Errorf("GET differs from the add_items answer (-add_items +get):\n%s", diff)
	}
}

// numbersAsText turns the json.Number values of an object into their text.
func numbersAsText(o obj) obj {
	out := obj{}
	for k, v := range o {
		if n, ok := v.(interface{ String() string }); ok {
			out[k] = n.String()
		} else {
			out[k] = v
		}
	}
	return out
}

// TestSicroCompositionOverHTTP builds a SICRO-model composition in AL from
// SICRO3 AL 01/2024 equipment, labour, material and a composition, and
// checks that every section key the items fill is filled.
func TestSicroCompositionOverHTTP(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	doc := create(t, h, compositions, u.Token, `{"data":{"type":"compositions","attributes":{
		"code":"DNIT-01","description":"Escavação com apoio","unit":"m3","location":"AL",
		"is_sicro":true,"team_production":2.5,"fic":0.0125,"labor_addition":15}}}`)
	id := str(data(t, doc)["id"])
	if got := attrs(t, doc)["calculation_method"]; !cmp.Equal(got, obj{"type": jsonNumber("3"), "description": "Truncar com 4 casas decimais"}) {
		t.Errorf("calculation_method = %v, want SICRO's default (3)", got)
	}
	expect(t, h.Do("POST", compositions+"/"+id+"/add_banks", u.Token, `{"banks":[{"name":"SICRO3","location":"AL","version":"01/2024","status":true}]}`), 200)
	a := attrs(t, expect(t, h.Do("POST", compositions+"/"+id+"/add_items", u.Token, `{"items":[
		{"bank":"SICRO3","code":"E9017","quantity":1,"resource":true,"utilization":0.7},
		{"bank":"SICRO3","code":"P9801","quantity":2,"resource":true},
		{"bank":"SICRO3","code":"M0005","quantity":0.5,"resource":true},
		{"bank":"SICRO3","code":"0407818","quantity":3,"resource":false}
	]}`), 200))
	prices := a["prices"].(obj)
	wantKeys := []string{
		"cca", "ccad", "ch_da_mo", "ch_de_eq", "ch_incidencia", "chd_da_mo", "chd_de_eq", "chde", "chdi_de_eq",
		"che", "chi_de_eq", "ctf", "ctfd", "cumo", "cuoi", "cuoid", "pd", "pnd",
	}
	if diff := cmp.Diff(wantKeys, keys(prices)); diff != "" {
		t.Errorf("prices keys (-want +got):\n%s", diff)
	}
	for _, k := range []string{"pnd", "pd", "ch_de_eq", "chd_de_eq", "chi_de_eq", "chdi_de_eq", "ch_da_mo", "chd_da_mo", "che", "chde", "ch_incidencia", "cca", "cumo"} {
		if v := num(t, prices[k]); v == "0" {
			t.Errorf("prices.%s is 0; the items fill it", k)
		}
	}
	// SICRO's synthetic composition report is sem desoneração only, so the
	// auxiliary composition has no desonerado cost in the sample.
	for _, k := range []string{"ctf", "ctfd", "cuoi", "cuoid", "ccad"} {
		if v := num(t, prices[k]); v != "0" {
			t.Errorf("prices.%s = %s; no item falls in it", k, v)
		}
	}
	// Labour: 2 h × 19.5057 (Ajudante, AL 01/2024, não desonerado); materials: 0.5 × 163.4728.
	if v := num(t, prices["ch_da_mo"]); v != "39.0114" {
		t.Errorf("prices.ch_da_mo = %s, want 39.0114", v)
	}
	if v := num(t, prices["cumo"]); v != "81.7364" {
		t.Errorf("prices.cumo = %s, want 81.7364", v)
	}
	items := a["items"].(obj)
	if diff := cmp.Diff([]string{"SICRO3:C:0407818", "SICRO3:R:E9017", "SICRO3:R:M0005", "SICRO3:R:P9801"}, keys(items)); diff != "" {
		t.Errorf("item ids (-want +got):\n%s", diff)
	}
	if got := num(t, items["SICRO3:R:E9017"].(obj)["utilization"]); got != "0.7" {
		t.Errorf("E9017 utilization = %s, want 0.7", got)
	}
	if got := attrs(t, expect(t, h.Do("GET", compositions+"/"+id, u.Token, ""), 200))["banks"]; !cmp.Equal(got, obj{"SICRO3": obj{"estado": "AL", "data": "01/2024", "relatorio": true}}) {
		t.Errorf("banks = %v", got)
	}
}

func jsonNumber(s string) json.Number { return json.Number(s) }

// TestCompositionDocument checks the whole shape of a new composition.
func TestCompositionDocument(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	doc := create(t, h, compositions, u.Token, `{"code":"ALV-001","secondary_code":"A1","description":"Alvenaria","unit":"M2","type":"PARE","location":"mg","labor":true,"note":"obra 12"}`)

	if diff := cmp.Diff([]string{"data"}, keys(doc)); diff != "" {
		t.Errorf("top-level members (-want +got):\n%s", diff)
	}
	d := data(t, doc)
	if d["type"] != "compositions" {
		t.Errorf("data.type = %v", d["type"])
	}
	a := d["attributes"].(obj)
	wantKeys := []string{
		"banks", "calculation_method", "code", "composition_type", "created_at", "description", "fic", "is_sicro",
		"items", "labor", "labor_addition", "location", "note", "omitted_items", "prices", "secondary_code",
		"team_production", "type", "unit",
	}
	if diff := cmp.Diff(wantKeys, keys(a)); diff != "" {
		t.Errorf("attribute keys (-want +got):\n%s", diff)
	}
	createdAt := str(a["created_at"])
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-03:00$`).MatchString(createdAt) {
		t.Errorf("created_at = %q, want RFC 3339 in America/Sao_Paulo (-03:00)", createdAt)
	}
	delete(a, "created_at")
	zero := jsonNumber("0")
	prices := obj{}
	for _, k := range []string{"pnd", "pd", "ch_de_eq", "chd_de_eq", "chi_de_eq", "chdi_de_eq", "ch_da_mo", "chd_da_mo", "che", "chde", "ch_incidencia", "ctf", "ctfd", "cuoi", "cuoid", "cca", "ccad", "cumo"} {
		prices[k] = zero
	}
	want := obj{
		"code": "ALV-001", "secondary_code": "A1", "description": "Alvenaria", "type": "PARE", "composition_type": "PARE",
		"unit": "M2", "is_sicro": false, "labor": true, "note": "obra 12",
		"calculation_method": obj{"type": jsonNumber("2"), "description": "Truncar com 2 casas decimais"},
		"team_production":    zero, "fic": zero, "labor_addition": zero,
		"location": "MG", "prices": prices, "banks": obj{}, "items": obj{}, "omitted_items": zero,
	}
	if diff := cmp.Diff(want, a); diff != "" {
		t.Errorf("attributes (-want +got):\n%s", diff)
	}
	wantRel := obj{
		"user":   obj{"data": obj{"type": "users", "id": u.UserID}, "links": obj{"related": base + "/users/" + u.UserID}},
		"sector": obj{"data": obj{"type": "sectors", "id": u.DepartmentID}, "links": obj{"related": base + "/sectors/" + u.DepartmentID}},
	}
	if diff := cmp.Diff(wantRel, d["relationships"]); diff != "" {
		t.Errorf("relationships (-want +got):\n%s", diff)
	}
}

func TestCompositionList(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	other := h.AddUser("Construtora Beta", "bia@beta.com.br")
	sinapiComposition(t, h, other.Token, "BETA-1")
	var ids []string
	for _, code := range []string{"C1", "C2", "C3"} {
		ids = append(ids, sinapiComposition(t, h, u.Token, code))
	}
	expect(t, h.Do("POST", compositions+"/"+ids[2]+"/add_banks", u.Token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`), 200)
	expect(t, h.Do("POST", compositions+"/"+ids[2]+"/add_items", u.Token, items89306), 200)

	tests := []struct {
		name  string
		query string
		ids   []string
		links obj
	}{
		{"default page", "", ids, obj{
			"self":  compositions + "?page%5Bnumber%5D=1&page%5Bsize%5D=20",
			"first": compositions + "?page%5Bnumber%5D=1&page%5Bsize%5D=20",
			"last":  compositions + "?page%5Bnumber%5D=1&page%5Bsize%5D=20",
		}},
		{"second page of two", "?page[number]=2&page[size]=2", ids[2:], obj{
			"self":  compositions + "?page%5Bnumber%5D=2&page%5Bsize%5D=2",
			"first": compositions + "?page%5Bnumber%5D=1&page%5Bsize%5D=2",
			"prev":  compositions + "?page%5Bnumber%5D=1&page%5Bsize%5D=2",
			"last":  compositions + "?page%5Bnumber%5D=2&page%5Bsize%5D=2",
		}},
		{"first page of three", "?page[size]=1", ids[:1], obj{
			"self":  compositions + "?page%5Bnumber%5D=1&page%5Bsize%5D=1",
			"first": compositions + "?page%5Bnumber%5D=1&page%5Bsize%5D=1",
			"next":  compositions + "?page%5Bnumber%5D=2&page%5Bsize%5D=1",
			"last":  compositions + "?page%5Bnumber%5D=3&page%5Bsize%5D=1",
		}},
		{"past the end", "?page[number]=9&page[size]=2", nil, obj{
			"self":  compositions + "?page%5Bnumber%5D=9&page%5Bsize%5D=2",
			"first": compositions + "?page%5Bnumber%5D=1&page%5Bsize%5D=2",
			"prev":  compositions + "?page%5Bnumber%5D=2&page%5Bsize%5D=2",
			"last":  compositions + "?page%5Bnumber%5D=2&page%5Bsize%5D=2",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := expect(t, h.Do("GET", compositions+tt.query, u.Token, ""), 200)
			var got []string
			for _, e := range doc["data"].([]any) {
				got = append(got, str(e.(obj)["id"]))
			}
			if diff := cmp.Diff(tt.ids, got); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.links, doc["links"]); diff != "" {
				t.Errorf("links (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(obj{"total": jsonNumber("3")}, doc["meta"]); diff != "" {
				t.Errorf("meta (-want +got):\n%s", diff)
			}
		})
	}

	// A trailing slash names the same collection.
	doc := expect(t, h.Do("GET", compositions+"/", u.Token, ""), 200)
	if n := len(doc["data"].([]any)); n != 3 {
		t.Errorf("GET %s/: %d compositions, want 3", compositions, n)
	}

	// List entries leave the items out and count them.
	doc = expect(t, h.Do("GET", compositions+"?page[number]=3&page[size]=1", u.Token, ""), 200)
	a := doc["data"].([]any)[0].(obj)["attributes"].(obj)
	if diff := cmp.Diff(obj{}, a["items"]); diff != "" {
		t.Errorf("items in a list (-want +got):\n%s", diff)
	}
	if got := num(t, a["omitted_items"]); got != "6" {
		t.Errorf("omitted_items = %s, want 6", got)
	}
	if got := num(t, a["prices"].(obj)["pnd"]); got != "113.33" {
		t.Errorf("listed prices.pnd = %s, want 113.33", got)
	}
}

func TestFindCompositionByCode(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	id := sinapiComposition(t, h, u.Token, "0307731")

	doc := expect(t, h.Do("GET", compositions+"/find_by_code?code=0307731&state=MG", u.Token, ""), 200)
	if got := str(data(t, doc)["id"]); got != id {
		t.Errorf("found %s, want %s", got, id)
	}
	errorsOf(t, h.Do("GET", compositions+"/find_by_code?code=307731&state=MG", u.Token, ""), 404)
	errorsOf(t, h.Do("GET", compositions+"/find_by_code?code=0307731&state=SP", u.Token, ""), 404)
	got := errorsOf(t, h.Do("GET", compositions+"/find_by_code?code=0307731", u.Token, ""), 400)
	if diff := cmp.Diff([]apiError{{Status: "400", Code: "bad_request", Parameter: "state"}}, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func TestUpdateComposition(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	id := sinapiComposition(t, h, u.Token, "ALV-001")
	before := attrs(t, expect(t, h.Do("GET", compositions+"/"+id, u.Token, ""), 200))

	t.Run("plain JSON changes only the named fields", func(t *testing.T) {
		a := attrs(t, expect(t, h.Do("PATCH", compositions+"/"+id, u.Token, `{"description":"Alvenaria nova","rounding_type":1}`), 200))
		want := obj{}
		for k, v := range before {
			want[k] = v
		}
		want["description"] = "Alvenaria nova"
		want["calculation_method"] = obj{"type": jsonNumber("1"), "description": "Arredondar com 2 casas decimais"}
		if diff := cmp.Diff(want, a); diff != "" {
			t.Errorf("attributes (-want +got):\n%s", diff)
		}
	})
	t.Run("JSON:API document", func(t *testing.T) {
		a := attrs(t, expect(t, h.Do("PATCH", compositions+"/"+id, u.Token,
			`{"data":{"type":"compositions","id":"`+id+`","attributes":{"composition_type":"REVE","note":"x"}}}`,
			"Content-Type", jsonapiType), 200))
		if a["composition_type"] != "REVE" || a["note"] != "x" || a["description"] != "Alvenaria nova" {
			t.Errorf("attributes after PATCH: %v", a)
		}
	})
	t.Run("a document sent back is accepted", func(t *testing.T) {
		r := h.Do("GET", compositions+"/"+id, u.Token, "")
		expect(t, h.Do("PATCH", compositions+"/"+id, u.Token, string(r.Body)), 200)
	})

	tests := []struct {
		name   string
		body   string
		status int
		want   []apiError
	}{
		{"bad state, plain", `{"location":"XX"}`, 422, []apiError{{"422", "invalid", "/location", ""}}},
		{"bad state, document", `{"data":{"type":"compositions","attributes":{"location":"XX","description":""}}}`, 422, []apiError{
			{"422", "invalid", "/data/attributes/description", ""}, {"422", "invalid", "/data/attributes/location", ""},
		}},
		{"alias used", `{"type":"NOPE"}`, 422, []apiError{{"422", "invalid", "/type", ""}}},
		{"unknown attribute", `{"descripton":"typo"}`, 422, []apiError{{"422", "invalid", "/descripton", ""}}},
		{"wrong JSON type", `{"data":{"type":"compositions","attributes":{"is_sicro":"yes","fic":true}}}`, 400, []apiError{
			{"400", "bad_request", "/data/attributes/is_sicro", ""}, {"400", "bad_request", "/data/attributes/fic", ""},
		}},
		{"wrong type", `{"data":{"type":"resources","attributes":{}}}`, 409, []apiError{{"409", "conflict", "/data/type", ""}}},
		{"wrong id", `{"data":{"type":"compositions","id":"other","attributes":{}}}`, 409, []apiError{{"409", "conflict", "/data/id", ""}}},
		{"no group of the company", `{"data":{"type":"compositions","relationships":{"group":{"data":{"type":"groups","id":"nope"}}}}}`, 422, []apiError{
			{"422", "invalid", "/data/relationships/group", ""},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, h.Do("PATCH", compositions+"/"+id, u.Token, tt.body), tt.status)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCreateCompositionErrors(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	sinapiComposition(t, h, u.Token, "ALV-001")
	tests := []struct {
		name   string
		body   string
		status int
		want   []apiError
	}{
		{"missing fields, plain", `{"code":"X"}`, 422, []apiError{
			{"422", "invalid", "/description", ""}, {"422", "invalid", "/unit", ""}, {"422", "invalid", "/location", ""},
		}},
		{"duplicate code", `{"code":"ALV-001","description":"d","unit":"M2","location":"MG"}`, 422, []apiError{{"422", "invalid", "/code", ""}}},
		{"SICRO with a negative team production", `{"data":{"type":"compositions","attributes":{"code":"S","description":"d","unit":"m3","location":"AL","is_sicro":true,"team_production":-1,"labor_addition":-1}}}`, 422, []apiError{
			{"422", "invalid", "/data/attributes/team_production", ""}, {"422", "invalid", "/data/attributes/labor_addition", ""},
		}},
		{"client id", `{"data":{"type":"compositions","id":"mine","attributes":{}}}`, 403, []apiError{{"403", "forbidden", "/data/id", ""}}},
		{"no type", `{"data":{"attributes":{}}}`, 400, []apiError{{"400", "bad_request", "/data/type", ""}}},
		{"both names of one attribute, disagreeing", `{"code":"X","description":"d","unit":"M2","location":"MG","type":"PARE","composition_type":"PISO"}`, 422,
			[]apiError{{"422", "invalid", "/composition_type", ""}, {"422", "invalid", "/type", ""}}},
		{"both names of the calculation method, disagreeing", `{"code":"X","description":"d","unit":"M2","location":"MG","rounding_type":1,"calculation_method":{"type":2}}`, 422,
			[]apiError{{"422", "invalid", "/rounding_type", ""}, {"422", "invalid", "/calculation_method", ""}}},
		{"calculation method of the wrong shape", `{"code":"X","description":"d","unit":"M2","location":"MG","calculation_method":{"description":"Truncar"}}`, 400,
			[]apiError{{"400", "bad_request", "/calculation_method", ""}}},
		{"malformed JSON", `{"code":`, 400, []apiError{{"400", "bad_request", "", ""}}},
		{"not an object", `[1,2]`, 400, []apiError{{"400", "bad_request", "", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, h.Do("POST", compositions, u.Token, tt.body), tt.status)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompositionItemErrors(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	id := sinapiComposition(t, h, u.Token, "ALV-001")
	path := compositions + "/" + id
	expect(t, h.Do("POST", path+"/add_banks", u.Token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`), 200)
	before := expect(t, h.Do("GET", path, u.Token, ""), 200)

	tests := []struct {
		name   string
		method string
		action string
		body   string
		status int
		want   []apiError
	}{
		{"unknown code among good items", "POST", "/add_items", `{"items":[
			{"bank":"SINAPI","code":"88309","quantity":1.1152,"resource":false},
			{"bank":"SINAPI","code":"99999","quantity":1,"resource":true}]}`, 422,
			[]apiError{{"422", "invalid", "/items/1/code", ""}}},
		{"composition code named as a resource", "POST", "/add_items", `{"items":[{"bank":"SINAPI","code":"88309","quantity":1,"resource":true}]}`, 422,
			[]apiError{{"422", "invalid", "/items/0/code", ""}}},
		{"bank not attached", "POST", "/add_items", `{"items":[{"bank":"SICRO3","code":"E9017","quantity":1}]}`, 422,
			[]apiError{{"422", "invalid", "/items/0/bank", ""}}},
		{"bad quantity", "POST", "/add_items", `{"items":[{"bank":"SINAPI","code":"88309","quantity":0}]}`, 422,
			[]apiError{{"422", "invalid", "/items/0/quantity", ""}}},
		{"no items", "POST", "/add_items", `{"items":[]}`, 422, []apiError{{"422", "invalid", "/items", ""}}},
		{"code as a number", "POST", "/add_items", `{"items":[{"bank":"SINAPI","code":88309,"quantity":1}]}`, 400,
			[]apiError{{"400", "bad_request", "/items/code", ""}}},
		{"bad month", "POST", "/add_banks", `{"banks":[{"name":"SINAPI","location":"MG","version":"8/2026"}]}`, 422,
			[]apiError{{"422", "invalid", "/banks/0/version", ""}}},
		{"bad state and month", "POST", "/add_banks", `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"},{"name":"SINAPI","location":"ZZ","version":"13/2026"}]}`, 422,
			[]apiError{{"422", "invalid", "/banks/1/location", ""}, {"422", "invalid", "/banks/1/version", ""}}},
		{"edition not imported", "POST", "/add_banks", `{"banks":[{"name":"SINAPI","location":"MG","version":"09/2026"}]}`, 422,
			[]apiError{{"422", "invalid", "/banks/0", ""}}},
		{"remove an item not there", "DELETE", "/remove_items", `{"items":[{"bank":"SINAPI","code":"88309","resource":false}]}`, 422,
			[]apiError{{"422", "invalid", "/items/0/code", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, h.Do(tt.method, path+tt.action, u.Token, tt.body), tt.status)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			// A request that fails changes nothing.
			after := expect(t, h.Do("GET", path, u.Token, ""), 200)
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("the failed request changed the composition (-before +after):\n%s", diff)
			}
		})
	}
}

func TestRemoveItems(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	id := sinapiComposition(t, h, u.Token, "ALV-001")
	path := compositions + "/" + id
	expect(t, h.Do("POST", path+"/add_banks", u.Token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`), 200)
	expect(t, h.Do("POST", path+"/add_items", u.Token, items89306), 200)

	a := attrs(t, expect(t, h.Do("DELETE", path+"/remove_items", u.Token,
		`{"items":[{"bank":"SINAPI","code":"88316","resource":false},{"bank":"SINAPI","code":"34586","resource":true}]}`), 200))
	items := a["items"].(obj)
	if diff := cmp.Diff([]string{"SINAPI:C:87286", "SINAPI:C:88309", "SINAPI:R:34649", "SINAPI:R:34788"}, keys(items)); diff != "" {
		t.Errorf("items left (-want +got):\n%s", diff)
	}
	// Positions follow the order the items were added in.
	var positions []string
	for _, k := range []string{"SINAPI:C:88309", "SINAPI:C:87286", "SINAPI:R:34788", "SINAPI:R:34649"} {
		positions = append(positions, num(t, items[k].(obj)["position"]))
	}
	if diff := cmp.Diff([]string{"1", "2", "3", "4"}, positions); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
}

func TestDeleteComposition(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	id := sinapiComposition(t, h, u.Token, "ALV-001")
	r := h.Do("DELETE", compositions+"/"+id, u.Token, "")
	if r.Status != 204 || len(r.Body) != 0 {
		t.Fatalf("DELETE: %d %s, want 204 and no body", r.Status, r.Body)
	}
	errorsOf(t, h.Do("GET", compositions+"/"+id, u.Token, ""), 404)
	errorsOf(t, h.Do("DELETE", compositions+"/"+id, u.Token, ""), 404)
}
