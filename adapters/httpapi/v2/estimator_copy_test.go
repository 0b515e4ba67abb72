package v2_test

import (
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// prices is a composition document's (pnd, pd).
func prices(t *testing.T, doc obj) [2]string {
	t.Helper()
	p := attrs(t, doc)["prices"].(obj)
	return [2]string{num(t, p["pnd"]), num(t, p["pd"])}
}

// Copying a bank composition into the own base, through HTTP on the real
// SINAPI MG 08/2026 and SICRO AL 01/2024 samples: the copy prices exactly
// like the bank's published cost in both regimes (113.33 and 110.13 for
// 89306, Caixa's Σ trunc₂(coefficient × price)), shallow or deep; a SICRO
// composition without a published structure copies as one item; a taken
// code refuses the whole copy.
func TestCopyBankComposition(t *testing.T) {
	h := newBudgetFixture(t).h
	u := h.AddUser("Construtora Gama", "gil@gama.com.br")
	tok := u.Token
	copyPath := base + "/banks/" + sinapiID + "/items/89306/copy"

	shallow := create2(t, h, copyPath, tok, `{"code":"MINHA-89306"}`)
	deep := create2(t, h, copyPath, tok, `{"data":{"type":"composition-copies","attributes":{"code":"FUNDO-89306","deep":true}}}`)
	for name, doc := range map[string]obj{"shallow": shallow, "deep": deep} {
		if got := prices(t, doc); got != [2]string{"113.33", "110.13"} {
			t.Errorf("%s copy prices %v, want the bank's 113.33 / 110.13", name, got)
		}
		a := attrs(t, doc)
		if a["location"] != "MG" || a["unit"] != "M2" || len(a["items"].(obj)) != 6 {
			t.Errorf("%s copy: %v", name, a)
		}
	}
	// The sample publishes no structure for 89306's sub-compositions
	// (88309, 88316, 87286): the deep copy keeps them as bank items, and
	// creates only the root.
	if created := deep["meta"].(obj)["created"].([]any); len(created) != 1 || created[0].(obj)["code"] != "FUNDO-89306" {
		t.Errorf("deep created %v", created)
	}
	// The copy is an own composition: found by code, and editable.
	found := expect(t, h.Do("GET", compositions+"/find_by_code?code=MINHA-89306&state=MG", tok, ""), 200)
	if prices(t, found) != [2]string{"113.33", "110.13"} {
		t.Errorf("found copy prices %v", prices(t, found))
	}

	// SICRO AL 0307731 (published 112.02, no structure in the synthetic
	// report): one item, the bank composition itself, the same cost.
	sic := create2(t, h, base+"/banks/"+sicroID+"/items/0307731/copy", tok, `{"code":"MINHA-0307731"}`)
	if a := attrs(t, sic); num(t, a["prices"].(obj)["pnd"]) != "112.02" || len(a["items"].(obj)) != 1 || a["location"] != "AL" {
		t.Errorf("SICRO copy: %v", a)
	}

	// Errors change nothing.
	before := num(t, expect(t, h.Do("GET", compositions, tok, ""), 200)["meta"].(obj)["total"])
	tests := []struct {
		name, path, body string
		status           int
		want             []apiError
	}{
		{"code taken", copyPath, `{"code":"MINHA-89306","deep":true}`, 422, []apiError{{"422", "invalid", "/code", ""}}},
		{"no code", copyPath, `{"deep":true}`, 422, []apiError{{"422", "invalid", "/code", ""}}},
		{"unknown composition", base + "/banks/" + sinapiID + "/items/99999999/copy", `{"code":"X"}`, 404, []apiError{{"404", "not_found", "", ""}}},
		{"unknown member", copyPath, `{"code":"Y","depth":2}`, 422, []apiError{{"422", "invalid", "/depth", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, h.Do("POST", tt.path, tok, tt.body), tt.status)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
	if after := num(t, expect(t, h.Do("GET", compositions, tok, ""), 200)["meta"].(obj)["total"]); after != before {
		t.Errorf("compositions %s after refused copies, %s before", after, before)
	}
}

// create2 POSTs a body that creates a record and checks 201 and a Location.
func create2(t *testing.T, h *apitest.Harness, path, token, body string) obj {
	t.Helper()
	r := h.Do("POST", path, token, body)
	doc := expect(t, r, 201)
	if r.Header.Get("Location") == "" {
		t.Errorf("no Location: %s", path)
	}
	return doc
}

func TestDuplicateCompositionAndBudget(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	orig := create2(t, h, base+"/banks/"+sinapiID+"/items/89478/copy", tok, `{"code":"C-89478"}`)
	id := str(data(t, orig)["id"])
	dup := create2(t, h, compositions+"/"+id+"/duplicate", tok, `{"code":"C-89478-B"}`)
	if prices(t, dup) != prices(t, orig) || prices(t, orig)[0] != "155.85" {
		t.Errorf("duplicate prices %v, original %v", prices(t, dup), prices(t, orig))
	}
	if str(data(t, dup)["id"]) == id || attrs(t, dup)["code"] != "C-89478-B" {
		t.Errorf("duplicate %v", data(t, dup))
	}
	errorsOf(t, h.Do("POST", compositions+"/"+id+"/duplicate", tok, `{"code":"C-89478-B"}`), 422)
	errorsOf(t, h.Do("POST", compositions+"/"+id+"/duplicate", f.other.Token, `{"code":"Z"}`), 404)

	// A budget with its BDI components and a supply line, duplicated.
	expect(t, h.Do("PATCH", budgets+"/"+f.id+"/bdi", tok,
		`{"work_type":"buildings","bdi_components":{"ac":4,"s":0.8,"r":1.27,"df":1.23,"l":7.4,"taxes":5.65},"supply_bdi":15.28,"supply_lines":["n5"]}`), 200)
	src := expect(t, h.Do("GET", budgets+"/"+f.id, tok, ""), 200)
	bd := create2(t, h, budgets+"/"+f.id+"/duplicate", tok, `{"data":{"type":"budget-duplicates","attributes":{"code":"ORC-001-B","description":"Cópia"}}}`)
	sa, da := attrs(t, src), attrs(t, bd)
	for _, k := range []string{"total", "bdi", "bdi_value", "total_with_bdi", "items", "banks", "location", "desonerado"} {
		if d := cmp.Diff(sa[k], da[k]); d != "" {
			t.Errorf("duplicate %s (-source +copy):\n%s", k, d)
		}
	}
	if da["code"] != "ORC-001-B" || da["description"] != "Cópia" {
		t.Errorf("duplicate code/description %v %v", da["code"], da["description"])
	}
	bdi := attrs(t, expect(t, h.Do("GET", budgets+"/"+str(data(t, bd)["id"])+"/bdi", tok, ""), 200))
	if bdi["work_type"] != "buildings" || cmp.Diff([]any{"n5"}, bdi["supply_lines"]) != "" || bdi["check"] == nil {
		t.Errorf("duplicate's BDI %v", bdi)
	}
	if got := errorsOf(t, h.Do("POST", budgets+"/"+f.id+"/duplicate", tok, `{"code":"ORC-001"}`), 422); cmp.Diff([]apiError{{"422", "invalid", "/code", ""}}, got) != "" {
		t.Errorf("taken code: %v", got)
	}
	errorsOf(t, h.Do("POST", budgets+"/"+f.id+"/duplicate", f.other.Token, `{"code":"Q"}`), 404)
}
