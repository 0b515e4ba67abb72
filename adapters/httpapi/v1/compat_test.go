package v1_test

// What real v1 clients send, beyond the seed's own examples (issue 16 point 1
// and issue 9 point 1, v1 part): each test replays one request shape.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// importCompatEditions imports the editions these tests need besides the
// sample ones:
//   - SINAPI PI 02/2026 (both regimes): resource 88316 (labour), and the code
//     9999 both as a resource and as a composition; composition 87292;
//   - SINAPI PI 01/2026 and SINAPI SP 02/2026: resource 88316 at other prices;
//   - EMOP RJ 01/2026, region CAPITAL (a bank with regions): resource E1;
//   - ORSE SE 02/2026, desonerado prices only: resource 00001.
func importCompatEditions(t *testing.T, h *apitest.Harness) {
	t.Helper()
	both := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	price := func(pnd, pd string) domain.PriceLine {
		return domain.PriceLine{PND: dec(pnd), PD: dec(pd), PNDI: dec(pnd), PDI: dec(pd)}
	}
	servente := func(pnd, pd string) *domain.BankResource {
		return &domain.BankResource{Code: "88316", Description: "SERVENTE COM ENCARGOS COMPLEMENTARES", Unit: "H", Type: 3, Prices: price(pnd, pd)}
	}
	data := []app.EditionData{
		{
			Edition: domain.Edition{Bank: "SINAPI", State: "PI", Month: "02/2026", Regimes: both},
			Resources: []*domain.BankResource{
				servente("20.00", "18.00"),
				{Code: "9999", Description: "TIJOLO CERAMICO", Unit: "UN", Type: 4, Prices: price("5.00", "4.50")},
			},
			Compositions: []*domain.BankComposition{
				{Code: "9999", Description: "ALVENARIA DE TIJOLOS", Unit: "M2", Class: "PARE", Cost: domain.UnitPrice{PND: dec("100.00"), PD: dec("90.00")}},
				{Code: "87292", Description: "ARGAMASSA", Unit: "M3", Class: "ASTU", Cost: domain.UnitPrice{PND: dec("50.00"), PD: dec("45.00")}},
			},
		},
		{Edition: domain.Edition{Bank: "SINAPI", State: "PI", Month: "01/2026", Regimes: both}, Resources: []*domain.BankResource{servente("19.00", "17.00")}},
		{Edition: domain.Edition{Bank: "SINAPI", State: "SP", Month: "02/2026", Regimes: both}, Resources: []*domain.BankResource{servente("30.00", "28.00")}},
		{
			Edition:   domain.Edition{Bank: "EMOP", State: "RJ", Month: "01/2026", Region: "CAPITAL", Regimes: both},
			Resources: []*domain.BankResource{{Code: "E1", Description: "PEDREIRO", Unit: "H", Type: 3, Prices: price("25.00", "23.00")}},
		},
		{
			Edition:   domain.Edition{Bank: "ORSE", State: "SE", Month: "02/2026", Regimes: []domain.Regime{domain.Desonerado}},
			Resources: []*domain.BankResource{{Code: "00001", Description: "AREIA", Unit: "M3", Type: 4, Prices: price("0", "80.00")}},
		},
	}
	if _, err := h.App.ImportEditions(context.Background(), data); err != nil {
		t.Fatal(err)
	}
}

// compositionIn creates a SINAPI-model composition in a state.
func compositionIn(t *testing.T, h *apitest.Harness, token, code, state string) map[string]any {
	t.Helper()
	return call(t, h, "POST", base+"/compositions", token, jsonBody(t, map[string]any{
		"code": code, "description": "Composição " + code, "type": "PARE", "unit": "M2", "local": state, "is_sicro": false,
	}), 201)
}

