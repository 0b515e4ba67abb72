package v2_test

import (
	"strconv"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

const enums = base + "/enums"

func TestEnums(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")

	doc := expect(t, h.Do("GET", enums, u.Token, ""), 200)
	if diff := cmp.Diff([]string{"data", "links", "meta"}, keys(doc)); diff != "" {
		t.Errorf("top-level members (-want +got):\n%s", diff)
	}
	var ids []string
	for _, e := range doc["data"].([]any) {
		d := e.(obj)
		ids = append(ids, str(d["id"]))
		if d["type"] != "enums" {
			t.Errorf("type %v, want enums", d["type"])
		}
		a := d["attributes"].(obj)
		if diff := cmp.Diff([]string{"count", "description", "name"}, keys(a)); diff != "" {
			t.Errorf("attributes (-want +got):\n%s", diff)
		}
		if a["name"] != d["id"] || str(a["description"]) == "" {
			t.Errorf("catalogue %v: name %v, description %v", d["id"], a["name"], a["description"])
		}
		// count is the number of entries of the catalogue.
		entries := expect(t, h.Do("GET", enums+"/"+str(d["id"]), u.Token, ""), 200)
		if got, want := num(t, a["count"]), num(t, entries["meta"].(obj)["total"]); got != want {
			t.Errorf("%v: count %s, total %s", d["id"], got, want)
		}
		if n := len(entries["data"].([]any)); num(t, a["count"]) != strconv.Itoa(n) {
			t.Errorf("%v: count %v, %d entries", d["id"], a["count"], n)
		}
	}
	if diff := cmp.Diff([]string{"resource_types", "units", "composition_classes", "states", "calculation_methods", "banks"}, ids); diff != "" {
		t.Errorf("catalogues (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(obj{"self": enums}, doc["links"]); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}

	// One catalogue: resources of type <catalogue>, id the code.
	doc = expect(t, h.Do("GET", enums+"/calculation_methods", u.Token, ""), 200)
	entry := func(cat, code, name string) obj {
		return obj{"type": cat, "id": code, "attributes": obj{"code": code, "name": name}}
	}
	want := obj{
		"data": []any{
			entry("calculation_methods", "1", "Arredondar com 2 casas decimais"),
			entry("calculation_methods", "2", "Truncar com 2 casas decimais"),
			entry("calculation_methods", "3", "Truncar com 4 casas decimais"),
			entry("calculation_methods", "4", "Sem arredondamento"),
		},
		"links": obj{"self": enums + "/calculation_methods"},
		"meta":  obj{"total": jsonNumber("4"), "description": str(doc["meta"].(obj)["description"])},
	}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("calculation_methods (-want +got):\n%s", diff)
	}

	for cat, e := range map[string][2]string{
		"resource_types":      {"4", "Material"},
		"units":               {"M2", "metro quadrado"},
		"composition_classes": {"PARE", "Paredes/painéis"},
		"states":              {"MG", "Minas Gerais"},
		"banks":               {"MYBASE", "Base própria da empresa"},
	} {
		doc := expect(t, h.Do("GET", enums+"/"+cat, u.Token, ""), 200)
		found := false
		for _, d := range doc["data"].([]any) {
			if cmp.Equal(entry(cat, e[0], e[1]), d) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s has no entry %v", cat, e)
		}
	}

	tests := []struct {
		name, path, token string
		status            int
		want              []apiError
	}{
		{"unknown catalogue", enums + "/colours", u.Token, 404, []apiError{{"404", "not_found", "", ""}}},
		{"no token", enums, "", 401, []apiError{{"401", "unauthorized", "", ""}}},
		{"no token on a catalogue", enums + "/states", "", 401, []apiError{{"401", "unauthorized", "", ""}}},
		{"query parameter", enums + "/states?page[size]=5", u.Token, 400, []apiError{{"400", "bad_request", "", "page[size]"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, errorsOf(t, h.Do("GET", tt.path, tt.token, ""), tt.status)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}
