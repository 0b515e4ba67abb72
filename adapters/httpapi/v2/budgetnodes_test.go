package v2_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/google/go-cmp/cmp"
)

// linesBody is a budget of n lines of SINAPI 34586 (2.62), one unit each,
// the first in a stage.
func linesBody(code string, n int) string {
	var b strings.Builder
	b.WriteString(`{"code":"` + code + `","description":"Muitas linhas","location":"MG","bdi":25,
	  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],"items":[{"kind":"stage","description":"Etapa","items":[`)
	line := `{"kind":"resource","bank":"SINAPI","code":"34586","quantity":1}`
	b.WriteString(line + `]}`)
	for i := 1; i < n; i++ {
		b.WriteString("," + line)
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestBudgetNodeAnswerSize checks that the answer to a one-line edit, to the
// addition of a line and to the read of a line is the same size for a
// budget of 10 lines and one of 2,000: it carries the node and the budget's
// totals, never the tree.
func TestBudgetNodeAnswerSize(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	sizes := map[int][3]int{}
	for _, n := range []int{10, 2000} {
		doc := create(t, h, budgets, u.Token, linesBody("ORC-"+strconv.Itoa(n), n))
		id := str(data(t, doc)["id"])
		if got := num(t, attrs(t, doc)["lines"]); got != strconv.Itoa(n) {
			t.Fatalf("budget of %d lines has %s", n, got)
		}
		path := budgets + "/" + id + "/nodes"
		// n3 is the first line at the top level (n1 the stage, n2 its line).
		edit := h.Do("PATCH", path+"/n3", u.Token, `{"quantity":3}`)
		a := attrs(t, expect(t, edit, 200))
		total := d("2.62").Mul(d(strconv.Itoa(n + 2))) // n lines of 1, one now of 3
		if num(t, a["total"]) != "7.86" || num(t, expect(t, edit, 200)["meta"].(obj)["budget"].(obj)["total"]) != total.StringFixed(2) {
			t.Errorf("%d lines: node total %v, answer %s", n, a["total"], edit.Body)
		}
		add := h.Do("POST", path, u.Token, `{"kind":"resource","bank":"SINAPI","code":"34586","quantity":1}`)
		expect(t, add, 201)
		get := h.Do("GET", path+"/n3", u.Token, "")
		expect(t, get, 200)
		sizes[n] = [3]int{len(edit.Body), len(add.Body), len(get.Body)}
	}
	small, large := sizes[10], sizes[2000]
	t.Logf("answer sizes, 10 lines: %v; 2,000 lines: %v", small, large)
	for i, what := range []string{"PATCH of a line", "POST of a line", "GET of a line"} {
		// The only growth allowed is in the digits of the figures: the
		// budget's totals, its line count, a node's number and weight.
		if large[i] > small[i]+24 || large[i] > 2048 {
			t.Errorf("%s: %d bytes for 2,000 lines, %d for 10: the answer grows with the budget", what, large[i], small[i])
		}
	}
}

// withCaps runs the harness with small budget caps: 4 lines, 3 levels.
func withCaps(env *httpapi.Env) {
	env.App = env.App.WithConfig(app.Config{MaxBudgetLines: 4, MaxBudgetDepth: 3})
}

// TestBudgetCaps checks the caps on lines and depth on every way a tree
// changes: 422 with a clear message, and nothing changes.
func TestBudgetCaps(t *testing.T) {
	h := apitest.New(t, withCaps)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	tok := u.Token
	const banks = `"location":"MG","banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]`
	const ln = `{"kind":"resource","bank":"SINAPI","code":"34586","quantity":1}`
	// 1 A > 1.1 B > 1.1.1 line: 3 levels; 3 lines.
	doc := create(t, h, budgets, tok, `{"code":"ORC-1","description":"Limites",`+banks+`,"items":[
	  {"kind":"stage","description":"A","items":[{"kind":"stage","description":"B","items":[`+ln+`]}]},`+ln+`,`+ln+`]}`)
	id := str(data(t, doc)["id"])
	path := budgets + "/" + id
	before := attrs(t, doc)

	tooDeep := `[{"kind":"stage","description":"A","items":[{"kind":"stage","description":"B","items":[{"kind":"stage","description":"C","items":[` + ln + `]}]}]},` +
		`{"kind":"stage","description":"D","items":[{"kind":"stage","description":"E","items":[{"kind":"stage","description":"F","items":[{"kind":"stage","description":"G"}]}]}]}]`
	fiveLines := `[` + strings.Repeat(ln+`,`, 4) + ln + `]`
	for _, tc := range []struct {
		name, method, path, body string
		want                     []apiError
		detail                   string
	}{
		{"create too deep", "POST", budgets, `{"code":"ORC-2","description":"x",` + banks + `,"items":` + tooDeep + `}`,
			[]apiError{{"422", "invalid", "/items/0/items/0/items/0/items/0", ""}, {"422", "invalid", "/items/1/items/0/items/0/items/0", ""}},
			"is nested 4 levels deep; a budget's tree has at most 3 levels, lines included"},
		{"create with too many lines", "POST", budgets, `{"code":"ORC-2","description":"x",` + banks + `,"items":` + fiveLines + `}`,
			[]apiError{{"422", "invalid", "/items", ""}}, "the budget would hold 5 lines; a budget holds at most 4"},
		{"create with too many lines, JSON:API", "POST", budgets,
			`{"data":{"type":"budgets","attributes":{"code":"ORC-2","description":"x",` + banks + `,"items":` + fiveLines + `}}}`,
			[]apiError{{"422", "invalid", "/data/attributes/items", ""}}, "the budget would hold 5 lines; a budget holds at most 4"},
		{"replace the tree, too deep", "PATCH", path, `{"items":` + tooDeep + `}`,
			[]apiError{{"422", "invalid", "/items/0/items/0/items/0/items/0", ""}, {"422", "invalid", "/items/1/items/0/items/0/items/0", ""}}, ""},
		{"replace the tree, too many lines", "PATCH", path, `{"items":` + fiveLines + `}`, []apiError{{"422", "invalid", "/items", ""}}, ""},
		{"add a stage holding a line under B", "POST", path + "/nodes", `{"parent_id":"n2","kind":"stage","description":"C","items":[` + ln + `]}`,
			[]apiError{{"422", "invalid", "/items/0", ""}}, "is nested 4 levels deep; a budget's tree has at most 3 levels, lines included"},
		{"add two lines in a stage past the count", "POST", path + "/nodes", `{"kind":"stage","description":"C","items":[` + ln + `,` + ln + `]}`,
			[]apiError{{"422", "invalid", "", ""}}, "the budget would hold 5 lines; a budget holds at most 4"},
		{"move A under a stage", "PATCH", path + "/nodes/n1", `{"parent_id":"n2"}`, []apiError{{"422", "invalid", "/parent_id", ""}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.Do(tc.method, tc.path, tok, tc.body)
			if diff := cmp.Diff(tc.want, errorsOf(t, r, 422)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if tc.detail != "" && !strings.Contains(string(r.Body), tc.detail) {
				t.Errorf("no %q in %s", tc.detail, r.Body)
			}
		})
	}
	// Nothing changed: one budget, the same tree.
	if list := expect(t, h.Do("GET", budgets, tok, ""), 200); num(t, list["meta"].(obj)["total"]) != "1" {
		t.Errorf("%v budgets after the refusals", list["meta"])
	}
	after := attrs(t, expect(t, h.Do("GET", path, tok, ""), 200))
	if diff := cmp.Diff(flatten(t, before["items"]), flatten(t, after["items"])); diff != "" || after["updated_at"] != before["updated_at"] {
		t.Errorf("the refused requests changed the budget (-before +after):\n%s", diff)
	}

	// Up to the caps is fine: a fourth line, an empty stage on level 3, and
	// a move that keeps within 3 levels. Then one more line is refused.
	expect(t, h.Do("POST", path+"/nodes", tok, ln), 201)
	expect(t, h.Do("POST", path+"/nodes", tok, `{"parent_id":"n2","kind":"stage","description":"C"}`), 201)
	expect(t, h.Do("PATCH", path+"/nodes/n4", tok, `{"parent_id":"n1"}`), 200)
	r := h.Do("POST", path+"/nodes", tok, ln)
	if diff := cmp.Diff([]apiError{{"422", "invalid", "", ""}}, errorsOf(t, r, 422)); diff != "" {
		t.Errorf("a fifth line (-want +got):\n%s", diff)
	}
	if a := attrs(t, expect(t, h.Do("GET", path, tok, ""), 200)); num(t, a["lines"]) != "4" {
		t.Errorf("lines after the refused fifth: %v", a["lines"])
	}
}
