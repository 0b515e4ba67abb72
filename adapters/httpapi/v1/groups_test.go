package v1_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGroups(t *testing.T) {
	h, u := setup(t)

	created := call(t, h, "POST", base+"/groups", u.Token, `{"description":"Alvenaria"}`, 201)
	gid := id(t, created)
	want := map[string]any{
		"id":            gid,
		"company_id":    u.CompanyID,
		"user_id":       u.UserID,
		"department_id": u.DepartmentID,
		"description":   "Alvenaria",
		"created_at":    checkCreatedAt(t, created),
	}
	if diff := cmp.Diff(want, created); diff != "" {
		t.Errorf("create (-want +got):\n%s", diff)
	}

	if diff := cmp.Diff(want, call(t, h, "GET", base+"/groups/"+gid, u.Token, "", 200)); diff != "" {
		t.Errorf("get (-want +got):\n%s", diff)
	}

	list := call(t, h, "GET", base+"/groups", u.Token, "", 200)
	wantList := map[string]any{"total": num("1"), "per_page": num("10"), "current_page": num("1"), "records": []any{want}}
	if diff := cmp.Diff(wantList, list); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}

	// The update body may carry the whole record; server-controlled ids are ignored.
	updated := call(t, h, "PUT", base+"/groups/"+gid, u.Token,
		jsonBody(t, map[string]string{"id": gid, "company_id": "other", "user_id": "other", "description": "Alvenaria estrutural"}), 200)
	want["description"] = "Alvenaria estrutural"
	if diff := cmp.Diff(want, updated); diff != "" {
		t.Errorf("update (-want +got):\n%s", diff)
	}

	if diff := cmp.Diff(map[string]any{"message": "deleted"}, call(t, h, "DELETE", base+"/groups/"+gid, u.Token, "", 200)); diff != "" {
		t.Errorf("delete (-want +got):\n%s", diff)
	}
	checkError(t, call(t, h, "GET", base+"/groups/"+gid, u.Token, "", 404))
}

func TestGroupErrors(t *testing.T) {
	h, u := setup(t)
	other := h.AddUser("Construtora Beta", "bia@beta.example")
	gid := id(t, call(t, h, "POST", base+"/groups", u.Token, `{"description":"Alvenaria"}`, 201))
	used := id(t, call(t, h, "POST", base+"/groups", u.Token, `{"description":"Usado"}`, 201))
	createResource(t, h, u.Token, "R-1", `,"group_id":"`+used+`"`)

	tests := []struct {
		name, method, path, token, body string
		status                          int
		fields                          []string
	}{
		{"create without description", "POST", "/groups", u.Token, `{}`, 422, []string{"description"}},
		{"create duplicate", "POST", "/groups", u.Token, `{"description":"alvenaria"}`, 422, []string{"description"}},
		{"create malformed", "POST", "/groups", u.Token, `{"description":`, 400, nil},
		{"create wrong type", "POST", "/groups", u.Token, `{"description":5}`, 400, []string{"description"}},
		{"create too large", "POST", "/groups", u.Token, bigBody(), 413, nil},
		{"update other id in body", "PUT", "/groups/" + gid, u.Token, `{"id":"x","description":"A"}`, 422, []string{"id"}},
		{"update empty description", "PUT", "/groups/" + gid, u.Token, `{"description":" "}`, 422, []string{"description"}},
		{"get missing", "GET", "/groups/nope", u.Token, "", 404, nil},
		{"get other company's", "GET", "/groups/" + gid, other.Token, "", 404, nil},
		{"update other company's", "PUT", "/groups/" + gid, other.Token, `{"description":"B"}`, 404, nil},
		{"delete other company's", "DELETE", "/groups/" + gid, other.Token, "", 404, nil},
		{"delete with members", "DELETE", "/groups/" + used, u.Token, "", 409, nil},
		{"list bad page", "GET", "/groups?page=x", u.Token, "", 400, []string{"page"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkError(t, call(t, h, tt.method, base+tt.path, tt.token, tt.body, tt.status), tt.fields...)
		})
	}
	// Nothing above changed the group.
	if got := call(t, h, "GET", base+"/groups/"+gid, u.Token, "", 200); got["description"] != "Alvenaria" {
		t.Errorf("group changed by failed requests: %v", got)
	}
}
