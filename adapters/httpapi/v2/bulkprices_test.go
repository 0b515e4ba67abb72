package v2_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

const bulkPrices = base + "/prices/bulk"

// bulkAnswers posts the queries and returns the answers' attributes, in
// order, checking each answer's type and id (its index).
func bulkAnswers(t *testing.T, h *apitest.Harness, token, queries string) []obj {
	t.Helper()
	doc := expect(t, h.Do("POST", bulkPrices, token, `{"data":[`+queries+`]}`), 200)
	list, ok := doc["data"].([]any)
	if !ok {
		t.Fatalf("data is not a list: %v", doc)
	}
	out := make([]obj, len(list))
	for i, x := range list {
		o := x.(obj)
		if o["type"] != "prices" || o["id"] != strconv.Itoa(i) {
			t.Fatalf("answer %d is %v %v", i, o["type"], o["id"])
		}
		out[i] = o["attributes"].(obj)
	}
	return out
}

// jsonOf is v as compact JSON, numbers as they were written.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// itemErrors are an answer's error objects (status, code, pointer).
func itemErrors(t *testing.T, a obj) []apiError {
	t.Helper()
	list, ok := a["errors"].([]any)
	if !ok || len(list) == 0 {
		t.Fatalf("answer without errors: %v", a)
	}
	var out []apiError
	for _, e := range list {
		o := e.(obj)
		if o["title"] == "" || o["detail"] == "" {
			t.Errorf("error object without title or detail: %v", o)
		}
		ae := apiError{Status: str(o["status"]), Code: str(o["code"])}
		if src, ok := o["source"].(obj); ok {
			ae.Pointer = str(src["pointer"])
		}
		out = append(out, ae)
	}
	return out
}

