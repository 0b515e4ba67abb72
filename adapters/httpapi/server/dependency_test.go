package server_test

import (
	"strings"
	"testing"
)

// TestCompositionTaggedByWhatItReads checks, in both generations and on two
// servers sharing the store, that the answer of a composition is tagged by
// what it depends on (issue 29): a write of another composition of the
// company leaves its tag valid (304) and its cached answer served, as it
// leaves those of the own resources (a record, a filtered list, one found
// by code) that no composition write changes; a write
// of the composition itself, of a composition it uses as an item (read by
// its code), or of any other record of the company changes it, and the answer after the write is the
// new one.
func TestCompositionTaggedByWhatItReads(t *testing.T) {
	f := newConditionalFixture(t)
	h := f.h
	srv2 := secondServer(t, h)
	banks := func(id string) {
		mustStatus(t, h.Do("POST", v2Base+"/my_database/compositions/"+id+"/add_banks", f.u.Token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`), 200)
	}
	mk := func(code string) string {
		id := dataID(t, mustStatus(t, h.Do("POST", v2Base+"/my_database/compositions", f.u.Token,
			`{"code":"`+code+`","description":"SERVICO `+code+`","unit":"M2","type":"PARE","location":"MG"}`), 201))
		banks(id)
		return id
	}
	add := func(id, items string) {
		t.Helper()
		mustStatus(t, h.Do("POST", v2Base+"/my_database/compositions/"+id+"/add_items", f.u.Token, `{"items":[`+items+`]}`), 200)
	}
	banks(f.comp)
	other, nested, parent := mk("C-2"), mk("C-N"), mk("C-P")
	add(f.comp, `{"bank":"SINAPI","code":"34586","quantity":1,"resource":true}`)
	add(nested, `{"bank":"SINAPI","code":"34586","quantity":1,"resource":true}`)
	add(parent, `{"bank":"MYBASE","code":"C-N","quantity":2,"resource":false}`)

	paths := func(id string) []string {
		if id == "resources" { // the own resources' GETs read no composition
			return []string{v2Base + "/my_database/resources/" + f.resource, v2Base + "/my_database/resources?filter[description]=areia&sort=-code",
				v2Base + "/my_database/resources/find_by_code?code=R-1", v1Base + "/base/mybase/resources/" + f.resource, v1Base + "/base/mybase/resources"}
		}
		return []string{v2Base + "/my_database/compositions/" + id, v1Base + "/base/mybase/compositions/" + id}
	}
	type seen struct{ tag, body string }
	read := func() map[string]seen {
		got := map[string]seen{}
		for _, id := range []string{f.comp, parent, "resources"} {
			for _, p := range paths(id) {
				r := mustStatus(t, h.Do("GET", p, f.u.Token, ""), 200)
				st, tag2, body2 := srv2.get(f.u.Token, p, "")
				if st != 200 || tag2 != r.Header.Get("ETag") || body2 != string(r.Body) {
					t.Fatalf("GET %s: the second server answered %d %s, the first %s", p, st, tag2, r.Header.Get("ETag"))
				}
				got[p] = seen{r.Header.Get("ETag"), string(r.Body)}
			}
		}
		return got
	}
	// still checks that every path in keep answers 304 to its old tag on
	// both servers, and every other path 200 with a new tag.
	still := func(step string, before map[string]seen, keep ...string) map[string]seen {
		t.Helper()
		kept := map[string]bool{}
		for _, id := range keep {
			for _, p := range paths(id) {
				kept[p] = true
			}
		}
		for p, s := range before {
			r := h.Do("GET", p, f.u.Token, "", "If-None-Match", s.tag)
			st, _, _ := srv2.get(f.u.Token, p, s.tag)
			switch {
			case kept[p] && (r.Status != 304 || st != 304):
				t.Errorf("%s: GET %s with its tag: %d and %d on the second server, want 304", step, p, r.Status, st)
			case !kept[p] && (r.Status != 200 || st != 200 || r.Header.Get("ETag") == s.tag):
				t.Errorf("%s: GET %s with its old tag: %d (tag %s) and %d on the second server, want 200 and a new tag", step, p, r.Status, r.Header.Get("ETag"), st)
			}
		}
		after := read()
		for p, s := range before {
			if kept[p] && (after[p] != s) {
				t.Errorf("%s: GET %s changed though nothing it shows did", step, p)
			}
		}
		return after
	}
	before := read()
	// The list of the company's compositions depends on them all.
	list := mustStatus(t, h.Do("GET", v2Base+"/my_database/compositions", f.u.Token, ""), 200).Header.Get("ETag")

	add(other, `{"bank":"SINAPI","code":"34586","quantity":3,"resource":true}`)
	// The parent reads its item by code: it depends on all the compositions.
	before = still("a write of another composition", before, f.comp, "resources")
	if r := h.Do("GET", v2Base+"/my_database/compositions", f.u.Token, "", "If-None-Match", list); r.Status != 200 {
		t.Errorf("the list of compositions after a write of one: %d to its old tag, want 200", r.Status)
	}

	add(f.comp, `{"bank":"SINAPI","code":"34586","quantity":5,"resource":true}`)
	after := still("a write of the composition", before, "resources")
	if !strings.Contains(after[paths(f.comp)[0]].body, `"coefficient":5,`) {
		t.Errorf("the composition after its write does not show it: %s", after[paths(f.comp)[0]].body)
	}

	add(nested, `{"bank":"SINAPI","code":"34586","quantity":4,"resource":true}`)
	after2 := still("a write of a composition used as an item", after, f.comp, "resources")
	if after2[paths(parent)[0]].body == after[paths(parent)[0]].body {
		t.Error("the composition using the changed one shows the same answer")
	}

	mustStatus(t, h.Do("PATCH", v2Base+"/my_database/resources/"+f.resource, f.u.Token,
		`{"data":{"type":"resources","id":"`+f.resource+`","attributes":{"description":"Areia fina"}}}`), 200)
	still("a write of a resource of the company", after2)
}
