package v2_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// badNumbers are values no numeric member of a v2 body takes: each answers
// 422 naming the member. v2 is strict: a quoted number ("2") is not a
// number.
var badNumbers = []string{
	`1e400`,               // beyond 15 integer digits
	`-1`,                  // negative
	`"2"`,                 // a quoted number
	`"2.5"`,               // a quoted number
	`"2,5"`,               // text that is not a number
	`1e-11`,               // 11 decimal places
	`1234567890123456`,    // 16-digit integer
	`"NaN"`,               // NaN as text
	`"Infinity"`,          // infinity as text
	`0.00000000001`,       // 11 decimal places, written out
	`true`,                // not a number at all
	`[1]`,                 // not a number at all
	`12345678901234567.5`, // 17 integer digits
}

// badNumberMessage is what the answer to a bad value must say.
func badNumberMessage(v string) string {
	switch v {
	case `-1`, `"-3"`:
		return "must not be negative"
	case `1e400`, `"1e400"`, `1234567890123456`, `12345678901234567.5`:
		return "must have at most 15 digits before the decimal point"
	case `1e-11`, `0.00000000001`:
		return "must have at most 10 decimal places"
	}
	return "must be a number"
}

// numericMember is one numeric member of a v2 write body: VAL in body is
// replaced by the value tried, CODE by a fresh code; pointer is where the
// error must point.
type numericMember struct {
	name, method, path, body, pointer string
}

func doc(typ, id, attrs string) string {
	if id != "" {
		return `{"data":{"type":"` + typ + `","id":"` + id + `","attributes":` + attrs + `}}`
	}
	return `{"data":{"type":"` + typ + `","attributes":` + attrs + `}}`
}