// ownFixtures gives the company of token an own composition ALV-001 in MG
// (SINAPI 89306's items) and an own resource R-OWN priced in MG.
func ownFixtures(t *testing.T, h *apitest.Harness, token string) {
	t.Helper()
	id := sinapiComposition(t, h, token, "ALV-001")
	expect(t, h.Do("POST", compositions+"/"+id+"/add_banks", token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`), 200)
	expect(t, h.Do("POST", compositions+"/"+id+"/add_items", token, items89306), 200)
	create(t, h, resources, token, `{"code":"R-OWN","description":"Bloco próprio","type":4,"unit":"UN","status":true,"locals":{"MG":{"pnd":2.5,"pd":2.4,"pndi":2.3,"pdi":2.2}}}`)
}

// TestBulkPrices prices bank and own items in one request: each answer
// carries the figures the single reads give, in the request's order, and
// an item that cannot be priced carries its own error while the others
// are answered.
func TestBulkPrices(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	importExtra(t, h)
	ownFixtures(t, h, u.Token)

	got := bulkAnswers(t, h, u.Token, `
		{"bank":"SINAPI","code":"89306","state":"MG","month":"08/2026"},
		{"bank":"sinapi","code":" 89306 ","state":"mg","desonerado":true},
		{"bank":"SICRO3","code":"E9017","state":"AL","kind":"resource"},
		{"bank":"MYBASE","code":"ALV-001","state":"MG"},
		{"bank":"MYBASE","code":"R-OWN","state":"MG","desonerado":true},
		{"bank":"SINAPI","code":"99999","state":"MG"},
		{"bank":"SINAPI","code":"7777","state":"MG","month":"12/2023"},
		{"bank":"ORSE","code":"00001","state":"SE"},
		{"bank":"MYBASE","code":"R-OWN","state":"SP"},
		{"bank":"SINAPI","code":"89306","state":"MG","month":"01/2020"},
		{"bank":"SINAPI","code":"7777","state":"MG","month":"12/2023","kind":"resource","desonerado":true}`)
	if len(got) != 11 {
		t.Fatalf("%d answers, want 11", len(got))
	}

	// The figures of the single reads.
	single := func(path string) obj { return attrs(t, expect(t, h.Do("GET", path, u.Token, ""), 200)) }
	bank89306 := single(sinapiPath + "/items/89306")
	e9017 := single(sicroPath + "/items/E9017?kind=resource")
	own := single(compositions + "/find_by_code?code=ALV-001&state=MG")
	ownRes := single(resources + "/find_by_code?code=R-OWN")

	for i, tt := range []struct {
		price, prices, edition, month, kind string
	}{
		{"113.33", jsonOf(t, bank89306["prices"]), sinapiID, "08/2026", "composition"},
		{"110.13", jsonOf(t, bank89306["prices"]), sinapiID, "08/2026", "composition"}, // newest of MG: 08/2026, not 12/2023
		{"185.4888", jsonOf(t, e9017["prices"]), sicroID, "01/2024", "resource"},
		{num(t, own["prices"].(obj)["pnd"]), jsonOf(t, own["prices"]), "", "", "composition"},
		{"2.4", jsonOf(t, ownRes["locals"].(obj)["MG"]), "", "", "resource"},
	} {
		a := got[i]
		if a["errors"] != nil {
			t.Errorf("answer %d: errors %v", i, a["errors"])
			continue
		}
		if num(t, a["price"]) != tt.price || a["priced"] != true {
			t.Errorf("answer %d: price %v (priced %v), want %s", i, a["price"], a["priced"], tt.price)
		}
		if p := jsonOf(t, a["prices"]); p != tt.prices {
			t.Errorf("answer %d: prices %s, want the single read's %s", i, p, tt.prices)
		}
		if str(a["edition"]) != tt.edition || str(a["month"]) != tt.month || a["kind"] != tt.kind {
			t.Errorf("answer %d: edition %v month %v kind %v, want %q %q %q", i, a["edition"], a["month"], a["kind"], tt.edition, tt.month, tt.kind)
		}
	}
	if got[0]["description"] != bank89306["description"] || got[0]["unit"] != "M2" || got[0]["desonerado"] != false {
		t.Errorf("answer 0: %v", got[0])
	}
	if got[1]["bank"] != "SINAPI" || got[1]["code"] != "89306" || got[1]["state"] != "MG" || got[1]["desonerado"] != true {
		t.Errorf("answer 1 does not give the query as understood: %v", got[1])
	}
	if got[3]["incomplete"] != false || got[3]["description"] != own["description"] || got[3]["month"] != nil {
		t.Errorf("answer 3: %v", got[3])
	}
	if got[4]["description"] != "Bloco próprio" || got[4]["unit"] != "UN" {
		t.Errorf("answer 4: %v", got[4])
	}
	// 12/2023 has desonerado prices only: não desonerado is null, never 0.
	if a := got[6]; a["errors"] != nil || a["price"] != nil || a["priced"] != false || a["kind"] != "composition" {
		t.Errorf("answer 6 (no não desonerado price): %v", a)
	}
	if a := got[10]; a["errors"] != nil || num(t, a["price"]) != "1.5" || a["kind"] != "resource" {
		t.Errorf("answer 10 (the resource of a shared code): %v", a)
	}

	for i, want := range map[int][]apiError{
		5: {{Status: "404", Code: "not_found", Pointer: "/data/5"}},
		7: {{Status: "404", Code: "not_found", Pointer: "/data/7"}},
		8: {{Status: "422", Code: "invalid", Pointer: "/data/8/state"}},
		9: {{Status: "404", Code: "not_found", Pointer: "/data/9"}},
	} {
		a := got[i]
		if diff := cmp.Diff(want, itemErrors(t, a)); diff != "" {
			t.Errorf("answer %d errors (-want +got):\n%s", i, diff)
		}
		if a["price"] != nil || a["prices"] != nil {
			t.Errorf("answer %d has figures beside its errors: %v", i, a)
		}
	}
}

// TestBulkPricesCompany: own codes are the caller's company's; another
// company's are not found, while reference banks answer every company.
func TestBulkPricesCompany(t *testing.T) {
	h := apitest.New(t)
	a := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	b := h.AddUser("Construtora Beta", "bia@beta.com.br")
	ownFixtures(t, h, a.Token)

	const q = `{"bank":"MYBASE","code":"ALV-001","state":"MG"},{"bank":"MYBASE","code":"R-OWN","state":"MG","kind":"resource"},{"bank":"SINAPI","code":"89306"}`
	mine := bulkAnswers(t, h, a.Token, q)
	for i, x := range mine {
		if x["errors"] != nil {
			t.Errorf("company A, answer %d: %v", i, x["errors"])
		}
	}
	theirs := bulkAnswers(t, h, b.Token, q)
	for i := 0; i < 2; i++ {
		if diff := cmp.Diff([]apiError{{Status: "404", Code: "not_found", Pointer: "/data/" + strconv.Itoa(i)}}, itemErrors(t, theirs[i])); diff != "" {
			t.Errorf("company B, answer %d (-want +got):\n%s", i, diff)
		}
	}
	if theirs[2]["errors"] != nil || num(t, theirs[2]["price"]) != "113.33" {
		t.Errorf("company B, the bank item: %v", theirs[2])
	}
	// B's own composition of the same code is B's answer.
	sinapiComposition(t, h, b.Token, "ALV-001")
	theirs = bulkAnswers(t, h, b.Token, q)
	if theirs[0]["errors"] != nil || num(t, theirs[0]["price"]) != "0" || num(t, mine[0]["price"]) == "0" {
		t.Errorf("B's own ALV-001 (no items, 0) against A's: %v, %v", theirs[0], mine[0])
	}
}

// TestBulkPricesThousand: 1,000 items, a tenth of them not held, are
// answered in the request's order, each bad one with its own error.
func TestBulkPricesThousand(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	ownFixtures(t, h, u.Token)
	codes := []string{"89306", "88316", "88309", "87286", "34788", "34649", "34586"}
	var qs []string
	for i := 0; i < 1000; i++ {
		switch {
		case i%10 == 7:
			qs = append(qs, fmt.Sprintf(`{"bank":"SINAPI","code":"NOPE-%d","state":"MG"}`, i))
		case i%10 == 3:
			qs = append(qs, `{"bank":"MYBASE","code":"R-OWN","state":"MG"}`)
		default:
			qs = append(qs, fmt.Sprintf(`{"bank":"SINAPI","code":%q,"state":"MG","desonerado":%t}`, codes[i%len(codes)], i%2 == 0))
		}
	}
	got := bulkAnswers(t, h, u.Token, strings.Join(qs, ","))
	if len(got) != 1000 {
		t.Fatalf("%d answers, want 1000", len(got))
	}
	for i, a := range got {
		switch {
		case i%10 == 7:
			want := []apiError{{Status: "404", Code: "not_found", Pointer: "/data/" + strconv.Itoa(i)}}
			if diff := cmp.Diff(want, itemErrors(t, a)); diff != "" || a["code"] != fmt.Sprintf("NOPE-%d", i) {
				t.Fatalf("answer %d (code %v): (-want +got):\n%s", i, a["code"], diff)
			}
		case i%10 == 3:
			if a["errors"] != nil || num(t, a["price"]) != "2.5" {
				t.Fatalf("answer %d: %v", i, a)
			}
		default:
			if a["errors"] != nil || a["code"] != codes[i%len(codes)] || a["desonerado"] != (i%2 == 0) || a["price"] == nil {
				t.Fatalf("answer %d: %v", i, a)
			}
		}
	}
}

// TestBulkPricesRefused: a body that is not a bulk request is refused
// whole, every bad member named at once.
func TestBulkPricesRefused(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	pointers := func(errs []apiError) []string {
		out := []string{}
		for _, e := range errs {
			out = append(out, e.Pointer)
		}
		return out
	}
	one := `{"bank":"SINAPI","code":"89306","state":"MG"}`
	over := `{"data":[` + strings.TrimSuffix(strings.Repeat(one+",", 1001), ",") + `]}`
	for _, tt := range []struct {
		name, body string
		status     int
		pointers   []string
	}{
		{"over 1,000 items", over, 422, []string{"/data"}},
		{"no item", `{"data":[]}`, 422, []string{"/data"}},
		{"no data", `{"items":[` + one + `]}`, 422, []string{"/items", "/data"}},
		{"every bad member at once", `{"data":[` + one + `,
			{"code":"1","state":"MG"},
			{"bank":"SINAPI","code":"  ","state":"XX","month":"2026-08","kind":"service","price":1},
			{"bank":"MYBASE","code":"ALV-001","month":"08/2026"}]}`, 422,
			[]string{"/data/2/price", "/data/1/bank", "/data/2/code", "/data/2/state", "/data/2/month", "/data/2/kind", "/data/3/state", "/data/3/month"}},
		{"wrong JSON types", `{"data":[{"bank":1,"code":"1","desonerado":"yes"},"89306",{"bank":"SINAPI","code":null}]}`, 400,
			[]string{"/data/0/bank", "/data/0/desonerado", "/data/1", "/data/2/code"}},
		{"data not an array", `{"data":{"bank":"SINAPI","code":"89306"}}`, 400, []string{"/data"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			errs := errorsOf(t, h.Do("POST", bulkPrices, u.Token, tt.body), tt.status)
			if diff := cmp.Diff(tt.pointers, pointers(errs)); diff != "" {
				t.Errorf("pointers (-want +got):\n%s", diff)
			}
		})
	}
	errorsOf(t, h.Do("POST", bulkPrices, "", `{"data":[`+one+`]}`), 401)
	errorsOf(t, h.Do("POST", bulkPrices, u.Token, "not json"), 400)
	errorsOf(t, h.Do("POST", bulkPrices+"?x=1", u.Token, `{"data":[`+one+`]}`), 400)
}
