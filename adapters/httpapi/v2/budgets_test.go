package v2_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

const budgets = base + "/budgets"

// sampleBudgetBody is a budget over the real SINAPI MG 08/2026 sample:
//
//	1    Alvenaria
//	1.1    SINAPI 89306 (composition)  120.5 m²
//	1.2    SINAPI 89478 (composition)  33.25 m²
//	2    Materiais
//	2.1    SINAPI 34586 (resource)     1000 un
const sampleBudgetBody = `{"code":"ORC-001","description":"Edifício residencial","client":"Construtora Exemplo",
  "location":"MG","desonerado":false,"bdi":25,"bdi_mode":"unit_price","rounding":"truncate",
  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
  "items":[
    {"kind":"stage","description":"Alvenaria","items":[
      {"kind":"composition","bank":"SINAPI","code":"89306","quantity":120.5},
      {"kind":"composition","bank":"SINAPI","code":"89478","quantity":33.25}]},
    {"kind":"stage","description":"Materiais","items":[
      {"kind":"resource","bank":"SINAPI","code":"34586","quantity":1000}]}]}`

// Published figures of SINAPI MG 08/2026 (não desonerado), copied from the
// sample's files (adapters/bankfiles/sample/data/sinapi-mg-202608), so that
// the test computes what the reports must say from the raw numbers.
var (
	mgPrice = map[string]string{
		"89306": "113.33", "89478": "155.85", "34586": "2.62",
		"88309": "33.62", "88316": "24.88", "87286": "713.59",
		"34649": "3.48", "34788": "1.61", "38588": "2.64", "38590": "4.39", "38596": "5.43",
	}
	mgStructure = map[string][][2]string{
		"89306": {{"88316", "0.6505"}, {"88309", "1.1152"}, {"87286", "0.0175"}, {"34788", "1.54"}, {"34649", "1.28"}, {"34586", "15.37"}},
		"89478": {{"88316", "1.0804"}, {"88309", "1.0804"}, {"87286", "0.0187"}, {"38596", "1.29"}, {"38590", "15.54"}, {"38588", "1.55"}},
	}
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// lineFigures are a line's figures with a 25% BDI on the unit price,
// truncating: what DOMAIN.md says, computed here by hand.
type lineFigures struct{ price, priceBDI, total, totalBDI decimal.Decimal }

func figures(code, qty string) lineFigures {
	p := d(mgPrice[code])
	pb := p.Mul(d("1.25")).Truncate(2)
	return lineFigures{p, pb, p.Mul(d(qty)).Truncate(2), pb.Mul(d(qty)).Truncate(2)}
}

// budgetFixture is a harness with two companies and the sample budget
// created by the first.
type budgetFixture struct {
	h     *apitest.Harness
	u     apitest.User
	other apitest.User
	id    string
	doc   obj
}

func newBudgetFixture(t *testing.T) *budgetFixture {
	t.Helper()
	h := apitest.New(t)
	f := &budgetFixture{h: h, u: h.AddUser("Construtora Alfa", "ana@alfa.com.br"), other: h.AddUser("Construtora Beta", "bia@beta.com.br")}
	f.doc = create(t, h, budgets, f.u.Token, sampleBudgetBody)
	f.id = str(data(t, f.doc)["id"])
	return f
}

// node is a node of the tree as a test reads it.
type node struct {
	ID, Number, Kind, Description, Bank, Code, Quantity string
}

// flatten lists a budget document's nodes in tree order.
func flatten(t *testing.T, items any) []node {
	t.Helper()
	var out []node
	list, _ := items.([]any)
	for _, it := range list {
		o := it.(obj)
		n := node{ID: str(o["id"]), Number: str(o["number"]), Kind: str(o["kind"]), Description: str(o["description"]),
			Bank: str(o["bank"]), Code: str(o["code"])}
		if q, ok := o["quantity"]; ok {
			n.Quantity = num(t, q)
		}
		out = append(out, n)
		out = append(out, flatten(t, o["items"])...)
	}
	return out
}

func TestCreateBudget(t *testing.T) {
	f := newBudgetFixture(t)
	a := attrs(t, f.doc)
	l11, l12, l21 := figures("89306", "120.5"), figures("89478", "33.25"), figures("34586", "1000")
	total := l11.total.Add(l12.total).Add(l21.total)
	withBDI := l11.totalBDI.Add(l12.totalBDI).Add(l21.totalBDI)
	// A spot check of the figures computed above: 113.33 × 120.5 =
	// 13656.265 → 13656.26; 113.33 × 1.25 = 141.6625 → 141.66, × 120.5 =
	// 17070.03.
	if l11.total.String() != "13656.26" || l11.totalBDI.String() != "17070.03" {
		t.Fatalf("test bug: 89306 figures %s, %s", l11.total, l11.totalBDI)
	}
	if num(t, a["total"]) != total.StringFixed(2) || num(t, a["total_with_bdi"]) != withBDI.StringFixed(2) ||
		num(t, a["bdi_value"]) != withBDI.Sub(total).StringFixed(2) {
		t.Errorf("totals %v / %v / %v, want %s / %s / %s", a["total"], a["bdi_value"], a["total_with_bdi"],
			total.StringFixed(2), withBDI.Sub(total).StringFixed(2), withBDI.StringFixed(2))
	}
	if num(t, a["total"]) != "21458.27" || num(t, a["total_with_bdi"]) != "26817.46" {
		t.Errorf("totals %v, %v; by hand 21458.27 and 26817.46", a["total"], a["total_with_bdi"])
	}
	if a["code"] != "ORC-001" || a["location"] != "MG" || a["desonerado"] != false || num(t, a["bdi"]) != "25" ||
		a["bdi_mode"] != "unit_price" || a["rounding"] != "truncate" || num(t, a["lines"]) != "3" || num(t, a["omitted_nodes"]) != "0" {
		t.Errorf("attributes %v", a)
	}
	wantBanks := []any{obj{"name": "SINAPI", "location": "MG", "version": "08/2026"}}
	if diff := cmp.Diff(wantBanks, a["banks"]); diff != "" {
		t.Errorf("banks (-want +got):\n%s", diff)
	}
	want := []node{
		{"n1", "1", "stage", "Alvenaria", "", "", ""},
		{"n2", "1.1", "composition", "", "SINAPI", "89306", "120.5"},
		{"n3", "1.2", "composition", "", "SINAPI", "89478", "33.25"},
		{"n4", "2", "stage", "Materiais", "", "", ""},
		{"n5", "2.1", "resource", "", "SINAPI", "34586", "1000"},
	}
	if diff := cmp.Diff(want, flatten(t, a["items"])); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	rel := data(t, f.doc)["relationships"].(obj)
	if rel["user"].(obj)["data"].(obj)["id"] != f.u.UserID {
		t.Errorf("relationships %v", rel)
	}

	// Detail: the same document.
	got := expect(t, f.h.Do("GET", budgets+"/"+f.id, f.u.Token, ""), 200)
	if diff := cmp.Diff(f.doc, got); diff != "" {
		t.Errorf("GET differs from the create answer (-create +get):\n%s", diff)
	}

	// The same budget as a JSON:API document, with another code.
	body := `{"data":{"type":"budgets","attributes":` + strings.Replace(sampleBudgetBody, "ORC-001", "ORC-002", 1) + `}}`
	doc := create(t, f.h, budgets, f.u.Token, body)
	if num(t, attrs(t, doc)["total"]) != "21458.27" {
		t.Errorf("JSON:API create: total %v", attrs(t, doc)["total"])
	}
}

func TestCreateBudgetErrors(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	unknown := strings.Replace(sampleBudgetBody, `"89478"`, `"99999"`, 1)
	unknown = strings.Replace(unknown, "ORC-001", "ORC-009", 1)
	cases := []struct {
		name, body string
		status     int
		want       []apiError
	}{
		{"unknown code", unknown, 422, []apiError{{Status: "422", Code: "invalid", Pointer: "/items/0/items/1/code"}}},
		{"unknown code, JSON:API", `{"data":{"type":"budgets","attributes":` + unknown + `}}`, 422,
			[]apiError{{Status: "422", Code: "invalid", Pointer: "/data/attributes/items/0/items/1/code"}}},
		{"code in use", sampleBudgetBody, 422, []apiError{{Status: "422", Code: "invalid", Pointer: "/code"}}},
		{"bad fields", `{"code":"X","description":"","location":"ZZ","bdi":-1,"bdi_mode":"sometimes","rounding":"up",
			"banks":[{"name":"SINAPI","location":"MG","version":"8/2026"}],
			"items":[{"kind":"resource","bank":"SICRO3","code":"1","quantity":0},{"kind":"floor"}]}`, 422, []apiError{
			{Status: "422", Code: "invalid", Pointer: "/bdi"},
			{Status: "422", Code: "invalid", Pointer: "/description"},
			{Status: "422", Code: "invalid", Pointer: "/location"},
			{Status: "422", Code: "invalid", Pointer: "/bdi_mode"},
			{Status: "422", Code: "invalid", Pointer: "/rounding"},
			{Status: "422", Code: "invalid", Pointer: "/banks/0/version"},
			{Status: "422", Code: "invalid", Pointer: "/items/0/bank"},
			{Status: "422", Code: "invalid", Pointer: "/items/0/quantity"},
			{Status: "422", Code: "invalid", Pointer: "/items/1/kind"},
		}},
		{"edition not imported", `{"code":"X","description":"x","location":"MG","banks":[{"name":"SINAPI","location":"SP","version":"01/2020"}]}`, 422,
			[]apiError{{Status: "422", Code: "invalid", Pointer: "/banks/0"}}},
		{"unknown attribute", `{"code":"X","description":"x","location":"MG","qty":1}`, 422,
			[]apiError{{Status: "422", Code: "invalid", Pointer: "/qty"}}},
		{"wrong JSON type", `{"code":"X","description":"x","location":"MG","desonerado":"yes"}`, 400,
			[]apiError{{Status: "400", Code: "bad_request", Pointer: "/desonerado"}}},
		{"not a number", `{"code":"X","description":"x","location":"MG","bdi":true}`, 422,
			[]apiError{{Status: "422", Code: "invalid", Pointer: "/bdi"}}},
		{"not JSON", `{"code":`, 400, []apiError{{Status: "400", Code: "bad_request"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := errorsOf(t, h.Do("POST", budgets, tok, tc.body), tc.status)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
	// Nothing was saved: only the fixture's budget is listed.
	list := expect(t, h.Do("GET", budgets, tok, ""), 200)
	if num(t, list["meta"].(obj)["total"]) != "1" {
		t.Errorf("%v budgets after the refused creates, want 1", list["meta"])
	}
	// 415 for a body that is not JSON; 401 without a token.
	errorsOf(t, h.Do("POST", budgets, tok, sampleBudgetBody, "Content-Type", "text/plain"), 415)
	errorsOf(t, h.Do("POST", budgets, "", sampleBudgetBody), 401)
}

func TestBudgetList(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	for _, b := range []string{
		`{"code":"ORC-010","description":"Escola municipal","client":"Prefeitura de Contagem","location":"MG"}`,
		`{"code":"ORC-002","description":"Galpão","client":"Indústria Ávila","location":"SP"}`,
	} {
		create(t, h, budgets, tok, b)
	}
	create(t, h, budgets, f.other.Token, `{"code":"ORC-003","description":"Edifício de outra","location":"MG"}`)

	list := func(q string) obj { return expect(t, h.Do("GET", budgets+q, tok, ""), 200) }
	codesOf := func(doc obj) []string {
		var out []string
		for _, it := range doc["data"].([]any) {
			out = append(out, str(it.(obj)["attributes"].(obj)["code"]))
		}
		return out
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", []string{"ORC-001", "ORC-010", "ORC-002"}},
		{"?sort=code", []string{"ORC-001", "ORC-002", "ORC-010"}},
		{"?sort=-code", []string{"ORC-010", "ORC-002", "ORC-001"}},
		{"?filter[client]=avila", []string{"ORC-002"}},
		{"?filter[state]=mg&sort=-created_at", []string{"ORC-010", "ORC-001"}},
		{"?filter[search]=prefeitura", []string{"ORC-010"}},
		{"?filter[description]=edif", []string{"ORC-001"}},
		{"?filter[created_after]=2000-01-01&filter[code]=orc-00", []string{"ORC-001", "ORC-002"}},
		{"?filter[updated_before]=2000-01-01", nil},
	} {
		if got := codesOf(list(tc.query)); !cmp.Equal(tc.want, got) {
			t.Errorf("GET %s: %v, want %v", tc.query, got, tc.want)
		}
	}
	page := list("?sort=code&page[size]=1&page[number]=2")
	links := page["links"].(obj)
	if codes := codesOf(page); !cmp.Equal(codes, []string{"ORC-002"}) || num(t, page["meta"].(obj)["total"]) != "3" ||
		links["next"] != budgets+"?page%5Bnumber%5D=3&page%5Bsize%5D=1&sort=code" {
		t.Errorf("page 2: %v, meta %v, links %v", codes, page["meta"], links)
	}
	entry := page["data"].([]any)[0].(obj)["attributes"].(obj)
	if len(entry["items"].([]any)) != 0 || num(t, entry["omitted_nodes"]) != "0" {
		t.Errorf("list entry items %v, omitted_nodes %v", entry["items"], entry["omitted_nodes"])
	}
	first := list("?sort=code&page[size]=1")["data"].([]any)[0].(obj)["attributes"].(obj)
	if num(t, first["omitted_nodes"]) != "5" || num(t, first["total"]) != "21458.27" {
		t.Errorf("ORC-001 in the list: omitted_nodes %v, total %v", first["omitted_nodes"], first["total"])
	}

	for _, q := range []struct{ query, param string }{
		{"?filter[status]=true", "filter[status]"},
		{"?filter[state]=XX", "filter[state]"},
		{"?sort=total", "sort"},
		{"?page[size]=101", "page[size]"},
	} {
		got := errorsOf(t, h.Do("GET", budgets+q.query, tok, ""), 400)
		if len(got) != 1 || got[0].Parameter != q.param {
			t.Errorf("GET %s: %v, want one error on %s", q.query, got, q.param)
		}
	}
}

func TestUpdateAndDeleteBudget(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok, path := f.h, f.u.Token, budgets+"/"+f.id

	// BDI on the final total: the rows carry no BDI; BDI = trunc(total × 25%).
	doc := expect(t, h.Do("PATCH", path, tok, `{"bdi_mode":"final_total","client":"Outro cliente"}`), 200)
	a := attrs(t, doc)
	total := d("21458.27")
	bdi := total.Mul(d("0.25")).Truncate(2)
	if a["client"] != "Outro cliente" || a["bdi_mode"] != "final_total" || num(t, a["total"]) != "21458.27" ||
		num(t, a["bdi_value"]) != bdi.StringFixed(2) || num(t, a["total_with_bdi"]) != total.Add(bdi).StringFixed(2) {
		t.Errorf("after PATCH: %v", a)
	}
	if a["code"] != "ORC-001" || len(flatten(t, a["items"])) != 5 {
		t.Errorf("PATCH changed what it did not name: %v", a)
	}

	// A JSON:API document that sends back the fetched budget with one change.
	doc["data"].(obj)["attributes"].(obj)["description"] = "Edifício residencial, torre B"
	body := string(mustJSON(t, doc))
	a = attrs(t, expect(t, h.Do("PATCH", path, tok, body, "Content-Type", jsonapiType), 200))
	if a["description"] != "Edifício residencial, torre B" || len(flatten(t, a["items"])) != 5 {
		t.Errorf("PATCH with the fetched document: %v", a)
	}
	// `items` was sent back with the node ids, so the tree was replaced by
	// the same tree with the same ids (n1 to n5).
	if got := flatten(t, a["items"]); got[0].ID != "n1" || got[4].ID != "n5" || got[4].Code != "34586" {
		t.Errorf("tree sent back: %v", got)
	}
	// A node without an id, or with one the budget does not have, gets a
	// new id: ids are never given twice.
	a = attrs(t, expect(t, h.Do("PATCH", path, tok, `{"items":[{"id":"n99","kind":"resource","bank":"SINAPI","code":"34586","quantity":10}]}`), 200))
	if got := flatten(t, a["items"]); len(got) != 1 || got[0].ID != "n6" || got[0].Number != "1" {
		t.Errorf("new tree: %v", got)
	}

	for _, tc := range []struct {
		name, body string
		status     int
		want       []apiError
	}{
		{"edition not imported", `{"banks":[{"name":"SINAPI","location":"MG","version":"01/2020"}]}`, 422,
			[]apiError{{Status: "422", Code: "invalid", Pointer: "/banks/0"}}},
		{"line of a bank the budget leaves", `{"banks":[]}`, 422,
			[]apiError{{Status: "422", Code: "invalid", Pointer: "/items/0/bank"}}},
		{"another id", `{"data":{"type":"budgets","id":"other","attributes":{}}}`, 409,
			[]apiError{{Status: "409", Code: "conflict", Pointer: "/data/id"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errorsOf(t, h.Do("PATCH", path, tok, tc.body), tc.status)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}

	// Another company sees nothing.
	for _, m := range []string{"GET", "PATCH", "DELETE"} {
		body := ""
		if m == "PATCH" {
			body = `{"client":"x"}`
		}
		errorsOf(t, h.Do(m, path, f.other.Token, body), 404)
	}
	if r := h.Do("DELETE", path, tok, ""); r.Status != 204 || len(r.Body) != 0 {
		t.Fatalf("DELETE: %d %s", r.Status, r.Body)
	}
	errorsOf(t, h.Do("GET", path, tok, ""), 404)
	errorsOf(t, h.Do("DELETE", path, tok, ""), 404)
}

func TestBudgetNodes(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok, path := f.h, f.u.Token, budgets+"/"+f.id

	// numbers lists "id=number" of every node, from the budget's detail.
	numbers := func() string {
		t.Helper()
		var out []string
		for _, n := range flatten(t, attrs(t, expect(t, h.Do("GET", path, tok, ""), 200))["items"]) {
			out = append(out, n.ID+"="+n.Number)
		}
		return strings.Join(out, " ")
	}
	budgetTotal := func(doc obj) string {
		t.Helper()
		return num(t, doc["meta"].(obj)["budget"].(obj)["total"])
	}

	// Add a line first in stage n1: it becomes 1.1 and the others move down.
	// The answer is the node, with its figures: 3.48 × 100 = 348.00, with
	// BDI 4.35 × 100 = 435.00.
	r := h.Do("POST", path+"/nodes", tok, `{"parent_id":"n1","position":0,"kind":"resource","bank":"SINAPI","code":"34649","quantity":100}`)
	doc := expect(t, r, 201)
	if loc := r.Header.Get("Location"); loc != path+"/nodes/n6" {
		t.Errorf("Location %q, want %q", loc, path+"/nodes/n6")
	}
	if d := data(t, doc); d["type"] != "budget-nodes" || d["id"] != f.id+":n6" {
		t.Errorf("data type %v id %v", d["type"], d["id"])
	}
	l := figures("34649", "100")
	want := obj{"node_id": "n6", "number": "1.1", "depth": json.Number("2"), "parent_id": "n1", "position": json.Number("0"),
		"kind": "resource", "description": "CANALETA ESTRUTURAL CERAMICA DE 14 X 19 X 29 CM (L X A X C) E 6,0 MPA",
		"bank": "SINAPI", "base_version": "08/2026", "code": "34649", "unit": "UN", "quantity": json.Number("100"),
		"unit_price": json.Number(l.price.StringFixed(2)), "unit_price_with_bdi": json.Number(l.priceBDI.StringFixed(2)),
		"total": json.Number(l.total.StringFixed(2)), "total_with_bdi": json.Number(l.totalBDI.StringFixed(2)),
		"weight": json.Number(l.total.Shift(2).DivRound(d("21806.27"), 2).StringFixed(2)), "missing": false,
		"lines": json.Number("1"), "items": nil}
	if diff := cmp.Diff(want, attrs(t, doc)); diff != "" {
		t.Errorf("the node added (-want +got):\n%s", diff)
	}
	meta := doc["meta"].(obj)["budget"].(obj)
	if meta["id"] != f.id || meta["code"] != "ORC-001" || num(t, meta["lines"]) != "4" || budgetTotal(doc) != "21806.27" {
		t.Errorf("meta.budget %v", meta) // 21458.27 + 348.00
	}
	if got := numbers(); got != "n1=1 n6=1.1 n2=1.2 n3=1.3 n4=2 n5=2.1" {
		t.Errorf("after the add: %s", got)
	}
	// GET of the node answers the same document.
	if diff := cmp.Diff(doc, expect(t, h.Do("GET", path+"/nodes/n6", tok, ""), 200)); diff != "" {
		t.Errorf("GET differs from the add answer (-add +get):\n%s", diff)
	}

	// A stage with a line, at the top level, last: the stage's subtotals and
	// its child with its figures.
	doc = expect(t, h.Do("POST", path+"/nodes", tok, `{"kind":"stage","description":"Próprias","items":[{"kind":"composition","bank":"SINAPI","code":"89306","quantity":1}]}`), 201)
	a := attrs(t, doc)
	c := figures("89306", "1")
	if a["node_id"] != "n7" || a["number"] != "3" || a["parent_id"] != nil || num(t, a["position"]) != "2" || a["kind"] != "stage" ||
		a["bank"] != nil || a["quantity"] != nil || a["unit_price"] != nil || num(t, a["lines"]) != "1" ||
		num(t, a["total"]) != c.total.StringFixed(2) || num(t, a["total_with_bdi"]) != c.totalBDI.StringFixed(2) {
		t.Errorf("the stage added: %v", a)
	}
	if items := a["items"].([]any); len(items) != 1 || items[0].(obj)["id"] != "n8" || items[0].(obj)["number"] != "3.1" ||
		num(t, items[0].(obj)["total"]) != c.total.StringFixed(2) || items[0].(obj)["code"] != "89306" {
		t.Errorf("the stage's children: %v", a["items"])
	}

	// Change a quantity: 34649 × 50 = 174.00; the stage that holds it adds up
	// its three lines.
	doc = expect(t, h.Do("PATCH", path+"/nodes/n6", tok, `{"quantity":50}`), 200)
	l = figures("34649", "50")
	if a := attrs(t, doc); num(t, a["quantity"]) != "50" || num(t, a["total"]) != "174.00" || num(t, a["total_with_bdi"]) != l.totalBDI.StringFixed(2) {
		t.Errorf("after the change: %v", a)
	}
	if got := budgetTotal(doc); got != "21745.60" { // 21458.27 + 174.00 + 113.33
		t.Errorf("total after the change %v, want 21745.60", got)
	}
	// meta.ancestors: the stage that holds the line, with its new subtotal
	// (checked against the stage's own read below).
	above := doc["meta"].(obj)["ancestors"].([]any)
	if len(above) != 1 || above[0].(obj)["id"] != "n1" {
		t.Fatalf("meta.ancestors %v", above)
	}
	stage := attrs(t, expect(t, h.Do("GET", path+"/nodes/n1", tok, ""), 200))
	l12, l13 := figures("89306", "120.5"), figures("89478", "33.25")
	if num(t, stage["total"]) != l.total.Add(l12.total).Add(l13.total).StringFixed(2) ||
		num(t, stage["total_with_bdi"]) != l.totalBDI.Add(l12.totalBDI).Add(l13.totalBDI).StringFixed(2) || num(t, stage["lines"]) != "3" {
		t.Errorf("stage n1: %v", stage)
	}
	if num(t, above[0].(obj)["total"]) != num(t, stage["total"]) || num(t, above[0].(obj)["total_with_bdi"]) != num(t, stage["total_with_bdi"]) {
		t.Errorf("meta.ancestors[0] %v, stage n1 %v / %v", above[0], stage["total"], stage["total_with_bdi"])
	}
	var children []string
	for _, it := range stage["items"].([]any) {
		o := it.(obj)
		children = append(children, str(o["id"])+"="+str(o["number"])+":"+num(t, o["total"]))
	}
	if diff := cmp.Diff([]string{"n6=1.1:174.00", "n2=1.2:" + l12.total.StringFixed(2), "n3=1.3:" + l13.total.StringFixed(2)}, children); diff != "" {
		t.Errorf("children of n1 (-want +got):\n%s", diff)
	}

	// A line has no description of its own, so this request changes nothing.
	errs := errorsOf(t, h.Do("PATCH", path+"/nodes/n6", tok, `{"description":"x","parent_id":null,"position":0}`), 422)
	if diff := cmp.Diff([]apiError{{Status: "422", Code: "invalid", Pointer: "/description"}}, errs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if got := numbers(); got != "n1=1 n6=1.1 n2=1.2 n3=1.3 n4=2 n5=2.1 n7=3 n8=3.1" {
		t.Errorf("the refused request moved the node: %s", got)
	}
	doc = expect(t, h.Do("PATCH", path+"/nodes/n6", tok, `{"parent_id":null,"position":0}`), 200)
	if a := attrs(t, doc); a["number"] != "1" || a["parent_id"] != nil || num(t, a["position"]) != "0" || num(t, a["depth"]) != "1" {
		t.Errorf("the node moved: %v", a)
	}
	if got := numbers(); got != "n6=1 n1=2 n2=2.1 n3=2.2 n4=3 n5=3.1 n7=4 n8=4.1" {
		t.Errorf("after the move: %s", got)
	}
	// Position only: within the stage it is in.
	doc = expect(t, h.Do("PATCH", path+"/nodes/n3", tok, `{"position":0}`), 200)
	if a := attrs(t, doc); a["number"] != "2.1" || a["parent_id"] != "n1" {
		t.Errorf("after the move within the stage: %v", a)
	}
	// Rename a stage and move it into another, together.
	doc = expect(t, h.Do("PATCH", path+"/nodes/n7", tok, `{"description":"Serviços próprios","parent_id":"n4"}`), 200)
	if a := attrs(t, doc); a["description"] != "Serviços próprios" || a["number"] != "3.2" || a["parent_id"] != "n4" ||
		num(t, a["position"]) != "1" || len(a["items"].([]any)) != 1 || a["items"].([]any)[0].(obj)["number"] != "3.2.1" {
		t.Errorf("the stage moved: %v", a)
	}
	if got := numbers(); got != "n6=1 n1=2 n3=2.1 n2=2.2 n4=3 n5=3.1 n7=3.2 n8=3.2.1" {
		t.Errorf("after the move into a stage: %s", got)
	}

	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		want                     []apiError
	}{
		{"into itself", "PATCH", "/nodes/n4", `{"parent_id":"n7"}`, 422, []apiError{{Status: "422", Code: "invalid", Pointer: "/parent_id"}}},
		{"into a line", "POST", "/nodes", `{"parent_id":"n6","kind":"stage","description":"x"}`, 422, []apiError{{Status: "422", Code: "invalid", Pointer: "/parent_id"}}},
		{"past the end", "POST", "/nodes", `{"parent_id":"n1","position":9,"kind":"stage","description":"x"}`, 422, []apiError{{Status: "422", Code: "invalid", Pointer: "/position"}}},
		{"unknown code", "POST", "/nodes", `{"kind":"stage","description":"x","items":[{"kind":"composition","bank":"SINAPI","code":"99999","quantity":1}]}`, 422,
			[]apiError{{Status: "422", Code: "invalid", Pointer: "/items/0/code"}}},
		{"quantity of a stage", "PATCH", "/nodes/n1", `{"quantity":2}`, 422, []apiError{{Status: "422", Code: "invalid", Pointer: "/quantity"}}},
		{"misspelt member", "PATCH", "/nodes/n2", `{"qty":2}`, 422, []apiError{{Status: "422", Code: "invalid", Pointer: "/qty"}}},
		{"wrong JSON type", "PATCH", "/nodes/n2", `{"position":"first"}`, 400, []apiError{{Status: "400", Code: "bad_request", Pointer: "/position"}}},
		{"unknown node", "PATCH", "/nodes/n99", `{"quantity":2}`, 404, []apiError{{Status: "404", Code: "not_found"}}},
		{"unknown node, get", "GET", "/nodes/n99", "", 404, []apiError{{Status: "404", Code: "not_found"}}},
		{"unknown node, delete", "DELETE", "/nodes/n99", "", 404, []apiError{{Status: "404", Code: "not_found"}}},
		{"unknown parameter", "GET", "/nodes/n1?include=items", "", 400, []apiError{{Status: "400", Code: "bad_request", Parameter: "include"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errorsOf(t, h.Do(tc.method, path+tc.path, tok, tc.body), tc.status)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}

	// Remove a line inside a stage: the answer is meta only, with the stage
	// that held it and the budget, both with their new totals. The budget now
	// holds 89306 × 120.5, 89478 × 33.25, 34649 × 50, 34586 × 1000 and 89306 × 1.
	r = h.Do("DELETE", path+"/nodes/n8", tok, "")
	doc = expect(t, r, 200)
	if _, ok := doc["data"]; ok {
		t.Errorf("DELETE answered data: %s", r.Body)
	}
	m := doc["meta"].(obj)
	if diff := cmp.Diff(obj{"id": "n8", "parent_id": "n7"}, m["removed"]); diff != "" {
		t.Errorf("meta.removed (-want +got):\n%s", diff)
	}
	// The stages that held it: n4 (2.2: 34586 × 1000 = 2620.00) and n7, now empty.
	var held []string
	for _, a := range m["ancestors"].([]any) {
		o := a.(obj)
		held = append(held, str(o["id"])+"="+str(o["number"])+":"+num(t, o["total"])+"/"+num(t, o["lines"]))
	}
	if diff := cmp.Diff([]string{"n4=3:2620.00/1", "n7=3.2:0.00/0"}, held); diff != "" {
		t.Errorf("meta.ancestors (-want +got):\n%s", diff)
	}
	if got := budgetTotal(doc); got != "21632.27" { // 21745.60 − 113.33
		t.Errorf("total after the removal %s, want 21632.27", got)
	}
	// Remove a stage at the top level, with what it holds: no parent.
	doc = expect(t, h.Do("DELETE", path+"/nodes/n1", tok, ""), 200)
	if m := doc["meta"].(obj); m["removed"].(obj)["parent_id"] != nil || len(m["ancestors"].([]any)) != 0 || num(t, m["budget"].(obj)["lines"]) != "2" {
		t.Errorf("meta after removing n1: %v", m)
	}
	if got := numbers(); got != "n6=1 n4=2 n5=2.1 n7=2.2" {
		t.Errorf("after the removals: %s", got)
	}
	errorsOf(t, h.Do("GET", path+"/nodes/n2", tok, ""), 404) // removed with its stage

	// Another company: 404 on every node operation.
	errorsOf(t, h.Do("POST", path+"/nodes", f.other.Token, `{"kind":"stage","description":"x"}`), 404)
	errorsOf(t, h.Do("GET", path+"/nodes/n4", f.other.Token, ""), 404)
	errorsOf(t, h.Do("PATCH", path+"/nodes/n4", f.other.Token, `{"description":"x"}`), 404)
	errorsOf(t, h.Do("DELETE", path+"/nodes/n4", f.other.Token, ""), 404)
}
