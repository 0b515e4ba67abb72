package v1_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// treeRow is what the test checks of a node of the v1 detail tree.
type treeRow struct {
	ID       string
	Row      row
	Children []treeRow
}

func treeOf(t *testing.T, items any) []treeRow {
	t.Helper()
	list, ok := items.([]any)
	if !ok {
		t.Fatalf("items is not an array: %v", items)
	}
	out := make([]treeRow, 0, len(list))
	for _, it := range list {
		m := it.(map[string]any)
		out = append(out, treeRow{ID: m["id"].(string), Row: rowOf(m), Children: treeOf(t, m["items"])})
	}
	return out
}

// TestBudgetDetail reads a budget through GET /bud/budgets/{id}: the header
// is the list's record, the tree carries every node's figures (amounts as
// decimal strings), and another company's budget is 404.
func TestBudgetDetail(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok, path := f.h, f.u.Token, bud+"/"+f.id

	body := call(t, h, "GET", path, tok, "", 200)
	list := call(t, h, "GET", bud+"/list", tok, "", 200)["budgets"].([]any)[0].(map[string]any)
	header := map[string]any{}
	for k, v := range body {
		if k != "items" {
			header[k] = v
		}
	}
	if diff := cmp.Diff(list, header); diff != "" {
		t.Errorf("header differs from the list record (-list +detail):\n%s", diff)
	}
	if body["id"] != f.id || body["total"] != "17619.56" || body["total_with_bdi"] != "22019.13" || body["state"] != "MG" {
		t.Errorf("header %v", header)
	}

	s := func(d decimal.Decimal) string { return d.StringFixed(2) }
	l11, l12, l2 := lineFig("113.33", "120.5"), lineFig("134.33", "10"), lineFig("2.62", "1000")
	line := func(id, n, kind, bank string, month any, code, unit, qty string, x fig) treeRow {
		return treeRow{id, row{n, kind, bank, month, code, unit, qty, s(x.price), s(x.priceBDI), s(x.total), s(x.totalBDI)}, []treeRow{}}
	}
	want := []treeRow{
		{"n1", row{"1", "stage", nil, nil, nil, nil, nil, nil, nil, s(l11.total.Add(l12.total)), s(l11.totalBDI.Add(l12.totalBDI))}, []treeRow{
			line("n2", "1.1", "composition", "SINAPI", "08/2026", "89306", "M2", "120.5", l11),
			line("n3", "1.2", "composition", "MYBASE", nil, "ALV-001", "M2", "10", l12),
		}},
		line("n4", "2", "resource", "SINAPI", "08/2026", "34586", "UN", "1000", l2),
	}
	if diff := cmp.Diff(want, treeOf(t, body["items"])); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	stage := body["items"].([]any)[0].(map[string]any)
	if stage["descr"] != "Alvenaria" || stage["weight"] != s(l11.total.Add(l12.total).Shift(2).DivRound(dec("17619.56"), 2)) {
		t.Errorf("stage 1: %v", stage)
	}

	// An empty budget has an empty tree.
	empty := f.create(t, tok, "ORC-002", "Galpão", "Indústria Ávila")
	e := call(t, h, "GET", bud+"/"+empty, tok, "", 200)
	if items, ok := e["items"].([]any); !ok || len(items) != 0 || e["total"] != "0.00" || e["lines"] != num("0") {
		t.Errorf("empty budget: %v", e)
	}

	checkError(t, call(t, h, "GET", path, f.other.Token, "", 404))
	checkError(t, call(t, h, "GET", bud+"/nope", tok, "", 404))
	checkError(t, call(t, h, "GET", path, "", "", 401))
	// The list keeps its static path.
	call(t, h, "GET", bud+"/list", tok, "", 200)
}

// TestBudgetNodeV1 reads single nodes through GET /bud/budgets/{id}/nodes/
// {node}: a stage with its subtotals and children, a line with its figures,
// the budget's totals; unknown nodes and other companies are 404.
func TestBudgetNodeV1(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok, path := f.h, f.u.Token, bud+"/"+f.id+"/nodes/"
	s := func(d decimal.Decimal) string { return d.StringFixed(2) }
	l11, l12 := lineFig("113.33", "120.5"), lineFig("134.33", "10")

	stage := call(t, h, "GET", path+"n1", tok, "", 200)
	budget := map[string]any{"id": f.id, "code": "ORC-001", "lines": num("3"), "total": "17619.56", "bdi_value": "4399.57",
		"total_with_bdi": "22019.13", "updated_at": stage["budget"].(map[string]any)["updated_at"]}
	if diff := cmp.Diff(budget, stage["budget"]); diff != "" {
		t.Errorf("budget (-want +got):\n%s", diff)
	}
	if stage["id"] != "n1" || stage["parent_id"] != nil || stage["position"] != num("0") || stage["depth"] != num("1") ||
		stage["lines"] != num("2") || stage["descr"] != "Alvenaria" {
		t.Errorf("stage n1: %v", stage)
	}
	if diff := cmp.Diff(row{"1", "stage", nil, nil, nil, nil, nil, nil, nil, s(l11.total.Add(l12.total)), s(l11.totalBDI.Add(l12.totalBDI))}, rowOf(stage)); diff != "" {
		t.Errorf("stage row (-want +got):\n%s", diff)
	}
	type child struct {
		ID, Lines any
		Row       row
	}
	var children []child
	for _, c := range stage["items"].([]any) {
		m := c.(map[string]any)
		if _, nested := m["items"]; nested {
			t.Errorf("child %v carries its own items", m["id"])
		}
		children = append(children, child{m["id"], m["lines"], rowOf(m)})
	}
	wantChildren := []child{
		{"n2", num("1"), row{"1.1", "composition", "SINAPI", "08/2026", "89306", "M2", "120.5", s(l11.price), s(l11.priceBDI), s(l11.total), s(l11.totalBDI)}},
		{"n3", num("1"), row{"1.2", "composition", "MYBASE", nil, "ALV-001", "M2", "10", s(l12.price), s(l12.priceBDI), s(l12.total), s(l12.totalBDI)}},
	}
	if diff := cmp.Diff(wantChildren, children); diff != "" {
		t.Errorf("children (-want +got):\n%s", diff)
	}

	if a := stage["ancestors"].([]any); len(a) != 0 {
		t.Errorf("ancestors of a top-level stage: %v", a)
	}
	line := call(t, h, "GET", path+"n3", tok, "", 200)
	var above []child
	for _, a := range line["ancestors"].([]any) {
		m := a.(map[string]any)
		above = append(above, child{m["id"], m["lines"], rowOf(m)})
	}
	if diff := cmp.Diff([]child{{"n1", num("2"), rowOf(stage)}}, above); diff != "" {
		t.Errorf("ancestors of n3 (-want +got):\n%s", diff)
	}
	if line["parent_id"] != "n1" || line["position"] != num("1") || line["depth"] != num("2") || line["lines"] != num("1") ||
		len(line["items"].([]any)) != 0 || line["price_plus_bdi"] != "167.91" || line["total_price_plus_bdi"] != "1679.10" {
		t.Errorf("line n3: %v", line)
	}

	for _, tc := range []struct{ name, path, token string }{
		{"unknown node", path + "n99", tok},
		{"another company", path + "n1", f.other.Token},
		{"unknown budget", bud + "/nope/nodes/n1", tok},
	} {
		checkError(t, call(t, h, "GET", tc.path, tc.token, "", 404))
	}
}
