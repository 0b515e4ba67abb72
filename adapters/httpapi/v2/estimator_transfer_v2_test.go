package v2_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// The export writes format version 2 (snake_case members, like every other
// document) and the import reads it back; a version-1 export, written by an
// older server, is still read. Every decoding error is 422 (a member the
// format lacks: 400) naming its pointer in the request, never decoder text.
func TestExportImportCompanyV2(t *testing.T) {
	h := apitest.New(t)
	a, b, c := h.AddUser("Construtora Alfa", "ana@alfa.com.br"), h.AddUser("Construtora Beta", "bia@beta.com.br"), h.AddUser("Construtora Gama", "gil@gama.com.br")
	g := str(data(t, create(t, h, groups, a.Token, `{"description":"Alvenarias"}`))["id"])
	create(t, h, resources, a.Token, `{"code":"R-OWN","description":"Bloco próprio","type":4,"unit":"UN","status":true,"group_id":"`+g+`","locals":{"MG":{"pnd":2.5,"pd":2.4,"pndi":2.5,"pdi":2.4}}}`)
	create(t, h, budgets, a.Token, `{"code":"ORC-X","description":"Obra","location":"MG","bdi":20,
	  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
	  "items":[{"kind":"stage","description":"Paredes","items":[
	    {"kind":"composition","bank":"SINAPI","code":"89306","quantity":120.5},
	    {"kind":"resource","bank":"MYBASE","code":"R-OWN","quantity":1000.01}]}]}`)

	export := h.Do("GET", base+"/my_database/export", a.Token, "")
	ea := attrs(t, expect(t, export, 200))
	if d := cmp.Diff([]string{"budgets", "compositions", "exported_at", "format", "groups", "resources", "version"}, keys(ea)); d != "" {
		t.Errorf("export members (-want +got):\n%s", d)
	}
	if ea["format"] != "costdb.company-export" || num(t, ea["version"]) != "2" {
		t.Fatalf("export %v", ea)
	}
	res := ea["resources"].([]any)[0].(obj)
	if res["group_id"] != g || res["code"] != "R-OWN" || res["locals"].(obj)["MG"] == nil {
		t.Errorf("resource in version 2: %v", res)
	}
	// No member anywhere in the document is named as in Go.
	var goName func(ptr string, v any)
	goName = func(ptr string, v any) {
		switch x := v.(type) {
		case obj:
			for k, y := range x {
				if k != "locals" && strings.ToLower(k) != k && !strings.HasSuffix(ptr, "/locals") {
					t.Errorf("%s/%s is not snake_case", ptr, k)
				}
				goName(ptr+"/"+k, y)
			}
		case []any:
			for _, y := range x {
				goName(ptr+"/-", y)
			}
		}
	}
	goName("", ea)

	imp := attrs(t, expect(t, h.Do("POST", base+"/my_database/import", b.Token, string(export.Body)), 201))
	if len(imp["resources"].([]any)) != 1 || len(imp["budgets"].([]any)) != 1 || len(imp["groups"].([]any)) != 1 {
		t.Fatalf("imported %v", imp)
	}
	// Every figure survives the round trip: the synthetic report and the
	// BDI of the imported budget are those of the exported one.
	oldBudget := str(ea["budgets"].([]any)[0].(obj)["id"])
	newBudget := str(imp["budgets"].([]any)[0].(obj)["new_id"])
	for _, rep := range []string{"/reports/synthetic?format=csv", "/reports/analytic?format=csv"} {
		ra, rb := h.Do("GET", budgets+"/"+oldBudget+rep, a.Token, ""), h.Do("GET", budgets+"/"+newBudget+rep, b.Token, "")
		if ra.Status != 200 || rb.Status != 200 || string(ra.Body) != string(rb.Body) {
			t.Errorf("%s after a version-2 import: %d / %d\n%s\n---\n%s", rep, ra.Status, rb.Status, ra.Body, rb.Body)
		}
	}
	// Plain attributes of version 2, then of version 1, into a third company.
	raw, _ := json.Marshal(ea)
	expect(t, h.Do("POST", base+"/my_database/import", c.Token, string(raw)), 201)
	v1 := attrs(t, expect(t, h.Do("GET", base+"/my_database/export?version=1", a.Token, ""), 200))
	if num(t, v1["Version"]) != "1" || v1["Resources"] == nil {
		t.Fatalf("version 1: %v", keys(v1))
	}
	// Codes are taken in c now: the pointers name version 2's members.
	got := errorsOf(t, h.Do("POST", base+"/my_database/import", c.Token, string(raw)), 422)
	if !hasPointer(got, "/resources/0/code") || !hasPointer(got, "/groups/0/description") {
		t.Errorf("taken codes in version 2: %v", got)
	}
	got = errorsOf(t, h.Do("POST", base+"/my_database/import", c.Token, string(export.Body)), 422)
	if !hasPointer(got, "/data/attributes/resources/0/code") {
		t.Errorf("taken codes in a version-2 document: %v", got)
	}
	v1raw, _ := json.Marshal(v1)
	got = errorsOf(t, h.Do("POST", base+"/my_database/import", c.Token, string(v1raw)), 422)
	if !hasPointer(got, "/Resources/0/code") {
		t.Errorf("taken codes in version 1: %v", got)
	}

	for _, tc := range []struct {
		name, body string
		status     int
		pointers   []string
	}{
		{"v2 wrong types, all at once", `{"format":"costdb.company-export","version":2,
			"budgets":{"x":1},"groups":[{"description":7}],
			"resources":[{"code":"R","type":"four","status":"yes","locals":{"MG":{"pnd":"abc"}},"created_at":"yesterday"}]}`,
			422, []string{"/budgets", "/groups/0/description", "/resources/0/type", "/resources/0/status", "/resources/0/locals/MG/pnd", "/resources/0/created_at"}},
		{"v1 wrong type", `{"Format":"costdb.company-export","Version":1,"Budgets":[{"Code":1}]}`, 422, []string{"/Budgets/0/Code"}},
		{"v2 wrong type in a document", `{"data":{"type":"company-exports","attributes":{"format":"costdb.company-export","version":2,"groups":"g"}}}`,
			422, []string{"/data/attributes/groups"}},
		{"v2 unknown member", `{"format":"costdb.company-export","version":2,"resources":[{"Code":"R"}]}`, 400, []string{"/resources/0/Code"}},
		{"v1 member of v2", `{"Format":"costdb.company-export","Version":1,"groups":[]}`, 400, []string{"/groups"}},
		{"v2 version 3", `{"format":"costdb.company-export","version":3}`, 422, []string{"/version"}},
		{"v1 version 2", `{"Format":"costdb.company-export","Version":2}`, 422, []string{"/Version"}},
		{"no version", `{"format":"costdb.company-export"}`, 422, []string{"/version"}},
		{"v2 other format", `{"format":"other","version":2}`, 422, []string{"/format"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.Do("POST", base+"/my_database/import", c.Token, tc.body)
			got := errorsOf(t, r, tc.status)
			var ptrs []string
			for _, e := range got {
				ptrs = append(ptrs, e.Pointer)
			}
			sort.Strings(ptrs)
			want := append([]string(nil), tc.pointers...)
			sort.Strings(want)
			if d := cmp.Diff(want, ptrs); d != "" {
				t.Errorf("pointers (-want +got):\n%s", d)
			}
			for _, bad := range []string{"unmarshal", "domain.", "app.", "Go value", "json:"} {
				if strings.Contains(string(r.Body), bad) {
					t.Errorf("the answer holds decoder text %q: %s", bad, r.Body)
				}
			}
		})
	}
}

func hasPointer(errs []apiError, p string) bool {
	for _, e := range errs {
		if e.Pointer == p {
			return true
		}
	}
	return false
}
