package v2_test

import (
	"context"
	"testing"

	"github.com/costdb/costdb/domain"
)

// TestBankChanges: a month of SINAPI's change log is served in the log's
// order, filtered and paged, each line named by its place in the month
// whatever the filters; where_used lists the changes a company uses, with
// its budgets, and never another company's.
func TestBankChanges(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	changes := []domain.BankChange{
		{Bank: "SINAPI", Month: "12/2025", Composition: true, Code: "89306", Description: "ALVENARIA …", Kind: domain.ChangeCoefficients, Text: "ALTERAÇÃO DE ITENS/COEFICIENTES"},
		{Bank: "SINAPI", Month: "12/2025", Code: "00001", Description: "AREIA", Kind: domain.ChangeUnit, Text: "ALTERAÇÃO DE UNIDADE"},
		{Bank: "SINAPI", Month: "12/2025", Code: "34586", Description: "BLOCO", Kind: domain.ChangeDeactivated, Text: "DESATIVAÇÃO"},
		{Bank: "SINAPI", Month: "11/2025", Composition: true, Code: "89478", Kind: domain.ChangeDeactivated, Text: "COMPOSIÇÃO DESATIVADA"},
	}
	if _, err := h.App.ImportChangeLog(context.Background(), "SINAPI", changes); err != nil {
		t.Fatal(err)
	}
	const list = base + "/bank_changes?filter[bank]=sinapi&filter[month]=12/2025"
	ids := func(doc obj) []string {
		out := []string{}
		for _, d := range doc["data"].([]any) {
			out = append(out, str(d.(obj)["id"]))
		}
		return out
	}
	doc := expect(t, h.Do("GET", list, tok, ""), 200)
	if got := ids(doc); len(got) != 3 || got[0] != "SINAPI:2025-12:1" || got[2] != "SINAPI:2025-12:3" || num(t, doc["meta"].(obj)["total"]) != "3" {
		t.Errorf("the month: %v %v", got, doc["meta"])
	}
	a := doc["data"].([]any)[0].(obj)["attributes"].(obj)
	if a["item"] != "composition" || a["code"] != "89306" || a["kind"] != "coefficients" || a["month"] != "12/2025" || a["text"] != "ALTERAÇÃO DE ITENS/COEFICIENTES" {
		t.Errorf("first line: %v", a)
	}
	if got := ids(expect(t, h.Do("GET", list+"&filter[kind]=deactivated,unit", tok, ""), 200)); len(got) != 2 || got[0] != "SINAPI:2025-12:2" || got[1] != "SINAPI:2025-12:3" {
		t.Errorf("by kind: %v", got)
	}
	if got := ids(expect(t, h.Do("GET", list+"&filter[code]=34586", tok, ""), 200)); len(got) != 1 || got[0] != "SINAPI:2025-12:3" {
		t.Errorf("by code: %v", got)
	}
	page := expect(t, h.Do("GET", list+"&page[size]=2&page[number]=2", tok, ""), 200)
	if got := ids(page); len(got) != 1 || got[0] != "SINAPI:2025-12:3" || num(t, page["meta"].(obj)["total"]) != "3" {
		t.Errorf("page 2 of 2: %v", got)
	}
	// Every bad filter named at once, as 400.
	e := errorsOf(t, h.Do("GET", base+"/bank_changes?filter[bank]=sinapi&filter[month]=13/2025&filter[kind]=gone", tok, ""), 400)
	params := map[string]bool{}
	for _, x := range e {
		params[x.Parameter] = true
	}
	if len(e) != 2 || !params["filter[month]"] || !params["filter[kind]"] {
		t.Errorf("bad filters: %+v", e)
	}
	errorsOf(t, h.Do("GET", base+"/bank_changes?filter[month]=12/2025", tok, ""), 400)

	// Where used: company A's budget has 89306 and 34586 (the unit change
	// of 00001 touches nobody); company B has none.
	uses := expect(t, h.Do("GET", base+"/bank_changes/where_used?filter[bank]=SINAPI&filter[month]=12/2025", tok, ""), 200)
	data := uses["data"].([]any)
	if len(data) != 2 || str(data[0].(obj)["id"]) != "SINAPI:2025-12:1" || str(data[1].(obj)["id"]) != "SINAPI:2025-12:3" {
		t.Fatalf("company A's uses: %v", data)
	}
	ua := data[0].(obj)["attributes"].(obj)
	buds := ua["budgets"].([]any)
	if len(buds) != 1 || str(buds[0].(obj)["id"]) != f.id || ua["change"].(obj)["code"] != "89306" || len(ua["compositions"].([]any)) != 0 {
		t.Errorf("89306 used by: %v", ua)
	}
	if c := ua["contracts"].([]any); len(c) != 0 {
		t.Errorf("89306 in contracts before any: %v", c)
	}
	// A contract made from a frozen version of the budget lists it too.
	expect(t, h.Do("POST", budgets+"/"+f.id+"/versions", tok, ""), 201)
	contract := create(t, h, base+"/contracts", tok, `{"data":{"type":"contracts","attributes":{"budget_id":"`+f.id+`","version":1,
	  "number":"CT-1","contractor":"Prefeitura","start_date":"2026-09-01","base_month":"2026-08","retention":5,"index":"INCC"}}}`)
	uses = expect(t, h.Do("GET", base+"/bank_changes/where_used?filter[bank]=SINAPI&filter[month]=12/2025", tok, ""), 200)
	for _, d := range uses["data"].([]any) {
		at := d.(obj)["attributes"].(obj)
		c := at["contracts"].([]any)
		if len(c) != 1 || str(c[0].(obj)["id"]) != str(contract["data"].(obj)["id"]) || str(c[0].(obj)["code"]) != "CT-1" {
			t.Errorf("%v used by contracts %v", at["change"].(obj)["code"], c)
		}
	}
	if other := expect(t, h.Do("GET", base+"/bank_changes/where_used?filter[bank]=SINAPI&filter[month]=12/2025", f.other.Token, ""), 200); len(other["data"].([]any)) != 0 {
		t.Errorf("company B sees %v", other["data"])
	}
	if r := h.Do("GET", list, "", ""); r.Status != 401 {
		t.Errorf("without a token: %d", r.Status)
	}
}
