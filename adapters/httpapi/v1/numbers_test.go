package v1_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// badNumbers are values no numeric member of a v1 body takes: each answers
// 422 naming the member. (A quoted number, "2", is accepted by v1: see
// TestQuotedNumbers.)
var badNumbers = []string{
	`1e400`,               // beyond 15 integer digits
	`-1`,                  // negative
	`"2,5"`,               // text that is not a number
	`1e-11`,               // 11 decimal places
	`1234567890123456`,    // 16-digit integer
	`"NaN"`,               // NaN as text
	`"Infinity"`,          // infinity as text
	`0.00000000001`,       // 11 decimal places, written out
	`"1e400"`,             // out of bounds as text too
	`true`,                // not a number at all
	`[1]`,                 // not a number at all
	`"-3"`,                // negative as text
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

// numericMember is one numeric member of a v1 write body: VAL in body is
// replaced by the value tried, CODE by a fresh code.
type numericMember struct {
	name, method, path, body, field string
}

// v1NumericMembers lists every numeric member of every v1 write body, on a
// fresh harness with a resource, a SICRO-model composition and a
// SINAPI-model composition with SINAPI attached.
func v1NumericMembers(t *testing.T, rid, sicroID, sinapiID string) []numericMember {
	t.Helper()
	var out []numericMember
	for _, p := range []string{"pnd", "pd", "pndi", "pdi"} {
		body := `{"code":"CODE","description":"d","type":4,"unit":"UN","local":"MG","pnd":1,"pd":1,"pndi":1,"pdi":1}`
		out = append(out, numericMember{"resource create " + p, "POST", base + "/resources",
			strings.Replace(body, `"`+p+`":1`, `"`+p+`":VAL`, 1), p})
		upd := `{"locals":{"MG":{"pnd":1,"pd":1,"pndi":1,"pdi":1}}}`
		out = append(out, numericMember{"resource update locals " + p, "PUT", base + "/resources/" + rid,
			strings.Replace(upd, `"`+p+`":1`, `"`+p+`":VAL`, 1), "locals[MG]." + p})
	}
	out = append(out, numericMember{"resource update locals single price", "PUT", base + "/resources/" + rid,
		`{"locals":{"MG":VAL}}`, "locals[MG]"})
	for m, valid := range map[string]string{"team_production": "1", "fic": "0", "adc_labor": "0"} {
		body := `{"code":"CODE","description":"d","unit":"m3","local":"AL","is_sicro":true,"team_production":1,"fic":0,"adc_labor":0}`
		out = append(out, numericMember{"composition create " + m, "POST", base + "/compositions",
			strings.Replace(body, `"`+m+`":`+valid, `"`+m+`":VAL`, 1), m})
		out = append(out, numericMember{"composition update " + m, "PUT", base + "/compositions/" + sicroID,
			`{"` + m + `":VAL}`, m})
	}
	// Whole numbers (a resource type, a calculation method) are read as
	// numbers are.
	out = append(out,
		numericMember{"resource create type", "POST", base + "/resources",
			`{"code":"CODE","description":"d","type":VAL,"unit":"UN","local":"MG","pnd":1,"pd":1,"pndi":1,"pdi":1}`, "type"},
		numericMember{"resource update type", "PUT", base + "/resources/" + rid, `{"type":VAL}`, "type"},
		numericMember{"composition create rounding_type", "POST", base + "/compositions",
			`{"code":"CODE","description":"d","unit":"m3","local":"AL","is_sicro":true,"team_production":1,"rounding_type":VAL}`, "rounding_type"},
		numericMember{"composition update rounding_type", "PUT", base + "/compositions/" + sicroID, `{"rounding_type":VAL}`, "rounding_type"})
	out = append(out, numericMember{"add-items qty", "POST", base + "/compositions/" + sinapiID + "/add-items",
		`{"items":[{"bank":"SINAPI","code":"88316","qty":1},{"bank":"SINAPI","code":"88309","qty":VAL}]}`, "items[1].qty"})
	return out
}

// TestBadNumbers sends every bad value to every numeric member of every v1
// write body: 422 naming exactly that member, and nothing changes.
func TestBadNumbers(t *testing.T) {
	h, u := setup(t)
	rid := id(t, createResource(t, h, u.Token, "0001"))
	sicroID := id(t, call(t, h, "POST", base+"/compositions", u.Token,
		`{"code":"S-1","description":"Serviço","unit":"m3","local":"AL","is_sicro":true,"team_production":2,"fic":0.1,"adc_labor":0}`, 201))
	sinapiID := id(t, createComposition(t, h, u.Token, "ALV-01"))
	attachSinapi(t, h, u.Token, sinapiID)
	snapshot := func() []map[string]any {
		return []map[string]any{
			call(t, h, "GET", base+"/resources", u.Token, "", 200),
			call(t, h, "GET", base+"/compositions/"+sicroID, u.Token, "", 200),
			call(t, h, "GET", base+"/compositions/"+sinapiID, u.Token, "", 200),
			call(t, h, "GET", base+"/compositions", u.Token, "", 200),
		}
	}
	before := snapshot()
	n := 0
	for _, m := range v1NumericMembers(t, rid, sicroID, sinapiID) {
		if !strings.Contains(m.body, "VAL") {
			t.Fatalf("test bug: %s has no VAL", m.name)
		}
		for _, v := range badNumbers {
			n++
			body := strings.ReplaceAll(strings.ReplaceAll(m.body, "VAL", v), "CODE", fmt.Sprintf("N%d", n))
			t.Run(m.name+" "+v, func(t *testing.T) {
				got := call(t, h, m.method, m.path, u.Token, body, 422)
				checkError(t, got, m.field)
				if diff := cmp.Diff(map[string]any{m.field: []any{badNumberMessage(v)}}, got["errors"]); diff != "" {
					t.Errorf("errors (-want +got):\n%s", diff)
				}
			})
		}
	}
	if diff := cmp.Diff(before, snapshot()); diff != "" {
		t.Errorf("refused requests changed something (-before +after):\n%s", diff)
	}
}

// TestQuotedNumbers replays what the real v1 client sends: numbers as JSON
// strings holding numeric text. They are taken as the numbers they spell,
// within the same bounds.
func TestQuotedNumbers(t *testing.T) {
	h, u := setup(t)
	res := call(t, h, "POST", base+"/resources", u.Token,
		`{"code":"0001","description":"Bloco","type":4,"unit":"UN","local":"MG","pnd":"10.5","pd":"10.25","pndi":" 10.5 ","pdi":"1.025e1","status":true,"note":""}`, 201)
	want := map[string]any{"MG": map[string]any{"pnd": num("10.5"), "pd": num("10.25"), "pndi": num("10.5"), "pdi": num("10.25")}}
	if diff := cmp.Diff(want, res["locals"]); diff != "" {
		t.Errorf("create with quoted prices (-want +got):\n%s", diff)
	}
	upd := call(t, h, "PUT", base+"/resources/"+id(t, res), u.Token, `{"locals":{"MG":{"pnd":"2","pd":"2.5","pndi":"0","pdi":"0"}}}`, 200)
	want = map[string]any{"MG": map[string]any{"pnd": num("2"), "pd": num("2.5"), "pndi": num("0"), "pdi": num("0")}}
	if diff := cmp.Diff(want, upd["local"]); diff != "" {
		t.Errorf("update with quoted prices (-want +got):\n%s", diff)
	}

	// Whole numbers as text.
	if got := call(t, h, "PUT", base+"/resources/"+id(t, res), u.Token, `{"type":"3"}`, 200); got["type"] != num("3") {
		t.Errorf("type after {\"type\":\"3\"}: %v", got["type"])
	}

	// A SICRO resource's single price per state, as text.
	sr := call(t, h, "POST", base+"/resources", u.Token,
		`{"code":"0002","description":"Pedreiro","type":1,"unit":"H","local":"AL","pnd":"20","is_sicro":true,"status":true}`, 201)
	sr = call(t, h, "PUT", base+"/resources/"+id(t, sr), u.Token, `{"locals":{"AL":"21.5","SE":"19"}}`, 200)
	if diff := cmp.Diff(map[string]any{"AL": num("21.5"), "SE": num("19")}, sr["local"]); diff != "" {
		t.Errorf("SICRO resource prices as text (-want +got):\n%s", diff)
	}

	// A SINAPI-model composition as the client sends it: team_production "0".
	c := call(t, h, "POST", base+"/compositions", u.Token,
		`{"code":"ALV-01","description":"Alvenaria","type":"PARE","unit":"M2","local":"MG","is_sicro":false,"team_production":"0","fic":"0","adc_labor":"0"}`, 201)
	if c["team_production"] != nil {
		t.Errorf("SINAPI model shows team_production %v", c["team_production"])
	}
	// The SICRO model: quoted team production, FIC and labour addition.
	s := call(t, h, "POST", base+"/compositions", u.Token,
		`{"code":"S-1","description":"Serviço","unit":"m3","local":"AL","is_sicro":true,"team_production":"2.5","fic":"0.0123","adc_labor":"15"}`, 201)
	if s["team_production"] != num("2.5") || s["fic"] != num("0.0123") || s["adc_labor"] != num("15") {
		t.Errorf("SICRO figures %v %v %v, want 2.5 0.0123 15", s["team_production"], s["fic"], s["adc_labor"])
	}
	s = call(t, h, "PUT", base+"/compositions/"+id(t, s), u.Token, `{"team_production":"4","rounding_type":"1"}`, 200)
	if diff := cmp.Diff(map[string]any{"type": num("1"), "description": "Arredondar com 2 casas decimais"}, s["calculation_method"]); diff != "" {
		t.Errorf("rounding_type \"1\" (-want +got):\n%s", diff)
	}
	if s["team_production"] != num("4") {
		t.Errorf("team_production after the update %v, want 4", s["team_production"])
	}

	attachSinapi(t, h, u.Token, id(t, c))
	c = call(t, h, "POST", base+"/compositions/"+id(t, c)+"/add-items", u.Token, `{"items":[{"bank":"SINAPI","code":"88309","qty":"2.5"}]}`, 200)
	items, _ := c["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["coefficient"] != num("2.5") {
		t.Errorf("items after add-items with qty \"2.5\": %v", c["items"])
	}
}

// TestSeveralBadFields checks that one answer lists every bad field: bad
// numbers found while reading the body together with the use case's own
// field errors.
func TestSeveralBadFields(t *testing.T) {
	h, u := setup(t)
	rid := id(t, createResource(t, h, u.Token, "0001"))
	cid := id(t, call(t, h, "POST", base+"/compositions", u.Token,
		`{"code":"S-1","description":"Serviço","unit":"m3","local":"AL","is_sicro":true,"team_production":2,"fic":0.1,"adc_labor":0}`, 201))
	sinapiID := id(t, createComposition(t, h, u.Token, "ALV-01"))
	attachSinapi(t, h, u.Token, sinapiID)
	g := id(t, call(t, h, "POST", base+"/groups", u.Token, `{"description":"G"}`, 201))
	tests := []struct {
		name, method, path, body string
		fields                   []string
	}{
		{"group create", "POST", "/groups", `{"description":""}`, []string{"description"}},
		{"group update", "PUT", "/groups/" + g, `{"description":""}`, []string{"description"}},
		{"resource create", "POST", "/resources",
			`{"code":"","description":"","type":99,"unit":"","local":"XX","pnd":"x","pd":-1,"pndi":1e400,"pdi":1e-11,"group_id":"nope"}`,
			[]string{"code", "description", "type", "unit", "local", "pnd", "pd", "pndi", "pdi", "group_id"}},
		{"resource update", "PUT", "/resources/" + rid,
			`{"description":"","unit":"","locals":{"MG":{"pnd":"2,5","pd":1,"pndi":1,"pdi":1},"XX":{"pnd":1,"pd":1,"pndi":1,"pdi":1},"SP":-1}}`,
			[]string{"description", "unit", "locals[MG].pnd", "locals[XX]", "locals[SP]"}},
		{"composition create", "POST", "/compositions",
			`{"code":"","description":"","unit":"","local":"XX","is_sicro":true,"team_production":"NaN","fic":-1,"adc_labor":1234567890123456,"rounding_type":9}`,
			[]string{"code", "description", "unit", "local", "team_production", "fic", "adc_labor", "rounding_type"}},
		{"composition update", "PUT", "/compositions/" + cid,
			`{"description":"","type":"NOPE","fic":"Infinity","adc_labor":-2}`,
			[]string{"description", "type", "fic", "adc_labor"}},
		{"add-items", "POST", "/compositions/" + sinapiID + "/add-items",
			`{"items":[{"bank":"SINAPI","code":"88309","qty":-1},{"bank":"","code":"88316","qty":1},{"bank":"SINAPI","code":"88316","qty":"x"},{"bank":"SINAPI","code":"NOPE","qty":1}]}`,
			[]string{"items[0].qty", "items[1].bank", "items[2].qty", "items[3].code"}},
		{"add-bases", "POST", "/compositions/" + sinapiID + "/add-bases",
			`{"bases":[{"name":"","local":"MG","version":"08/2026"},{"name":"SINAPI","local":"XX","version":"13/2026"}]}`,
			[]string{"bases[0].name", "bases[1].local", "bases[1].version"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkError(t, call(t, h, tt.method, base+tt.path, u.Token, tt.body, 422), tt.fields...)
		})
	}
}

// TestNullBody checks that a JSON null body is 400, as [] or 42 are.
func TestNullBody(t *testing.T) {
	h, u := setup(t)
	rid := id(t, createResource(t, h, u.Token, "0001"))
	cid := id(t, createComposition(t, h, u.Token, "ALV-01"))
	g := id(t, call(t, h, "POST", base+"/groups", u.Token, `{"description":"G"}`, 201))
	for _, rq := range []struct{ method, path string }{
		{"POST", "/api/v1/login/authenticate_user"},
		{"POST", base + "/groups"}, {"PUT", base + "/groups/" + g},
		{"POST", base + "/resources"}, {"PUT", base + "/resources/" + rid},
		{"POST", base + "/compositions"}, {"PUT", base + "/compositions/" + cid},
		{"POST", base + "/compositions/" + cid + "/add-items"}, {"POST", base + "/compositions/" + cid + "/add-bases"},
		{"DELETE", base + "/compositions/" + cid + "/remove-items"},
	} {
		for _, body := range []string{"null", " null\n", "[]", "42"} {
			t.Run(rq.method+" "+rq.path+" "+body, func(t *testing.T) {
				checkError(t, call(t, h, rq.method, rq.path, u.Token, body, 400))
			})
		}
	}
}

// TestNumberSyntaxStays400 checks that malformed JSON in a number is still
// 400 with the byte offset, not 422.
func TestNumberSyntaxStays400(t *testing.T) {
	h, u := setup(t)
	for _, body := range []string{
		`{"code":"X","description":"d","type":4,"unit":"UN","local":"MG","pnd":NaN}`,
		`{"code":"X","description":"d","type":4,"unit":"UN","local":"MG","pnd":Infinity}`,
		`{"code":"X","description":"d","type":4,"unit":"UN","local":"MG","pnd":01}`,
		`{"code":"X","description":"d","type":4,"unit":"UN","local":"MG","pnd":1.}`,
	} {
		got := call(t, h, "POST", base+"/resources", u.Token, body, 400)
		checkError(t, got)
		if msg, _ := got["message"].(string); !strings.Contains(msg, "at byte") {
			t.Errorf("%s: message %q does not name the byte offset", body, msg)
		}
	}
}

// TestComputedTotalsBounded checks that a write whose computed prices would
// exceed 15 integer digits is refused (422) and changes nothing, even when
// every number sent is within the bounds.
func TestComputedTotalsBounded(t *testing.T) {
	h, u := setup(t)
	createResource(t, h, u.Token, "0001", `,"pnd":999999999999999,"pd":999999999999999`)
	cid := id(t, createComposition(t, h, u.Token, "ALV-01"))
	before := call(t, h, "GET", base+"/compositions/"+cid, u.Token, "", 200)
	got := call(t, h, "POST", base+"/compositions/"+cid+"/add-items", u.Token,
		`{"items":[{"bank":"MYBASE","code":"0001","qty":999999999999999}]}`, 422)
	checkError(t, got, "base")
	if diff := cmp.Diff(before, call(t, h, "GET", base+"/compositions/"+cid, u.Token, "", 200)); diff != "" {
		t.Errorf("the refused add-items changed the composition (-before +after):\n%s", diff)
	}
	// Within the bounds: taken.
	call(t, h, "POST", base+"/compositions/"+cid+"/add-items", u.Token, `{"items":[{"bank":"MYBASE","code":"0001","qty":1}]}`, 200)
}

// TestFiguresPushedOverBounds checks the last guard: a composition whose
// computed figures a later change of a resource it uses pushes over 15
// integer digits answers 409 rather than show the number, until a quantity
// is lowered.
func TestFiguresPushedOverBounds(t *testing.T) {
	h, u := setup(t)
	rid := id(t, createResource(t, h, u.Token, "0001", `,"pnd":1,"pd":1`))
	cid := id(t, createComposition(t, h, u.Token, "ALV-01"))
	call(t, h, "POST", base+"/compositions/"+cid+"/add-items", u.Token, `{"items":[{"bank":"MYBASE","code":"0001","qty":999999999999999}]}`, 200)
	call(t, h, "PUT", base+"/resources/"+rid, u.Token, `{"locals":{"MG":{"pnd":2,"pd":2,"pndi":2,"pdi":2}}}`, 200)
	for _, p := range []string{"/compositions/" + cid, "/compositions", "/compositions/find_by_code?code=ALV-01&state=MG"} {
		got := call(t, h, "GET", base+p, u.Token, "", 409)
		checkError(t, got, "base")
		if msg, _ := got["message"].(string); !strings.Contains(msg, "15 digits") {
			t.Errorf("GET %s: message %q does not say why", p, msg)
		}
	}
	c := call(t, h, "POST", base+"/compositions/"+cid+"/add-items", u.Token, `{"items":[{"bank":"MYBASE","code":"0001","qty":"3"}]}`, 200)
	if diff := cmp.Diff(map[string]any{"pnd": num("6"), "pd": num("6")}, c["prices"]); diff != "" {
		t.Errorf("prices after lowering the quantity (-want +got):\n%s", diff)
	}
	call(t, h, "GET", base+"/compositions/"+cid, u.Token, "", 200)
}

// TestPageNumberBounded checks that a page number is read as every number
// is, at most 15 digits, since current_page echoes it.
func TestPageNumberBounded(t *testing.T) {
	h, u := setup(t)
	got := call(t, h, "GET", base+"/groups?page=999999999999999", u.Token, "", 200)
	if got["current_page"] != num("999999999999999") {
		t.Errorf("current_page %v", got["current_page"])
	}
	checkError(t, call(t, h, "GET", base+"/groups?page=1000000000000000", u.Token, "", 400), "page")
}