func TestV1FindCompositionByCodeWithoutState(t *testing.T) {
	h, u := setup(t)
	other := h.AddUser("Construtora Beta", "bia@beta.example")
	c := base + "/compositions/find_by_code"
	mg := compositionIn(t, h, u.Token, "ALV-01", "MG")
	compositionIn(t, h, other.Token, "ALV-02", "MG")

	// One state: the composition, without naming it.
	got := call(t, h, "GET", c+"?code=ALV-01", u.Token, "", 200)
	if diff := cmp.Diff(mg, got); diff != "" {
		t.Errorf("find_by_code without state, one state (-want +got):\n%s", diff)
	}

	// Several states: state chooses; without it, 422 listing them.
	sp := compositionIn(t, h, u.Token, "ALV-01", "SP")
	body := call(t, h, "GET", c+"?code=ALV-01", u.Token, "", 422)
	checkError(t, body, "state")
	msgs, _ := body["errors"].(map[string]any)["state"].([]any)
	if len(msgs) != 1 || !strings.Contains(msgs[0].(string), "MG, SP") {
		t.Errorf("the 422 should list the states MG, SP: %v", body)
	}
	for _, tc := range []struct {
		state string
		want  map[string]any
	}{{"SP", sp}, {"mg", mg}} {
		if got := call(t, h, "GET", c+"?code=ALV-01&state="+tc.state, u.Token, "", 200); got["id"] != tc.want["id"] {
			t.Errorf("state=%s: got %v, want %v", tc.state, got["id"], tc.want["id"])
		}
	}

	// Absent, or another company's: 404.
	for _, q := range []string{"?code=NOPE", "?code=ALV-02", "?code=ALV-01&state=RJ"} {
		checkError(t, call(t, h, "GET", c+q, u.Token, "", 404))
	}
}

func TestV1CompositionGroupID(t *testing.T) {
	h, u := setup(t)
	importCompatEditions(t, h)
	gid := id(t, call(t, h, "POST", base+"/groups", u.Token, `{"description":"Pavimentação"}`, 201))
	created := call(t, h, "POST", base+"/compositions", u.Token,
		`{"group_id":"`+gid+`","code":"PAV-1","description":"Pavimento","type":"PAVI","unit":"M2","local":"PI","is_sicro":false}`, 201)
	cid := id(t, created)
	c := base + "/compositions/" + cid

	answers := map[string]map[string]any{
		"create":       created,
		"get":          call(t, h, "GET", c, u.Token, "", 200),
		"find_by_code": call(t, h, "GET", base+"/compositions/find_by_code?code=PAV-1", u.Token, "", 200),
		"add-bases":    call(t, h, "POST", c+"/add-bases", u.Token, `{"bases":[{"name":"SINAPI","local":"PI","version":"02/2026","status":true}]}`, 200),
		"add-items":    call(t, h, "POST", c+"/add-items", u.Token, `{"items":[{"bank":"SINAPI","code":"88316","qty":1}]}`, 200),
		"remove-items": call(t, h, "DELETE", c+"/remove-items", u.Token, `{"resources":[{"code":"88316"}]}`, 200),
		"update":       call(t, h, "PUT", c, u.Token, `{"description":"Pavimento asfáltico"}`, 200),
	}
	list := call(t, h, "GET", base+"/compositions", u.Token, "", 200)
	records, _ := list["records"].([]any)
	if len(records) != 1 {
		t.Fatalf("list: %v", list)
	}
	answers["list"] = records[0].(map[string]any)
	for name, got := range answers {
		if got["group_id"] != gid {
			t.Errorf("%s: group_id = %v, want %s", name, got["group_id"], gid)
		}
	}

	// No group: null, as a resource's create answer shows it.
	cleared := call(t, h, "PUT", c, u.Token, `{"group_id":""}`, 200)
	if v, ok := cleared["group_id"]; !ok || v != nil {
		t.Errorf("group_id after clearing = %v (present %v), want null", v, ok)
	}
}

// itemsOf returns the items of a composition answer.
func itemsOf(t *testing.T, c map[string]any) []map[string]any {
	t.Helper()
	raw, ok := c["items"].([]any)
	if !ok {
		t.Fatalf("no items: %v", c)
	}
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i] = it.(map[string]any)
	}
	return out
}

