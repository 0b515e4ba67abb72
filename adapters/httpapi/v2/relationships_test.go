package v2_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

const (
	users   = base + "/users"
	sectors = base + "/sectors"
)

// TestUsersAndSectors reads what the relationships user and sector name:
// only the caller's company's, with name and e-mail.
func TestUsersAndSectors(t *testing.T) {
	h := apitest.New(t)
	ana := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	bia := h.AddUser("Construtora Alfa", "bia@alfa.com.br")
	bob := h.AddUser("Construtora Beta", "bob@beta.com.br")

	d := data(t, expect(t, h.Do("GET", users+"/"+bia.UserID, ana.Token, ""), 200))
	want := obj{
		"type": "users", "id": bia.UserID,
		"attributes": obj{"name": "bia", "email": "bia@alfa.com.br"},
		"relationships": obj{"sector": obj{
			"data":  obj{"type": "sectors", "id": bia.DepartmentID},
			"links": obj{"related": sectors + "/" + bia.DepartmentID},
		}},
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("user (-want +got):\n%s", diff)
	}
	d = data(t, expect(t, h.Do("GET", sectors+"/"+ana.DepartmentID, ana.Token, ""), 200))
	if diff := cmp.Diff(obj{"type": "sectors", "id": ana.DepartmentID, "attributes": obj{"name": "Geral"}}, d); diff != "" {
		t.Errorf("sector (-want +got):\n%s", diff)
	}

	// The user with its sector included.
	doc := expect(t, h.Do("GET", users+"/"+ana.UserID+"?include=sector", ana.Token, ""), 200)
	if diff := cmp.Diff([]string{"sectors/" + ana.DepartmentID}, identities(t, doc["included"])); diff != "" {
		t.Errorf("included (-want +got):\n%s", diff)
	}

	tests := []struct {
		name, path, token string
		status            int
		want              []apiError
	}{
		{"a user of another company", users + "/" + bob.UserID, ana.Token, 404, []apiError{{"404", "not_found", "", ""}}},
		{"a sector of another company", sectors + "/" + bob.DepartmentID, ana.Token, 404, []apiError{{"404", "not_found", "", ""}}},
		{"no such user", users + "/nobody", ana.Token, 404, []apiError{{"404", "not_found", "", ""}}},
		{"a sector id as a user", users + "/" + ana.DepartmentID, ana.Token, 404, []apiError{{"404", "not_found", "", ""}}},
		{"a user id as a sector", sectors + "/" + ana.UserID, ana.Token, 404, []apiError{{"404", "not_found", "", ""}}},
		{"a user includes only its sector", users + "/" + ana.UserID + "?include=user", ana.Token, 400, []apiError{{"400", "bad_request", "", "include"}}},
		{"a sector includes nothing", sectors + "/" + ana.DepartmentID + "?include=user", ana.Token, 400, []apiError{{"400", "bad_request", "", "include"}}},
		{"no token", users + "/" + ana.UserID, "", 401, []apiError{{"401", "unauthorized", "", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, h.Do("GET", tt.path, tt.token, ""), tt.status)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// identities lists "type/id" of the resource objects of a list.
func identities(t *testing.T, list any) []string {
	t.Helper()
	var out []string
	items, _ := list.([]any)
	for _, it := range items {
		o := it.(obj)
		out = append(out, str(o["type"])+"/"+str(o["id"]))
	}
	return out
}

// TestIncludeRoundTrip reads every record type that has relationships, one
// record and a list, with every relationship included, and checks each
// compound document: valid against the official JSON:API schema, each
// included record once and none that is primary data, every included
// record named by a relationship (full linkage), every relationship named
// with include present in `included`, and every relationship resolving:
// its links.related and its id each lead to a 200 with that record.
func TestIncludeRoundTrip(t *testing.T) {
	h := apitest.New(t)
	ana := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	bia := h.AddUser("Construtora Alfa", "bia@alfa.com.br")
	h.AddUser("Construtora Beta", "bob@beta.com.br")

	gid := str(data(t, create(t, h, groups, ana.Token, `{"description":"Alvenarias"}`))["id"])
	create(t, h, groups, bia.Token, `{"description":"Pisos"}`)
	rid := str(data(t, create(t, h, resources, ana.Token, `{"code":"001","description":"Bloco","unit":"UN","type":4,"group_id":"`+gid+`","locals":{"MG":{"pnd":2,"pd":1.9}}}`))["id"])
	create(t, h, resources, bia.Token, `{"code":"002","description":"Areia","unit":"M3","type":4}`)
	cid := str(data(t, create(t, h, compositions, ana.Token, `{"code":"ALV-1","description":"Alvenaria","unit":"M2","type":"PARE","location":"MG","group_id":"`+gid+`"}`))["id"])
	create(t, h, compositions, bia.Token, `{"code":"ALV-2","description":"Alvenaria 2","unit":"M2","type":"PARE","location":"MG"}`)
	bid := str(data(t, create(t, h, budgets, ana.Token, `{"code":"ORC-1","description":"Obra","location":"MG"}`))["id"])

	tests := []struct {
		path     string
		included []string // the records included, in order
	}{
		{groups + "/" + gid + "?include=user,sector", []string{"users/" + ana.UserID, "sectors/" + ana.DepartmentID}},
		{groups + "?include=sector,user", []string{"sectors/" + ana.DepartmentID, "users/" + ana.UserID, "users/" + bia.UserID}},
		{resources + "/" + rid + "?include=user,sector,group", []string{"users/" + ana.UserID, "sectors/" + ana.DepartmentID, "groups/" + gid}},
		{resources + "/find_by_code?code=001&include=group", []string{"groups/" + gid}},
		{resources + "?include=user,sector,group,user", []string{"users/" + ana.UserID, "sectors/" + ana.DepartmentID, "groups/" + gid, "users/" + bia.UserID}},
		{compositions + "/" + cid + "?include=group,user", []string{"groups/" + gid, "users/" + ana.UserID}},
		{compositions + "/find_by_code?code=ALV-1&state=MG&include=sector", []string{"sectors/" + ana.DepartmentID}},
		{compositions + "?include=user,sector,group&sort=code", []string{"users/" + ana.UserID, "sectors/" + ana.DepartmentID, "groups/" + gid, "users/" + bia.UserID}},
		{budgets + "/" + bid + "?include=user,sector", []string{"users/" + ana.UserID, "sectors/" + ana.DepartmentID}},
		{budgets + "?include=user", []string{"users/" + ana.UserID}},
		{users + "/" + bia.UserID + "?include=sector", []string{"sectors/" + bia.DepartmentID}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r := h.Do("GET", tt.path, ana.Token, "")
			doc := expect(t, r, 200)
			if err := apitest.ValidateJSONAPI(r.Body); err != nil {
				t.Fatalf("not a valid JSON:API document: %v", err)
			}
			got := identities(t, doc["included"])
			if diff := cmp.Diff(tt.included, got); diff != "" {
				t.Errorf("included (-want +got):\n%s", diff)
			}
			var primary []obj
			switch d := doc["data"].(type) {
			case obj:
				primary = []obj{d}
			case []any:
				for _, x := range d {
					primary = append(primary, x.(obj))
				}
			}
			u, _ := url.Parse(tt.path)
			asked := map[string]bool{}
			for _, p := range strings.Split(u.Query().Get("include"), ",") {
				asked[p] = true
			}
			seen := map[string]bool{}
			for _, p := range primary {
				seen[str(p["type"])+"/"+str(p["id"])] = true
			}
			for _, id := range got {
				if seen[id] {
					t.Errorf("%s is in included twice, or is primary data", id)
				}
				seen[id] = true
			}
			// Every relationship of primary data named by include is in
			// included; every included record is named by a relationship.
			linked := map[string]bool{}
			var all []obj
			all = append(all, primary...)
			if inc, ok := doc["included"].([]any); ok {
				for _, x := range inc {
					all = append(all, x.(obj))
				}
			}
			for i, ro := range all {
				rels, _ := ro["relationships"].(obj)
				for name, rel := range rels {
					id := checkRelationship(t, h, ana.Token, name, rel.(obj))
					linked[id] = true
					if i < len(primary) && asked[name] && !seen[id] {
						t.Errorf("%s of %s/%s is not in included", name, ro["type"], ro["id"])
					}
				}
			}
			for _, id := range got {
				if !linked[id] {
					t.Errorf("%s is included but no relationship names it", id)
				}
			}
		})
	}
}

// checkRelationship follows a to-one relationship by its links.related and
// by the path of its type and id: both must answer 200 with the record the
// relationship names. It returns "type/id".
func checkRelationship(t *testing.T, h *apitest.Harness, token, name string, rel obj) string {
	t.Helper()
	d, ok := rel["data"].(obj)
	if !ok {
		t.Fatalf("relationship %s has no data: %v", name, rel)
	}
	typ, id := str(d["type"]), str(d["id"])
	byType := map[string]string{"users": users, "sectors": sectors, "groups": groups}[typ]
	if byType == "" {
		t.Fatalf("relationship %s names the type %q, which no endpoint serves", name, typ)
	}
	related := str(rel["links"].(obj)["related"])
	if related != byType+"/"+id {
		t.Errorf("relationship %s: links.related %q, want %q", name, related, byType+"/"+id)
	}
	for _, path := range []string{related, byType + "/" + id} {
		got := data(t, expect(t, h.Do("GET", path, token, ""), 200))
		if got["type"] != typ || got["id"] != id {
			t.Errorf("GET %s answered %v/%v, want %s/%s", path, got["type"], got["id"], typ, id)
		}
	}
	return typ + "/" + id
}
