package v2_test

import (
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
)

// TestSicroTeamProductionNotSet: a SICRO-model composition created with
// team_production 0 is accepted and shown without a unit cost (null, never
// 0), incomplete, its missing list naming the field, until it is set; a
// budget line of it is missing too.
func TestSicroTeamProductionNotSet(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	doc := create(t, h, compositions, u.Token, `{"data":{"type":"compositions","attributes":{
		"code":"DNIT-00","description":"Escavação","unit":"m3","location":"AL",
		"is_sicro":true,"team_production":0,"fic":0,"labor_addition":0}}}`)
	id := str(data(t, doc)["id"])
	check := func(a obj) {
		t.Helper()
		prices, _ := a["prices"].(obj)
		missing, _ := a["missing"].([]any)
		if prices == nil || prices["pnd"] != nil || prices["pd"] != nil || a["incomplete"] != true || len(missing) != 1 {
			t.Fatalf("want pnd, pd null, incomplete and one missing entry: %v", a)
		}
		m := missing[0].(obj)
		if m["field"] != "team_production" || m["code"] != "DNIT-00" || m["banco"] != "MYBASE" {
			t.Errorf("missing entry %v, want the composition itself naming team_production", m)
		}
	}
	check(attrs(t, doc))
	check(attrs(t, expect(t, h.Do("GET", compositions+"/"+id, u.Token, ""), 200)))

	// A budget line of it has no price either: listed as missing.
	b := create(t, h, "/api/public/v2/budgets", u.Token, `{"code":"ORC-1","description":"Obra","location":"AL","bdi":0,
		"items":[{"kind":"composition","bank":"MYBASE","code":"DNIT-00","quantity":10}]}`)
	if a := attrs(t, b); a["incomplete"] != true {
		t.Errorf("budget of an unpriced composition: want incomplete: %v", a)
	}

	a := attrs(t, expect(t, h.Do("PATCH", compositions+"/"+id, u.Token,
		`{"data":{"type":"compositions","id":"`+id+`","attributes":{"team_production":2}}}`), 200))
	if a["incomplete"] != nil || a["missing"] != nil || num(t, a["prices"].(obj)["pnd"]) != "0" {
		t.Errorf("with team_production set: %v", a)
	}
}
