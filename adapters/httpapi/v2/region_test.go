package v2_test

import (
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// A region sent for a bank none of whose editions has a region (the sample
// SINAPI) is not part of the edition lookup, but it is kept and shown back,
// in v2 as in v1; the edition found prices the items.
func TestAddBanksRegionOfABankWithoutRegions(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	id := sinapiComposition(t, h, u.Token, "ALV-001")
	doc := expect(t, h.Do("POST", compositions+"/"+id+"/add_banks", u.Token,
		`{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026","region":"NORTE"}]}`), 200)
	want := obj{"SINAPI": obj{"estado": "MG", "data": "08/2026", "regiao": "NORTE", "relatorio": false}}
	if diff := cmp.Diff(want, attrs(t, doc)["banks"]); diff != "" {
		t.Errorf("banks (-want +got):\n%s", diff)
	}
	a := attrs(t, expect(t, h.Do("POST", compositions+"/"+id+"/add_items", u.Token, items89306), 200))
	if p := num(t, a["prices"].(obj)["pnd"]); p != "113.33" { // SINAPI MG 08/2026, as without a region
		t.Errorf("prices.pnd = %s, want 113.33 from the edition found without the region", p)
	}
}