func TestV1AddItemsKindHints(t *testing.T) {
	h, u := setup(t)
	importCompatEditions(t, h)
	type line struct {
		Code       string
		IsResource bool
		UnitPND    string
	}
	tests := []struct {
		name   string
		item   string
		status int
		want   []line   // on 200
		fields []string // on 422
	}{
		{"no hint: the composition wins", `{"bank":"SINAPI","code":"9999","qty":1}`, 200, []line{{"9999", false, "100"}}, nil},
		{"type resource", `{"bank":"SINAPI","code":"9999","qty":1,"type":"resource"}`, 200, []line{{"9999", true, "5"}}, nil},
		{"type composition", `{"bank":"SINAPI","code":"9999","qty":1,"type":"composition"}`, 200, []line{{"9999", false, "100"}}, nil},
		{"type is lower case", `{"bank":"SINAPI","code":"9999","qty":1,"type":"RESOURCE"}`, 422, nil, []string{"items[0].type"}},
		{"is_resource true", `{"bank":"SINAPI","code":"9999","qty":1,"is_resource":true}`, 200, []line{{"9999", true, "5"}}, nil},
		{"is_resource false", `{"bank":"SINAPI","code":"9999","qty":1,"is_resource":false}`, 200, []line{{"9999", false, "100"}}, nil},
		{"both agreeing", `{"bank":"SINAPI","code":"9999","qty":1,"type":"resource","is_resource":true}`, 200, []line{{"9999", true, "5"}}, nil},
		{"both disagreeing", `{"bank":"SINAPI","code":"9999","qty":1,"type":"resource","is_resource":false}`, 422, nil, []string{"items[0].type", "items[0].is_resource"}},
		{"unknown type", `{"bank":"SINAPI","code":"9999","qty":1,"type":"insumo"}`, 422, nil, []string{"items[0].type"}},
		{"hint of a kind the bank lacks", `{"bank":"SINAPI","code":"87292","qty":1,"type":"resource"}`, 422, nil, []string{"items[0].code"}},
		{"a hint without a bank", `{"code":"9999","qty":1,"type":"resource"}`, 422, nil, []string{"items[0].bank"}},
		{"is_resource not a boolean", `{"bank":"SINAPI","code":"9999","qty":1,"is_resource":"yes"}`, 400, nil, []string{"items[0].is_resource"}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cid := id(t, compositionIn(t, h, u.Token, "H-"+string(rune('A'+i)), "PI"))
			c := base + "/compositions/" + cid
			call(t, h, "POST", c+"/add-bases", u.Token, `{"bases":[{"name":"SINAPI","local":"PI","version":"02/2026","status":true}]}`, 200)
			before := call(t, h, "GET", c, u.Token, "", 200)
			got := call(t, h, "POST", c+"/add-items", u.Token, `{"items":[`+tc.item+`]}`, tc.status)
			if tc.status != 200 {
				checkError(t, got, tc.fields...)
				if diff := cmp.Diff(before, call(t, h, "GET", c, u.Token, "", 200)); diff != "" {
					t.Errorf("a refused add-items changed the composition (-before +after):\n%s", diff)
				}
				return
			}
			var lines []line
			for _, it := range itemsOf(t, got) {
				lines = append(lines, line{it["code"].(string), it["is_resource"].(bool), string(it["unitary_pnd"].(json.Number))})
			}
			if diff := cmp.Diff(tc.want, lines); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
		})
	}
}

// bankOf returns the banks entry of a composition answer.
func bankOf(t *testing.T, c map[string]any, name string) map[string]any {
	t.Helper()
	banks, _ := c["banks"].(map[string]any)
	b, ok := banks[name].(map[string]any)
	if !ok {
		t.Fatalf("no bank %s in %v", name, c["banks"])
	}
	return b
}

