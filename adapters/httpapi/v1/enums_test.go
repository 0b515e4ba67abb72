package v1_test

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEnums(t *testing.T) {
	h, u := setup(t)

	list := call(t, h, "GET", "/api/v1/enums", u.Token, "", 200)
	if diff := cmp.Diff([]string{"records", "total"}, keys(list)); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	var codes []string
	for _, r := range list["records"].([]any) {
		rec := r.(map[string]any)
		if diff := cmp.Diff([]string{"code", "name"}, keys(rec)); diff != "" {
			t.Errorf("record keys (-want +got):\n%s", diff)
		}
		codes = append(codes, rec["code"].(string))
	}
	if diff := cmp.Diff([]string{"resource_types", "units", "composition_classes", "states", "calculation_methods", "banks"}, codes); diff != "" {
		t.Errorf("catalogues (-want +got):\n%s", diff)
	}
	if list["total"] != num("6") {
		t.Errorf("total = %v, want 6", list["total"])
	}

	want := map[string]any{
		"records": []any{
			map[string]any{"code": "1", "name": "Arredondar com 2 casas decimais"},
			map[string]any{"code": "2", "name": "Truncar com 2 casas decimais"},
			map[string]any{"code": "3", "name": "Truncar com 4 casas decimais"},
			map[string]any{"code": "4", "name": "Sem arredondamento"},
		},
		"total": num("4"),
	}
	if diff := cmp.Diff(want, call(t, h, "GET", "/api/v1/enums/calculation_methods", u.Token, "", 200)); diff != "" {
		t.Errorf("calculation_methods (-want +got):\n%s", diff)
	}

	// Each catalogue: total counts the records; spot-check one entry.
	for cat, entry := range map[string][2]string{
		"resource_types":      {"4", "Material"},
		"units":               {"M2", "metro quadrado"},
		"composition_classes": {"PARE", "Paredes/painéis"},
		"states":              {"MG", "Minas Gerais"},
		"banks":               {"SINAPI", ""},
	} {
		body := call(t, h, "GET", "/api/v1/enums/"+cat, u.Token, "", 200)
		recs := body["records"].([]any)
		if body["total"] != num(strconv.Itoa(len(recs))) {
			t.Errorf("%s: total %v, %d records", cat, body["total"], len(recs))
		}
		found := false
		for _, r := range recs {
			rec := r.(map[string]any)
			if rec["code"] == entry[0] && (entry[1] == "" || rec["name"] == entry[1]) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s has no entry %v", cat, entry)
		}
	}
	if n := len(call(t, h, "GET", "/api/v1/enums/states", u.Token, "", 200)["records"].([]any)); n != 27 {
		t.Errorf("%d states, want 27", n)
	}

	// The bare token works as everywhere in v1; no token is 401; an unknown
	// catalogue is 404, in the v1 error shape.
	r := h.Do("GET", "/api/v1/enums", "", "", "Authorization", u.Token)
	checkStatus(t, r, "bare token", 200)
	checkError(t, call(t, h, "GET", "/api/v1/enums", "", "", 401))
	checkError(t, call(t, h, "GET", "/api/v1/enums/units", "", "", 401))
	checkError(t, call(t, h, "GET", "/api/v1/enums/colours", u.Token, "", 404))
}