// v2NumericMembers lists every numeric member of every v2 write body.
func v2NumericMembers(rid, sicroID, sinapiID, budgetID string) []numericMember {
	var out []numericMember
	for _, p := range []string{"pnd", "pd", "pndi", "pdi"} {
		locals := strings.Replace(`{"MG":{"pnd":1,"pd":1,"pndi":1,"pdi":1}}`, `"`+p+`":1`, `"`+p+`":VAL`, 1)
		out = append(out,
			numericMember{"resource create " + p, "POST", resources,
				doc("resources", "", `{"code":"CODE","description":"d","resource_type":4,"unit":"UN","locals":`+locals+`}`),
				"/data/attributes/locals/MG/" + p},
			numericMember{"resource update " + p, "PATCH", resources + "/" + rid,
				doc("resources", rid, `{"locals":`+locals+`}`), "/data/attributes/locals/MG/" + p})
	}
	out = append(out, numericMember{"resource create, plain body", "POST", resources,
		`{"code":"CODE","description":"d","resource_type":4,"unit":"UN","locals":{"SP":{"pnd":1,"pd":VAL,"pndi":1,"pdi":1}}}`, "/locals/SP/pd"})
	for m, valid := range map[string]string{"team_production": "1", "fic": "0", "labor_addition": "0"} {
		attrs := `{"code":"CODE","description":"d","unit":"m3","location":"AL","is_sicro":true,"team_production":1,"fic":0,"labor_addition":0}`
		out = append(out,
			numericMember{"composition create " + m, "POST", compositions,
				doc("compositions", "", strings.Replace(attrs, `"`+m+`":`+valid, `"`+m+`":VAL`, 1)), "/data/attributes/" + m},
			numericMember{"composition update " + m, "PATCH", compositions + "/" + sicroID,
				doc("compositions", sicroID, `{"`+m+`":VAL}`), "/data/attributes/" + m},
			numericMember{"composition update, plain body " + m, "PATCH", compositions + "/" + sicroID,
				`{"` + m + `":VAL}`, "/" + m})
	}
	// Whole numbers (a resource type, a calculation method) are read as
	// numbers are.
	out = append(out,
		numericMember{"resource create resource_type", "POST", resources,
			doc("resources", "", `{"code":"CODE","description":"d","resource_type":VAL,"unit":"UN"}`), "/data/attributes/resource_type"},
		numericMember{"resource update resource_type", "PATCH", resources + "/" + rid,
			doc("resources", rid, `{"resource_type":VAL}`), "/data/attributes/resource_type"},
		numericMember{"composition create rounding_type", "POST", compositions,
			doc("compositions", "", `{"code":"CODE","description":"d","unit":"m3","location":"AL","rounding_type":VAL}`), "/data/attributes/rounding_type"},
		numericMember{"composition update rounding_type", "PATCH", compositions + "/" + sicroID,
			doc("compositions", sicroID, `{"rounding_type":VAL}`), "/data/attributes/rounding_type"})
	out = append(out,
		numericMember{"add_items quantity", "POST", compositions + "/" + sinapiID + "/add_items",
			`{"items":[{"bank":"SINAPI","code":"88316","quantity":1},{"bank":"SINAPI","code":"88309","quantity":VAL}]}`, "/items/1/quantity"},
		numericMember{"add_items utilization", "POST", compositions + "/" + sinapiID + "/add_items",
			`{"items":[{"bank":"SINAPI","code":"88316","quantity":1},{"bank":"SINAPI","code":"88309","quantity":1,"utilization":VAL}]}`, "/items/1/utilization"})
	budget := `{"code":"CODE","description":"d","location":"MG","bdi":BDI,"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
		"items":[{"kind":"stage","description":"s","items":[{"kind":"composition","bank":"SINAPI","code":"89306","quantity":1},{"kind":"composition","bank":"SINAPI","code":"89478","quantity":QTY}]}]}`
	budgetWith := func(bdi, qty string) string {
		return strings.NewReplacer("BDI", bdi, "QTY", qty).Replace(budget)
	}
	out = append(out,
		numericMember{"budget create bdi", "POST", budgets, doc("budgets", "", budgetWith("VAL", "2")), "/data/attributes/bdi"},
		numericMember{"budget create quantity", "POST", budgets, doc("budgets", "", budgetWith("25", "VAL")), "/data/attributes/items/0/items/1/quantity"},
		numericMember{"budget create, plain body", "POST", budgets, budgetWith("25", "VAL"), "/items/0/items/1/quantity"},
		numericMember{"budget update bdi", "PATCH", budgets + "/" + budgetID, doc("budgets", budgetID, `{"bdi":VAL}`), "/data/attributes/bdi"},
		numericMember{"budget update quantity", "PATCH", budgets + "/" + budgetID,
			doc("budgets", budgetID, `{"items":[{"kind":"composition","bank":"SINAPI","code":"89306","quantity":VAL}]}`), "/data/attributes/items/0/quantity"},
		numericMember{"node add", "POST", budgets + "/" + budgetID + "/nodes",
			`{"kind":"composition","bank":"SINAPI","code":"89306","quantity":VAL}`, "/quantity"},
		numericMember{"node add, stage", "POST", budgets + "/" + budgetID + "/nodes",
			`{"kind":"stage","description":"s","items":[{"kind":"resource","bank":"SINAPI","code":"34586","quantity":VAL}]}`, "/items/0/quantity"},
		numericMember{"node change", "PATCH", budgets + "/" + budgetID + "/nodes/n2", `{"quantity":VAL}`, "/quantity"},
	)
	return out
}

// numbersFixture is a harness with a resource, a SICRO-model composition,
// a SINAPI-model composition with SINAPI attached, and the sample budget.
type numbersFixture struct {
	h                                *apitest.Harness
	u                                apitest.User
	rid, sicroID, sinapiID, budgetID string
}