func TestV1AddBasesRegionAndLaborCharges(t *testing.T) {
	h, u := setup(t)
	importCompatEditions(t, h)
	tests := []struct {
		name   string
		base   string
		status int
		bank   string
		want   map[string]any // the banks entry on 200
		fields []string       // on 422
	}{
		{"region on a bank without regions is kept, not looked up",
			`{"name":"SINAPI","local":"PI","version":"02/2026","status":true,"region":"TERESINA","with_labor_charges":true}`, 200, "SINAPI",
			map[string]any{"data": "02/2026", "estado": "PI", "regiao": "TERESINA", "relatorio": true, "with_labor_charges": true}, nil},
		{"no region, no regime: neither shown",
			`{"name":"SINAPI","local":"PI","version":"02/2026","status":false}`, 200, "SINAPI",
			map[string]any{"data": "02/2026", "estado": "PI", "relatorio": false}, nil},
		{"with_labor_charges false is desonerado",
			`{"name":"ORSE","local":"SE","version":"02/2026","status":true,"with_labor_charges":false}`, 200, "ORSE",
			map[string]any{"data": "02/2026", "estado": "SE", "relatorio": true, "with_labor_charges": false}, nil},
		{"with_labor_charges true needs não desonerado prices",
			`{"name":"ORSE","local":"SE","version":"02/2026","status":true,"with_labor_charges":true}`, 422, "", nil, []string{"bases[0].with_labor_charges"}},
		{"a bank with regions looks the region up",
			`{"name":"EMOP","local":"RJ","version":"01/2026","status":true,"region":"CAPITAL"}`, 200, "EMOP",
			map[string]any{"data": "01/2026", "estado": "RJ", "regiao": "CAPITAL", "relatorio": true}, nil},
		{"a region the bank does not have",
			`{"name":"EMOP","local":"RJ","version":"01/2026","status":true,"region":"INTERIOR"}`, 422, "", nil, []string{"bases[0]"}},
		{"with_labor_charges not a boolean",
			`{"name":"SINAPI","local":"PI","version":"02/2026","with_labor_charges":"sim"}`, 400, "", nil, []string{"bases[0].with_labor_charges"}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cid := id(t, compositionIn(t, h, u.Token, "B-"+string(rune('A'+i)), "PI"))
			c := base + "/compositions/" + cid
			got := call(t, h, "POST", c+"/add-bases", u.Token, `{"bases":[`+tc.base+`]}`, tc.status)
			if tc.status != 200 {
				checkError(t, got, tc.fields...)
				if banks := call(t, h, "GET", c, u.Token, "", 200)["banks"]; len(banks.(map[string]any)) != 0 {
					t.Errorf("a refused add-bases attached %v", banks)
				}
				return
			}
			if diff := cmp.Diff(tc.want, bankOf(t, got, tc.bank)); diff != "" {
				t.Errorf("banks.%s (-want +got):\n%s", tc.bank, diff)
			}
			// Stored: a later read shows the same.
			if diff := cmp.Diff(tc.want, bankOf(t, call(t, h, "GET", c, u.Token, "", 200), tc.bank)); diff != "" {
				t.Errorf("banks.%s read back (-want +got):\n%s", tc.bank, diff)
			}
		})
	}

	// The edition found without the region prices the items.
	cid := id(t, compositionIn(t, h, u.Token, "B-PRICE", "PI"))
	c := base + "/compositions/" + cid
	call(t, h, "POST", c+"/add-bases", u.Token, `{"bases":[{"name":"SINAPI","local":"PI","version":"02/2026","status":true,"region":"TERESINA"}]}`, 200)
	got := call(t, h, "POST", c+"/add-items", u.Token, `{"items":[{"bank":"SINAPI","code":"88316","qty":2}]}`, 200)
	items := itemsOf(t, got)
	if len(items) != 1 || items[0]["unitary_pnd"] != num("20") || items[0]["pnd"] != num("40") {
		t.Errorf("items priced from SINAPI PI 02/2026: %v", items)
	}
}

