package v1_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTags: v1 takes a resource's and a composition's tags on create and
// update and shows them in every answer of the record (left out when there
// are none), and shows a budget's in the budget list. Run on each storage
// engine.
func TestTags(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	tags := []any{"obra A", "alvenaria"}

	res := createResource(t, h, tok, "T1", `,"tags":["obra A","alvenaria"]`)
	if !cmp.Equal(res["tags"], tags) {
		t.Errorf("create answer: %v", res)
	}
	rid := id(t, res)
	got := call(t, h, "GET", base+"/resources/"+rid, tok, "", 200)
	if !cmp.Equal(got["tags"], tags) {
		t.Errorf("GET: %v", got)
	}
	up := call(t, h, "PUT", base+"/resources/"+rid, tok, `{"description":"Bloco"}`, 200)
	if !cmp.Equal(up["tags"], tags) {
		t.Errorf("an update without tags changed them: %v", up)
	}
	up = call(t, h, "PUT", base+"/resources/"+rid, tok, `{"tags":[]}`, 200)
	if _, ok := up["tags"]; ok {
		t.Errorf("tags [] kept: %v", up)
	}
	plain := createResource(t, h, tok, "T2")
	if _, ok := plain["tags"]; ok {
		t.Errorf("a resource without tags shows them: %v", plain)
	}
	bad := call(t, h, "PUT", base+"/resources/"+rid, tok, `{"description":"Outro","tags":["a","a"]}`, 422)
	checkError(t, bad, "tags[1]")
	if got := call(t, h, "GET", base+"/resources/"+rid, tok, "", 200); got["description"] != "Bloco" {
		t.Errorf("a refused update wrote: %v", got)
	}

	comp := call(t, h, "POST", base+"/compositions", tok,
		`{"code":"C1","description":"Parede","type":"PARE","unit":"M2","local":"MG","tags":["alvenaria"]}`, 201)
	if !cmp.Equal(comp["tags"], []any{"alvenaria"}) {
		t.Errorf("composition create answer: %v", comp)
	}
	cid := id(t, comp)
	comp = call(t, h, "PUT", base+"/compositions/"+cid, tok, `{"tags":["alvenaria","2026"]}`, 200)
	if !cmp.Equal(comp["tags"], []any{"alvenaria", "2026"}) {
		t.Errorf("composition update answer: %v", comp)
	}
	if got := call(t, h, "GET", base+"/compositions/"+cid, tok, "", 200); !cmp.Equal(got["tags"], []any{"alvenaria", "2026"}) {
		t.Errorf("composition GET: %v", got)
	}

	r := h.Do("PATCH", "/api/public/v2/budgets/"+f.id, tok, `{"tags":["2026"]}`)
	if r.Status != 200 {
		t.Fatalf("tagging the budget: %d %s", r.Status, r.Body)
	}
	list := call(t, h, "GET", bud+"/list", tok, "", 200)
	if first := list["budgets"].([]any)[0].(map[string]any); !cmp.Equal(first["tags"], []any{"2026"}) {
		t.Errorf("budget list: %v", first)
	}
}