func newNumbersFixture(t *testing.T) *numbersFixture {
	t.Helper()
	f := &numbersFixture{h: apitest.New(t)}
	f.u = f.h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	f.rid = str(data(t, create(t, f.h, resources, f.u.Token,
		`{"code":"0001","description":"Bloco","resource_type":4,"unit":"UN","locals":{"MG":{"pnd":10.5,"pd":10.25,"pndi":10.5,"pdi":10.25}}}`))["id"])
	f.sicroID = str(data(t, create(t, f.h, compositions, f.u.Token,
		`{"code":"S-1","description":"Serviço","unit":"m3","location":"AL","is_sicro":true,"team_production":2,"fic":0.1,"labor_addition":0}`))["id"])
	f.sinapiID = sinapiComposition(t, f.h, f.u.Token, "ALV-01")
	expect(t, f.h.Do("POST", compositions+"/"+f.sinapiID+"/add_banks", f.u.Token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`), 200)
	f.budgetID = str(data(t, create(t, f.h, budgets, f.u.Token, sampleBudgetBody))["id"])
	return f
}

// snapshot is everything the failed requests must leave as it was.
func (f *numbersFixture) snapshot(t *testing.T) []obj {
	t.Helper()
	var out []obj
	for _, p := range []string{resources, compositions, compositions + "/" + f.sicroID, compositions + "/" + f.sinapiID, budgets, budgets + "/" + f.budgetID} {
		out = append(out, expect(t, f.h.Do("GET", p, f.u.Token, ""), 200))
	}
	return out
}

// TestBadNumbers sends every bad value to every numeric member of every v2
// write body: 422 with one error object pointing at that member, and
// nothing changes.
func TestBadNumbers(t *testing.T) {
	f := newNumbersFixture(t)
	before := f.snapshot(t)
	n := 0
	for _, m := range v2NumericMembers(f.rid, f.sicroID, f.sinapiID, f.budgetID) {
		if !strings.Contains(m.body, "VAL") {
			t.Fatalf("test bug: %s has no VAL", m.name)
		}
		for _, v := range badNumbers {
			n++
			body := strings.NewReplacer("VAL", v, "CODE", fmt.Sprintf("N%d", n)).Replace(m.body)
			t.Run(m.name+" "+v, func(t *testing.T) {
				r := f.h.Do(m.method, m.path, f.u.Token, body)
				if want := `"detail":"` + badNumberMessage(v) + `"`; !strings.Contains(string(r.Body), want) {
					t.Errorf("the answer does not say %s:\n%s", want, r.Body)
				}
				got := errorsOf(t, r, 422)
				if diff := cmp.Diff([]apiError{{Status: "422", Code: "invalid", Pointer: m.pointer}}, got); diff != "" {
					t.Errorf("errors (-want +got):\n%s", diff)
				}
			})
		}
	}
	if diff := cmp.Diff(before, f.snapshot(t)); diff != "" {
		t.Errorf("refused requests changed something (-before +after):\n%s", diff)
	}
}

// TestQuotedNumberDetail checks the words of the answer to a quoted number.
func TestQuotedNumberDetail(t *testing.T) {
	f := newNumbersFixture(t)
	doc := expect(t, f.h.Do("PATCH", compositions+"/"+f.sicroID, f.u.Token, `{"fic":"0.2"}`), 422)
	e := doc["errors"].([]any)[0].(obj)
	if e["detail"] != "must be a number" {
		t.Errorf("detail %q, want \"must be a number\"", e["detail"])
	}
}

// TestSeveralBadFields checks that one answer lists every bad field: one
// error object each, bad numbers together with the other field errors.
func TestSeveralBadFields(t *testing.T) {
	f := newNumbersFixture(t)
	g := str(data(t, create(t, f.h, groups, f.u.Token, `{"description":"G"}`))["id"])
	attr := func(names ...string) []apiError {
		var out []apiError
		for _, n := range names {
			out = append(out, apiError{Status: "422", Code: "invalid", Pointer: n})
		}
		return out
	}
	tests := []struct {
		name, method, path, body string
		want                     []apiError
	}{
		{"group create", "POST", groups, doc("groups", "", `{"description":""}`), attr("/data/attributes/description")},
		{"group update", "PATCH", groups + "/" + g, doc("groups", g, `{"description":""}`), attr("/data/attributes/description")},
		{"resource create", "POST", resources,
			doc("resources", "", `{"code":"","description":"","resource_type":99,"unit":"","locals":{"MG":{"pnd":"1","pd":-1,"pndi":1,"pdi":1e-11}}}`),
			attr("/data/attributes/locals/MG/pd", "/data/attributes/locals/MG/pdi", "/data/attributes/locals/MG/pnd",
				"/data/attributes/code", "/data/attributes/description", "/data/attributes/resource_type", "/data/attributes/unit")},
		{"resource update", "PATCH", resources + "/" + f.rid,
			doc("resources", f.rid, `{"description":"","locals":{"MG":{"pnd":1e400,"pd":1,"pndi":1,"pdi":1},"XX":{"pnd":1,"pd":1,"pndi":1,"pdi":1}}}`),
			attr("/data/attributes/locals/MG/pnd", "/data/attributes/description", "/data/attributes/locals/XX")},
		{"composition create", "POST", compositions,
			doc("compositions", "", `{"code":"","description":"","unit":"","location":"XX","is_sicro":true,"team_production":"2","fic":-1,"labor_addition":1234567890123456}`),
			attr("/data/attributes/team_production", "/data/attributes/fic", "/data/attributes/labor_addition",
				"/data/attributes/code", "/data/attributes/description", "/data/attributes/unit", "/data/attributes/location")},
		{"composition update with an unknown attribute", "PATCH", compositions + "/" + f.sicroID,
			doc("compositions", f.sicroID, `{"colour":"red","fic":"Infinity"}`),
			attr("/data/attributes/colour", "/data/attributes/fic")},
		{"add_items", "POST", compositions + "/" + f.sinapiID + "/add_items",
			`{"items":[{"bank":"SINAPI","code":"88309","quantity":-1},{"bank":"","code":"88316","quantity":1},{"bank":"SINAPI","code":"88316","quantity":"1"},{"bank":"SINAPI","code":"NOPE","quantity":1}]}`,
			attr("/items/0/quantity", "/items/2/quantity", "/items/1/bank", "/items/3/code")},
		{"add_banks", "POST", compositions + "/" + f.sinapiID + "/add_banks",
			`{"banks":[{"name":"","location":"MG","version":"08/2026"},{"name":"SINAPI","location":"XX","version":"13/2026"}]}`,
			attr("/banks/0/name", "/banks/1/location", "/banks/1/version")},
		{"budget create", "POST", budgets,
			doc("budgets", "", `{"code":"","description":"","location":"ZZ","bdi":"25","banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
				"items":[{"kind":"composition","bank":"SINAPI","code":"89306","quantity":1e-11},{"kind":"floor"}]}`),
			attr("/data/attributes/bdi", "/data/attributes/items/0/quantity",
				"/data/attributes/code", "/data/attributes/description", "/data/attributes/location", "/data/attributes/items/1/kind")},
		{"node add with an unknown member", "POST", budgets + "/" + f.budgetID + "/nodes",
			`{"kind":"composition","bank":"SINAPI","code":"89306","qty":1,"quantity":"1"}`, attr("/qty", "/quantity")},
		{"node change with an unknown member", "PATCH", budgets + "/" + f.budgetID + "/nodes/n2",
			`{"qty":1,"quantity":-1}`, attr("/qty", "/quantity")},
		{"budget update", "PATCH", budgets + "/" + f.budgetID,
			doc("budgets", f.budgetID, `{"description":"","bdi":-5}`),
			attr("/data/attributes/bdi", "/data/attributes/description")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, f.h.Do(tt.method, tt.path, f.u.Token, tt.body), 422)
			if diff := cmp.Diff(sorted(tt.want), sorted(got)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func sorted(es []apiError) []apiError {
	out := append([]apiError(nil), es...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j].Pointer < out[i].Pointer {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestNullBody checks that a JSON null body is 400, as [] or 42 are.
func TestNullBody(t *testing.T) {
	f := newNumbersFixture(t)
	g := str(data(t, create(t, f.h, groups, f.u.Token, `{"description":"G"}`))["id"])
	for _, rq := range []struct{ method, path string }{
		{"POST", base + "/authenticate"},
		{"POST", groups}, {"PATCH", groups + "/" + g},
		{"POST", resources}, {"PATCH", resources + "/" + f.rid},
		{"POST", compositions}, {"PATCH", compositions + "/" + f.sicroID},
		{"POST", compositions + "/" + f.sinapiID + "/add_items"}, {"POST", compositions + "/" + f.sinapiID + "/add_banks"},
		{"DELETE", compositions + "/" + f.sinapiID + "/remove_items"},
		{"POST", budgets}, {"PATCH", budgets + "/" + f.budgetID},
		{"POST", budgets + "/" + f.budgetID + "/nodes"}, {"PATCH", budgets + "/" + f.budgetID + "/nodes/n2"},
	} {
		for _, body := range []string{"null", " null\n", "[]", "42"} {
			t.Run(rq.method+" "+rq.path+" "+body, func(t *testing.T) {
				got := errorsOf(t, f.h.Do(rq.method, rq.path, f.u.Token, body), 400)
				for _, e := range got {
					if e.Status != "400" {
						t.Errorf("error object %v, want status 400", e)
					}
				}
			})
		}
	}
}

// TestComputedTotalsBounded checks that a write whose computed prices or
// totals would exceed 15 integer digits is refused with 422 and changes
// nothing, though every number sent is within the bounds.
func TestComputedTotalsBounded(t *testing.T) {
	f := newNumbersFixture(t)
	expect(t, f.h.Do("PATCH", resources+"/"+f.rid, f.u.Token, `{"locals":{"MG":{"pnd":999999999999999,"pd":999999999999999,"pndi":1,"pdi":1}}}`), 200)
	before := f.snapshot(t)
	got := errorsOf(t, f.h.Do("POST", compositions+"/"+f.sinapiID+"/add_items", f.u.Token,
		`{"items":[{"bank":"MYBASE","code":"0001","quantity":999999999999999,"resource":true}]}`), 422)
	if diff := cmp.Diff([]apiError{{Status: "422", Code: "invalid"}}, got); diff != "" {
		t.Errorf("add_items errors (-want +got):\n%s", diff)
	}
	// A budget line of 999999999999999 units of a composition of 113.33.
	got = errorsOf(t, f.h.Do("PATCH", budgets+"/"+f.budgetID+"/nodes/n2", f.u.Token, `{"quantity":999999999999999}`), 422)
	if diff := cmp.Diff([]apiError{{Status: "422", Code: "invalid"}}, got); diff != "" {
		t.Errorf("node change errors (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, f.snapshot(t)); diff != "" {
		t.Errorf("refused writes changed something (-before +after):\n%s", diff)
	}
}

// TestFiguresPushedOverBounds checks the last guard: a composition and a
// budget whose computed figures a later change of a resource they use
// pushes over 15 integer digits answer 409 rather than show the number.
func TestFiguresPushedOverBounds(t *testing.T) {
	f := newNumbersFixture(t)
	expect(t, f.h.Do("PATCH", resources+"/"+f.rid, f.u.Token, `{"locals":{"MG":{"pnd":1,"pd":1,"pndi":1,"pdi":1}}}`), 200)
	cid := sinapiComposition(t, f.h, f.u.Token, "OWN-1")
	expect(t, f.h.Do("POST", compositions+"/"+cid+"/add_items", f.u.Token,
		`{"items":[{"bank":"MYBASE","code":"0001","quantity":999999999999999,"resource":true}]}`), 200)
	bid := str(data(t, create(t, f.h, budgets, f.u.Token, `{"code":"B-2","description":"d","location":"MG",
		"items":[{"kind":"composition","bank":"MYBASE","code":"OWN-1","quantity":1}]}`))["id"])
	expect(t, f.h.Do("PATCH", resources+"/"+f.rid, f.u.Token, `{"locals":{"MG":{"pnd":2,"pd":2,"pndi":2,"pdi":2}}}`), 200)
	for _, p := range []string{compositions + "/" + cid, compositions, budgets + "/" + bid, budgets,
		budgets + "/" + bid + "/reports/synthetic", budgets + "/" + bid + "/reports/analytic", budgets + "/" + bid + "/reports/abc"} {
		got := errorsOf(t, f.h.Do("GET", p, f.u.Token, ""), 409)
		if diff := cmp.Diff([]apiError{{Status: "409", Code: "conflict"}}, got); diff != "" {
			t.Errorf("GET %s (-want +got):\n%s", p, diff)
		}
	}
	// The exports and the chart, and the v1 budget reads, say it too.
	for _, p := range []string{budgets + "/" + bid + "/reports/synthetic?format=csv", budgets + "/" + bid + "/reports/analytic?format=csv",
		budgets + "/" + bid + "/reports/abc?format=csv", budgets + "/" + bid + "/reports/abc.svg",
		budgets + "/" + bid + "/reports/analytic.xlsx", budgets + "/" + bid + "/reports/synthetic.pdf",
		"/api/v1/bud/budgets/list", "/api/v1/bud/budgets/" + bid + "/synthetic", "/api/v1/bud/budgets/" + bid + "/analytical_with_unit_price"} {
		if r := f.h.Do("GET", p, f.u.Token, ""); r.Status != 409 || !strings.Contains(string(r.Body), "15 digits") {
			t.Errorf("GET %s: %d\n%s", p, r.Status, r.Body)
		}
	}
	expect(t, f.h.Do("POST", compositions+"/"+cid+"/add_items", f.u.Token,
		`{"items":[{"bank":"MYBASE","code":"0001","quantity":3,"resource":true}]}`), 200)
	a := attrs(t, expect(t, f.h.Do("GET", budgets+"/"+bid, f.u.Token, ""), 200))
	if num(t, a["total"]) != "6.00" {
		t.Errorf("total after lowering the quantity %v, want 6.00", a["total"])
	}
}

// TestNumbersInAnswers checks the answers of budgets at the edges (totals
// of 15 integer digits, a budget of zero total, quantities of 7 places
// multiplied down the tree): no JSON answer holds a number out of bounds,
// and no chart holds NaN, Inf or a run of more than 15 digits.
func TestNumbersInAnswers(t *testing.T) {
	f := newNumbersFixture(t)
	huge := str(data(t, create(t, f.h, budgets, f.u.Token, `{"code":"HUGE","description":"d","location":"MG",
		"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
		"items":[{"kind":"composition","bank":"SINAPI","code":"89306","quantity":8000000000000},
		         {"kind":"composition","bank":"SINAPI","code":"89478","quantity":0.0000001}]}`))["id"])
	empty := str(data(t, create(t, f.h, budgets, f.u.Token, `{"code":"EMPTY","description":"d","location":"MG"}`))["id"])
	// An own SICRO-model composition: labour hours per unit are coefficient
	// ÷ team production, 1 ÷ 3 = 0.3333333333333333 (16 places) exactly.
	sid := str(data(t, create(t, f.h, compositions, f.u.Token,
		`{"code":"S-3","description":"d","unit":"m3","location":"AL","is_sicro":true,"team_production":3}`))["id"])
	expect(t, f.h.Do("POST", compositions+"/"+sid+"/add_banks", f.u.Token, `{"banks":[{"name":"SICRO3","location":"AL","version":"01/2024"}]}`), 200)
	expect(t, f.h.Do("POST", compositions+"/"+sid+"/add_items", f.u.Token, `{"items":[{"bank":"SICRO3","code":"P9801","quantity":1},{"bank":"SICRO3","code":"E9001","quantity":1,"utilization":0.7}]}`), 200)
	sicro := str(data(t, create(t, f.h, budgets, f.u.Token, `{"code":"SICRO","description":"d","location":"AL",
		"items":[{"kind":"composition","bank":"MYBASE","code":"S-3","quantity":0.1234567}]}`))["id"])
	places := regexp.MustCompile(`[0-9]\.[0-9]{11,}`)
	for _, p := range []string{"/api/v1/bud/budgets/" + sicro + "/analytical_with_unit_price", "/api/v1/bud/budgets/" + sicro + "/synthetic",
		budgets + "/" + sicro + "/reports/analytic?format=csv", budgets + "/" + sicro + "/reports/abc?format=csv"} {
		r := f.h.Do("GET", p, f.u.Token, "")
		if r.Status != 200 {
			t.Fatalf("GET %s: %d\n%s", p, r.Status, r.Body)
		}
		if m := places.Find(bytes.ReplaceAll(r.Body, []byte(","), []byte("."))); m != nil {
			t.Errorf("GET %s holds %s: more than 10 places", p, m)
		}
	}
	long := regexp.MustCompile(`[0-9]{16,}|NaN|Inf`)
	for _, id := range []string{huge, empty, sicro, f.budgetID} {
		for _, rep := range []string{"", "/reports/synthetic", "/reports/analytic", "/reports/abc", "/reports/abc?abcLimits=33.3333333333,66.6666666667"} {
			r := f.h.Do("GET", budgets+"/"+id+rep, f.u.Token, "")
			if r.Status != 200 {
				t.Fatalf("GET %s: %d\n%s", rep, r.Status, r.Body)
			}
			if p := httpapi.AnswerNumbersProblem(r.Body); p != "" {
				t.Errorf("GET budget %s%s: %s\n%s", id, rep, p, r.Body)
			}
		}
		r := f.h.Do("GET", budgets+"/"+id+"/reports/abc.svg", f.u.Token, "")
		if r.Status != 200 {
			t.Fatalf("abc.svg: %d\n%s", r.Status, r.Body)
		}
		if m := long.Find(r.Body); m != nil {
			t.Errorf("abc.svg of %s holds %q", id, m)
		}
	}
	if got := errorsOf(t, f.h.Do("GET", budgets+"/"+huge+"/reports/abc?abcLimits=50.00000000001,80", f.u.Token, ""), 400); len(got) != 1 || got[0].Parameter != "abcLimits" {
		t.Errorf("abcLimits with 11 places: %v", got)
	}
}

// TestNumberSyntaxStays400 checks that malformed JSON in a number is still
// 400 naming the byte offset, not 422.
func TestNumberSyntaxStays400(t *testing.T) {
	f := newNumbersFixture(t)
	for _, body := range []string{`{"bdi":NaN}`, `{"bdi":Infinity}`, `{"bdi":-}`, `{"bdi":01}`, `{"bdi":1.}`} {
		r := f.h.Do("PATCH", budgets+"/"+f.budgetID, f.u.Token, body)
		got := errorsOf(t, r, 400)
		if len(got) != 1 || !strings.Contains(string(r.Body), "at byte") {
			t.Errorf("%s: %v\n%s", body, got, r.Body)
		}
	}
}