func TestV1UnderscoreRoutesAndPatch(t *testing.T) {
	h, u := setup(t)
	importCompatEditions(t, h)
	steps := func(prefix, addBases, addItems, removeItems string) []map[string]any {
		cid := id(t, compositionIn(t, h, u.Token, prefix, "PI"))
		c := base + "/compositions/" + cid
		out := []map[string]any{
			call(t, h, "POST", c+"/"+addBases, u.Token, `{"bases":[{"name":"SINAPI","local":"PI","version":"02/2026","status":true}]}`, 200),
			call(t, h, "POST", c+"/"+addItems, u.Token, `{"items":[{"bank":"SINAPI","code":"88316","qty":1.5},{"bank":"SINAPI","code":"87292","qty":2}]}`, 200),
			call(t, h, "DELETE", c+"/"+removeItems, u.Token, `{"compositions":[{"code":"87292"}]}`, 200),
			call(t, h, "PATCH", c, u.Token, `{"description":"Alterada","rounding_type":1}`, 200),
		}
		for _, m := range out {
			for _, k := range []string{"id", "code", "description", "created_at"} {
				delete(m, k)
			}
		}
		return out
	}
	hyphen := steps("HY-1", "add-bases", "add-items", "remove-items")
	underscore := steps("UN-1", "add_bases", "add_items", "remove_items")
	if diff := cmp.Diff(hyphen, underscore); diff != "" {
		t.Errorf("underscore routes differ from the hyphenated ones (-hyphen +underscore):\n%s", diff)
	}
	if got := itemsOf(t, hyphen[2]); len(got) != 1 || got[0]["code"] != "88316" {
		t.Errorf("remove-items left %v", got)
	}
	if cm := hyphen[3]["calculation_method"].(map[string]any); cm["type"] != num("1") {
		t.Errorf("PATCH did not change the calculation method: %v", cm)
	}

	// PATCH on a resource is its PUT.
	rid := id(t, createResource(t, h, u.Token, "R-1"))
	viaPatch := call(t, h, "PATCH", base+"/resources/"+rid, u.Token, `{"description":"Insumo alterado","locals":{"PI":{"pnd":1,"pd":2,"pndi":3,"pdi":4}}}`, 200)
	if viaPatch["description"] != "Insumo alterado" {
		t.Errorf("PATCH resource: %v", viaPatch)
	}
	viaPut := call(t, h, "PUT", base+"/resources/"+rid, u.Token, `{"description":"Insumo alterado","locals":{"PI":{"pnd":1,"pd":2,"pndi":3,"pdi":4}}}`, 200)
	if diff := cmp.Diff(viaPut, viaPatch); diff != "" {
		t.Errorf("PATCH and PUT answers differ (-put +patch):\n%s", diff)
	}
	// A PATCH that is refused changes nothing, as a PUT.
	checkError(t, call(t, h, "PATCH", base+"/resources/"+rid, u.Token, `{"unit":""}`, 422), "unit")
}

