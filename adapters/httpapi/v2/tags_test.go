package v2_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tagsOf is the tags attribute of a document's record (nil when left out).
func tagsOf(t *testing.T, doc obj) []string {
	t.Helper()
	a := attrs(t, doc)
	v, ok := a["tags"]
	if !ok {
		return nil
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		t.Fatalf("tags is not a non-empty array: %v", v)
	}
	out := []string{}
	for _, x := range list {
		out = append(out, x.(string))
	}
	return out
}

// TestTags: resources, compositions and budgets take free tags on create
// and update, show them (and leave them out when there are none), and
// their lists are filtered by one; bad tags are 422 naming each, and
// nothing is written. Run on each storage engine.
func TestTags(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	price := `{"pnd":1,"pd":1,"pndi":1,"pdi":1}`

	// Create with tags, and without.
	res := create(t, h, resources, tok, `{"code":"T1","description":"Bloco","type":4,"unit":"UN","status":true,"tags":["obra A","alvenaria"],"locals":{"MG":`+price+`}}`)
	if got := tagsOf(t, res); !cmp.Equal(got, []string{"obra A", "alvenaria"}) {
		t.Errorf("resource tags %v", got)
	}
	plain := create(t, h, resources, tok, `{"code":"T2","description":"Areia","type":4,"unit":"M3","status":true,"locals":{"MG":`+price+`}}`)
	if _, ok := attrs(t, plain)["tags"]; ok {
		t.Errorf("a resource without tags shows them: %v", attrs(t, plain))
	}
	comp := create(t, h, compositions, tok, `{"code":"C1","description":"Parede","unit":"M2","type":"PARE","location":"MG","tags":["alvenaria"]}`)
	if got := tagsOf(t, comp); !cmp.Equal(got, []string{"alvenaria"}) {
		t.Errorf("composition tags %v", got)
	}
	sinapiComposition(t, h, tok, "C2")
	bud := create(t, h, budgets, tok, strings.Replace(strings.Replace(sampleBudgetBody, "ORC-001", "ORC-T", 1), `"client":`, `"tags":["alvenaria","2026"],"client":`, 1))
	if got := tagsOf(t, bud); !cmp.Equal(got, []string{"alvenaria", "2026"}) {
		t.Errorf("budget tags %v", got)
	}

	// Read back.
	resID, compID, budID := str(data(t, res)["id"]), str(data(t, comp)["id"]), str(data(t, bud)["id"])
	for path, want := range map[string][]string{
		resources + "/" + resID: {"obra A", "alvenaria"}, compositions + "/" + compID: {"alvenaria"}, budgets + "/" + budID: {"alvenaria", "2026"},
	} {
		if got := tagsOf(t, expect(t, h.Do("GET", path, tok, ""), 200)); !cmp.Equal(got, want) {
			t.Errorf("GET %s: tags %v, want %v", path, got, want)
		}
	}

	// Lists filtered by a tag: exactly it, case counts; other filters still apply.
	codes := func(path string) []string {
		t.Helper()
		out := []string{}
		for _, e := range expect(t, h.Do("GET", path, tok, ""), 200)["data"].([]any) {
			out = append(out, str(e.(obj)["attributes"].(obj)["code"]))
		}
		return out
	}
	for path, want := range map[string][]string{
		resources + "?filter[tags]=alvenaria":                     {"T1"},
		resources + "?filter[tags]=obra%20A":                      {"T1"},
		resources + "?filter[tags]=Alvenaria":                     {},
		resources + "?filter[tags]=obra":                          {},
		resources + "?filter[tags]=alvenaria&filter[code]=T2":     {},
		compositions + "?filter[tags]=alvenaria":                  {"C1"},
		compositions + "?filter[tags]=alvenaria&filter[search]=C": {"C1"},
		budgets + "?filter[tags]=2026":                            {"ORC-T"},
		budgets + "?filter[tags]=alvenaria&sort=-code":            {"ORC-T"},
		budgets + "?filter[tags]=obra%20A":                        {},
	} {
		if got := codes(path); !cmp.Equal(got, want) {
			t.Errorf("GET %s: %v, want %v", path, got, want)
		}
	}
	if got := errorsOf(t, h.Do("GET", resources+"?filter[tags]=", tok, ""), 400); got[0].Parameter != "filter[tags]" {
		t.Errorf("empty filter: %+v", got)
	}
	// Another company's records never match.
	if got := codes(resources + "?filter[tags]=alvenaria"); len(got) != 1 {
		t.Fatalf("%v", got)
	}
	create(t, h, resources, f.other.Token, `{"code":"T1","description":"Bloco","type":4,"unit":"UN","status":true,"tags":["alvenaria"],"locals":{"MG":`+price+`}}`)
	if got := codes(resources + "?filter[tags]=alvenaria"); !cmp.Equal(got, []string{"T1"}) {
		t.Errorf("after another company's record: %v", got)
	}

	// Update replaces them; [] removes them; a patch without tags keeps them.
	a := expect(t, h.Do("PATCH", resources+"/"+resID, tok, `{"tags":["estoque"]}`), 200)
	if got := tagsOf(t, a); !cmp.Equal(got, []string{"estoque"}) {
		t.Errorf("after PATCH: %v", got)
	}
	a = expect(t, h.Do("PATCH", resources+"/"+resID, tok, `{"description":"Bloco cerâmico"}`), 200)
	if got := tagsOf(t, a); !cmp.Equal(got, []string{"estoque"}) {
		t.Errorf("a PATCH without tags changed them: %v", got)
	}
	a = expect(t, h.Do("PATCH", compositions+"/"+compID, tok, `{"tags":[]}`), 200)
	if _, ok := attrs(t, a)["tags"]; ok {
		t.Errorf("tags [] kept: %v", attrs(t, a))
	}
	a = expect(t, h.Do("PATCH", budgets+"/"+budID, tok, `{"tags":["2027"]}`), 200)
	if got := tagsOf(t, a); !cmp.Equal(got, []string{"2027"}) {
		t.Errorf("budget after PATCH: %v", got)
	}
	if got := codes(compositions + "?filter[tags]=alvenaria"); len(got) != 0 {
		t.Errorf("a composition whose tags were removed is still listed: %v", got)
	}
	if got := codes(budgets + "?filter[tags]=2027"); !cmp.Equal(got, []string{"ORC-T"}) {
		t.Errorf("budgets tagged 2027: %v", got)
	}
	// A tagged budget's stored tree is still read as it is streamed.
	rep := h.Do("GET", budgets+"/"+budID+"/reports/synthetic", tok, "")
	rep.Body = bytes.ReplaceAll(bytes.ReplaceAll(rep.Body, []byte(budID), []byte(f.id)), []byte(`"ORC-T"`), []byte(`"ORC-001"`))
	if plainRep := h.Do("GET", budgets+"/"+f.id+"/reports/synthetic", tok, ""); rep.Status != 200 || !bytes.Equal(rep.Body, plainRep.Body) {
		t.Errorf("the report of a tagged budget: %d\n%s\nwant\n%s", rep.Status, rep.Body, plainRep.Body)
	}

	// Bad tags: every one named at once, nothing written.
	long := strings.Repeat("x", 51)
	got := errorsOf(t, h.Do("PATCH", resources+"/"+resID, tok, `{"description":"Outro","tags":["ok"," a","","ok","`+long+`"]}`), 422)
	var pointers []string
	for _, e := range got {
		pointers = append(pointers, e.Pointer)
	}
	want := []string{"/tags/1", "/tags/2", "/tags/3", "/tags/4"}
	if !cmp.Equal(pointers, want) {
		t.Errorf("bad tags: %v, want %v", pointers, want)
	}
	// The same in a JSON:API document.
	got = errorsOf(t, h.Do("PATCH", resources+"/"+resID, tok, `{"data":{"type":"resources","id":"`+resID+`","attributes":{"tags":["ok","ok"]}}}`), 422)
	if len(got) != 1 || got[0].Pointer != "/data/attributes/tags/1" {
		t.Errorf("a tag twice, in a document: %+v", got)
	}
	after := attrs(t, expect(t, h.Do("GET", resources+"/"+resID, tok, ""), 200))
	if after["description"] != "Bloco cerâmico" || !cmp.Equal(after["tags"], []any{"estoque"}) {
		t.Errorf("a refused update wrote: %v", after)
	}
	many := `"t"` // 21 tags
	for i := 1; i <= 20; i++ {
		many += `,"t` + strings.Repeat("i", i) + `"`
	}
	got = errorsOf(t, h.Do("POST", compositions, tok, `{"code":"C9","description":"Parede","unit":"M2","type":"PARE","location":"MG","tags":[`+many+`]}`), 422)
	if len(got) != 1 || got[0].Pointer != "/tags" {
		t.Errorf("21 tags: %+v", got)
	}
	// Not a list of strings: 400, as any attribute of the wrong type.
	got = errorsOf(t, h.Do("POST", resources, tok, `{"code":"T3","description":"Bloco","type":4,"unit":"UN","status":true,"tags":"alvenaria","locals":{"MG":`+price+`}}`), 400)
	if got[0].Pointer != "/tags" {
		t.Errorf("tags not a list: %+v", got)
	}
	if got := codes(compositions + "?filter[code]=C9"); len(got) != 0 {
		t.Errorf("a refused create wrote: %v", got)
	}
}