func TestV1ReferenceResourceFindByCode(t *testing.T) {
	h, u := setup(t)
	importCompatEditions(t, h)
	const path = "/api/v1/resources/find_by_code"
	var r7153 *domain.BankResource
	eds, err := sample.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eds {
		for _, r := range e.Resources {
			if e.Edition.Bank == "SINAPI" && r.Code == "7153" {
				r7153 = r
			}
		}
	}
	if r7153 == nil {
		t.Fatal("the sample data has no SINAPI resource 7153")
	}
	prices := func(state, pnd, pd string) map[string]any {
		return map[string]any{state: map[string]any{"pnd": num(pnd), "pd": num(pd), "pndi": num(pnd), "pdi": num(pd)}}
	}
	servente := func(state, version, id, pnd, pd string) map[string]any {
		return map[string]any{
			"code": "88316", "description": "SERVENTE COM ENCARGOS COMPLEMENTARES", "type": num("3"), "unit": "H",
			"bank": "SINAPI", "state": state, "version": version, "edition_id": id, "locals": prices(state, pnd, pd),
			"is_resource": true,
		}
	}
	tests := []struct {
		name   string
		query  string
		status int
		want   map[string]any
		fields []string
	}{
		{"newest edition first", "?code=88316", 200, servente("PI", "02/2026", "SINAPI-PI-2026-02", "20", "18"), nil},
		{"the caller's state first", "?code=88316&state=sp", 200, servente("SP", "02/2026", "SINAPI-SP-2026-02", "30", "28"), nil},
		{"a state without it falls back to the newest", "?code=88316&state=MG", 200, servente("PI", "02/2026", "SINAPI-PI-2026-02", "20", "18"), nil},
		{"a version", "?code=88316&version=01/2026", 200, servente("PI", "01/2026", "SINAPI-PI-2026-01", "19", "17"), nil},
		{"a bank with regions", "?code=E1&bank=emop", 200, map[string]any{
			"code": "E1", "description": "PEDREIRO", "type": num("3"), "unit": "H", "bank": "EMOP", "state": "RJ",
			"version": "01/2026", "region": "CAPITAL", "edition_id": app.EditionID(domain.BankRef{Name: "EMOP", State: "RJ", Month: "01/2026", Region: "CAPITAL"}),
			"locals": prices("RJ", "25", "23"), "is_resource": true,
		}, nil},
		{"a sample edition", "?code=7153", 200, map[string]any{
			"code": "7153", "description": r7153.Description, "type": num("3"), "unit": r7153.Unit, "bank": "SINAPI", "state": "MG",
			"version": "08/2026", "edition_id": "SINAPI-MG-2026-08",
			"locals":      map[string]any{"MG": map[string]any{"pnd": num("45.88"), "pd": num("42.51"), "pndi": num("45.88"), "pdi": num("42.51")}},
			"is_resource": true,
		}, nil},
		{"a composition code is not a resource", "?code=87292", 404, nil, nil},
		{"no bank has it", "?code=NOPE", 404, nil, nil},
		{"another bank", "?code=88316&bank=SICRO3", 404, nil, nil},
		{"no code", "", 422, nil, []string{"code"}},
		{"bad state and version", "?code=88316&state=XX&version=2026-01", 422, nil, []string{"state", "version"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := call(t, h, "GET", path+tc.query, u.Token, "", tc.status)
			if tc.status != 200 {
				checkError(t, got, tc.fields...)
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// Only an authenticated caller.
	checkStatus(t, h.Do("GET", path+"?code=88316", "", ""), "GET without a token", 401)
}

// roundTrip GETs a record, PUTs the same document back and checks that the
// next GET is unchanged.
func roundTrip(t *testing.T, h *apitest.Harness, token, path string) map[string]any {
	t.Helper()
	before := call(t, h, "GET", path, token, "", 200)
	call(t, h, "PUT", path, token, jsonBody(t, before), 200)
	after := call(t, h, "GET", path, token, "", 200)
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("GET → PUT → GET %s changed the record (-before +after):\n%s", path, diff)
	}
	return after
}

func TestV1RoundTrip(t *testing.T) {
	h, u := setup(t)
	importCompatEditions(t, h)
	gid := id(t, call(t, h, "POST", base+"/groups", u.Token, `{"description":"Estruturas"}`, 201))
	roundTrip(t, h, u.Token, base+"/groups/"+gid)

	// Resources: the list record, and also the update answer (code_2, local).
	rid := id(t, call(t, h, "POST", base+"/resources", u.Token,
		`{"group_id":"`+gid+`","code":"00123","second_code":"X-1","description":"Areia","type":4,"unit":"M3","local":"PI","pnd":80.5,"pd":78.25,"pndi":80.5,"pdi":78.25,"status":true,"note":"n"}`, 201))
	roundTrip(t, h, u.Token, base+"/resources/"+rid)
	sicroRes := id(t, call(t, h, "POST", base+"/resources", u.Token,
		`{"code":"E900","description":"Escavadeira","type":1,"unit":"H","local":"AL","pnd":180.5,"pd":170.25,"pndi":90,"pdi":85,"status":true}`, 201))
	call(t, h, "PUT", base+"/resources/"+sicroRes, u.Token, `{"is_sicro":true}`, 200)
	roundTrip(t, h, u.Token, base+"/resources/"+sicroRes)
	before := call(t, h, "GET", base+"/resources/"+rid, u.Token, "", 200)
	updated := call(t, h, "PUT", base+"/resources/"+rid, u.Token, `{}`, 200)
	call(t, h, "PUT", base+"/resources/"+rid, u.Token, jsonBody(t, updated), 200)
	if diff := cmp.Diff(before, call(t, h, "GET", base+"/resources/"+rid, u.Token, "", 200)); diff != "" {
		t.Errorf("the update answer sent back changed the resource (-before +after):\n%s", diff)
	}

	// Compositions, SINAPI model with banks and items, and SICRO model.
	sinapi := compositionIn(t, h, u.Token, "C-RT", "PI")
	c := base + "/compositions/" + id(t, sinapi)
	call(t, h, "PUT", c, u.Token, `{"group_id":"`+gid+`","rounding_type":1}`, 200)
	call(t, h, "POST", c+"/add-bases", u.Token, `{"bases":[{"name":"SINAPI","local":"PI","version":"02/2026","status":true,"region":"TERESINA","with_labor_charges":true}]}`, 200)
	call(t, h, "POST", c+"/add-items", u.Token, `{"items":[{"bank":"SINAPI","code":"88316","qty":1.25},{"bank":"MYBASE","code":"00123","qty":3}]}`, 200)
	roundTrip(t, h, u.Token, c)
	sicro := call(t, h, "POST", base+"/compositions", u.Token,
		`{"code":"S-RT","description":"Escavação","type":"MOVT","unit":"M3","local":"AL","is_sicro":true,"team_production":2.5,"fic":0.0123,"adc_labor":15}`, 201)
	roundTrip(t, h, u.Token, base+"/compositions/"+id(t, sicro))

	// A read, edited in the names it shows, keeps its meaning. (Its own
	// resource needs a price in the new state.)
	call(t, h, "PUT", base+"/resources/"+rid, u.Token,
		`{"locals":{"PI":{"pnd":80.5,"pd":78.25,"pndi":80.5,"pdi":78.25},"MA":{"pnd":81,"pd":79,"pndi":81,"pdi":79}}}`, 200)
	doc := call(t, h, "GET", c, u.Token, "", 200)
	doc["state"] = "MA"
	doc["calculation_method"] = map[string]any{"type": 3, "description": "whatever"}
	doc["description"] = "Editada"
	got := call(t, h, "PUT", c, u.Token, jsonBody(t, doc), 200)
	cm := got["calculation_method"].(map[string]any)
	if got["state"] != "MA" || cm["type"] != num("3") || got["description"] != "Editada" {
		t.Errorf("edited read: state %v, calculation_method %v, description %v", got["state"], cm, got["description"])
	}
	doc = call(t, h, "GET", c, u.Token, "", 200)
	doc["calculation_method"] = 4 // its type alone
	if got := call(t, h, "PUT", c, u.Token, jsonBody(t, doc), 200); got["calculation_method"].(map[string]any)["type"] != num("4") {
		t.Errorf("calculation_method as an integer: %v", got["calculation_method"])
	}
	// The create body takes them too.
	created := call(t, h, "POST", base+"/compositions", u.Token,
		`{"code":"C-ST","description":"Por state","unit":"M2","state":"ce","calculation_method":{"type":1}}`, 201)
	if created["state"] != "CE" || created["calculation_method"].(map[string]any)["type"] != num("1") {
		t.Errorf("create with state and calculation_method: %v %v", created["state"], created["calculation_method"])
	}
}

func TestV1BothNamesDisagree(t *testing.T) {
	h, u := setup(t)
	comp := compositionIn(t, h, u.Token, "C-2N", "MG")
	c := base + "/compositions/" + id(t, comp)
	res := createResource(t, h, u.Token, "R-2N", `,"second_code":"A"`)
	r := base + "/resources/" + id(t, res)
	tests := []struct {
		name, method, path, body string
		status                   int
		fields                   []string
	}{
		{"state and local", "PUT", c, `{"local":"MG","state":"SP"}`, 422, []string{"local", "state"}},
		{"rounding_type and calculation_method", "PUT", c, `{"rounding_type":1,"calculation_method":{"type":2}}`, 422, []string{"rounding_type", "calculation_method"}},
		{"rounding_type and calculation_method as integer", "PATCH", c, `{"rounding_type":1,"calculation_method":3}`, 422, []string{"rounding_type", "calculation_method"}},
		{"create: state and local", "POST", base + "/compositions", `{"code":"N","description":"N","unit":"M2","local":"MG","state":"RJ"}`, 422, []string{"local", "state"}},
		{"second_code and code_2", "PUT", r, `{"second_code":"A","code_2":"B"}`, 422, []string{"second_code", "code_2"}},
		{"locals and local", "PUT", r, `{"locals":{"MG":{"pnd":1,"pd":1,"pndi":1,"pdi":1}},"local":{"MG":{"pnd":2,"pd":1,"pndi":1,"pdi":1}}}`, 422, []string{"locals", "local"}},
		{"calculation_method of a wrong type", "PUT", c, `{"calculation_method":true}`, 400, []string{"calculation_method"}},
		{"a bad state sent as state is named state", "PUT", c, `{"state":"XX"}`, 422, []string{"state"}},
		{"a bad method sent as calculation_method is named so", "PUT", c, `{"calculation_method":{"type":9}}`, 422, []string{"calculation_method"}},
		// Both names agreeing are fine.
		{"agreeing state and local", "PUT", c, `{"local":"mg","state":"MG"}`, 200, nil},
		{"agreeing method", "PUT", c, `{"rounding_type":2,"calculation_method":{"type":2,"description":"Truncar com 2 casas decimais"}}`, 200, nil},
		{"agreeing secondary code", "PUT", r, `{"second_code":"A","code_2":"A"}`, 200, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			beforeC := call(t, h, "GET", c, u.Token, "", 200)
			beforeR := call(t, h, "GET", r, u.Token, "", 200)
			got := call(t, h, tc.method, tc.path, u.Token, tc.body, tc.status)
			if tc.status >= 400 {
				checkError(t, got, tc.fields...)
			}
			if diff := cmp.Diff(beforeC, call(t, h, "GET", c, u.Token, "", 200)); diff != "" {
				t.Errorf("the composition changed (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(beforeR, call(t, h, "GET", r, u.Token, "", 200)); diff != "" {
				t.Errorf("the resource changed (-before +after):\n%s", diff)
			}
		})
	}
}

func TestV1CalculationMethodWrongType(t *testing.T) {
	h, u := setup(t)
	c := base + "/compositions/" + id(t, compositionIn(t, h, u.Token, "C-WT", "MG"))
	for _, tc := range []struct{ body, field string }{
		{`{"calculation_method":{"type":true}}`, "calculation_method"},
		{`{"calculation_method":{"type":"2,5"}}`, "calculation_method"},
		{`{"calculation_method":[2]}`, "calculation_method"},
		{`{"calculation_method":true}`, "calculation_method"},
	} {
		checkError(t, call(t, h, "PUT", c, u.Token, tc.body, 400), tc.field)
	}
	// Numeric text is a number in v1, in calculation_method as everywhere.
	for _, body := range []string{`{"calculation_method":"3"}`, `{"calculation_method":{"type":"3"}}`} {
		got := call(t, h, "PUT", c, u.Token, body, 200)
		if m := got["calculation_method"].(map[string]any); fmt.Sprint(m["type"]) != "3" {
			t.Errorf("%s: calculation_method %v, want type 3", body, m)
		}
	}
}
