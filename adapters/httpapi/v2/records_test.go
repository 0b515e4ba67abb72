package v2_test

import (
	"regexp"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

var saoPaulo = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-03:00$`)

func TestGroups(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")

	doc := create(t, h, groups, u.Token, `{"description":"Alvenarias"}`)
	d := data(t, doc)
	id := str(d["id"])
	if d["type"] != "groups" {
		t.Errorf("type %v", d["type"])
	}
	a := d["attributes"].(obj)
	if diff := cmp.Diff([]string{"created_at", "description"}, keys(a)); diff != "" {
		t.Errorf("attribute keys (-want +got):\n%s", diff)
	}
	if a["description"] != "Alvenarias" || !saoPaulo.MatchString(str(a["created_at"])) {
		t.Errorf("attributes %v", a)
	}
	wantRel := obj{
		"user":   obj{"data": obj{"type": "users", "id": u.UserID}, "links": obj{"related": base + "/users/" + u.UserID}},
		"sector": obj{"data": obj{"type": "sectors", "id": u.DepartmentID}, "links": obj{"related": base + "/sectors/" + u.DepartmentID}},
	}
	if diff := cmp.Diff(wantRel, d["relationships"]); diff != "" {
		t.Errorf("relationships (-want +got):\n%s", diff)
	}
	create(t, h, groups, u.Token, `{"data":{"type":"groups","attributes":{"description":"Pisos"}}}`)

	list := expect(t, h.Do("GET", groups, u.Token, ""), 200)
	if n := len(list["data"].([]any)); n != 2 {
		t.Errorf("%d groups listed, want 2", n)
	}
	if got := num(t, list["meta"].(obj)["total"]); got != "2" {
		t.Errorf("meta.total = %s", got)
	}

	// PATCH changes what it names; an empty PATCH changes nothing.
	a = attrs(t, expect(t, h.Do("PATCH", groups+"/"+id, u.Token, `{"description":"Alvenaria estrutural"}`), 200))
	if a["description"] != "Alvenaria estrutural" {
		t.Errorf("description after PATCH: %v", a["description"])
	}
	a = attrs(t, expect(t, h.Do("PATCH", groups+"/"+id, u.Token, `{"data":{"type":"groups","id":"`+id+`","attributes":{}}}`), 200))
	if a["description"] != "Alvenaria estrutural" {
		t.Errorf("description after an empty PATCH: %v", a["description"])
	}
	got := errorsOf(t, h.Do("PATCH", groups+"/"+id, u.Token, `{"data":{"type":"groups","attributes":{"description":"pisos"}}}`), 422)
	if diff := cmp.Diff([]apiError{{"422", "invalid", "/data/attributes/description", ""}}, got); diff != "" {
		t.Errorf("duplicate description: errors (-want +got):\n%s", diff)
	}

	// A group with members cannot go.
	res := str(data(t, create(t, h, resources, u.Token, `{"code":"001","description":"Bloco","unit":"UN","type":4,"group_id":"`+id+`"}`))["id"])
	errorsOf(t, h.Do("DELETE", groups+"/"+id, u.Token, ""), 409)
	if r := h.Do("DELETE", resources+"/"+res, u.Token, ""); r.Status != 204 {
		t.Fatalf("DELETE resource: %d %s", r.Status, r.Body)
	}
	if r := h.Do("DELETE", groups+"/"+id, u.Token, ""); r.Status != 204 || len(r.Body) != 0 {
		t.Fatalf("DELETE group: %d %s", r.Status, r.Body)
	}
	errorsOf(t, h.Do("GET", groups+"/"+id, u.Token, ""), 404)
}

func TestResources(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	gid := str(data(t, create(t, h, groups, u.Token, `{"description":"Blocos"}`))["id"])

	doc := create(t, h, resources, u.Token, `{"code":"0001","secondary_code":"B-1","description":"Bloco cerâmico","unit":"UN",
		"type":4,"status":true,"note":"n","group_id":"`+gid+`","locals":{"mg":{"pnd":1.61,"pd":1.60,"pndi":0,"pdi":0}}}`)
	d := data(t, doc)
	id := str(d["id"])
	a := d["attributes"].(obj)
	if !saoPaulo.MatchString(str(a["created_at"])) {
		t.Errorf("created_at %v", a["created_at"])
	}
	delete(a, "created_at")
	want := obj{
		"code": "0001", "secondary_code": "B-1", "description": "Bloco cerâmico", "resource_type": jsonNumber("4"),
		"unit": "UN", "is_sicro": false, "status": true, "note": "n",
		"locals": obj{"MG": obj{"pnd": jsonNumber("1.61"), "pd": jsonNumber("1.6"), "pndi": jsonNumber("0"), "pdi": jsonNumber("0")}},
	}
	if diff := cmp.Diff(want, a); diff != "" {
		t.Errorf("attributes (-want +got):\n%s", diff)
	}
	wantRel := obj{
		"user":   obj{"data": obj{"type": "users", "id": u.UserID}, "links": obj{"related": base + "/users/" + u.UserID}},
		"sector": obj{"data": obj{"type": "sectors", "id": u.DepartmentID}, "links": obj{"related": base + "/sectors/" + u.DepartmentID}},
		"group":  obj{"data": obj{"type": "groups", "id": gid}, "links": obj{"related": groups + "/" + gid}},
	}
	if diff := cmp.Diff(wantRel, d["relationships"]); diff != "" {
		t.Errorf("relationships (-want +got):\n%s", diff)
	}

	// Found by its code, leading zeros and all.
	if got := str(data(t, expect(t, h.Do("GET", resources+"/find_by_code?code=0001", u.Token, ""), 200))["id"]); got != id {
		t.Errorf("find_by_code found %s, want %s", got, id)
	}
	errorsOf(t, h.Do("GET", resources+"/find_by_code?code=1", u.Token, ""), 404)

	// PATCH as a JSON:API document: locals replace every state, a null group
	// relationship takes the resource out of its group.
	d = data(t, expect(t, h.Do("PATCH", resources+"/"+id, u.Token, `{"data":{"type":"resources","id":"`+id+`",
		"attributes":{"resource_type":7,"locals":{"SP":{"pnd":2.10,"pd":2.05}}},
		"relationships":{"group":{"data":null}}}}`), 200))
	a = d["attributes"].(obj)
	if diff := cmp.Diff(obj{"SP": obj{"pnd": jsonNumber("2.1"), "pd": jsonNumber("2.05"), "pndi": jsonNumber("0"), "pdi": jsonNumber("0")}}, a["locals"]); diff != "" {
		t.Errorf("locals after PATCH (-want +got):\n%s", diff)
	}
	if got := num(t, a["resource_type"]); got != "7" || a["description"] != "Bloco cerâmico" {
		t.Errorf("after PATCH: resource_type %s, description %v", got, a["description"])
	}
	if diff := cmp.Diff([]string{"sector", "user"}, keys(d["relationships"])); diff != "" {
		t.Errorf("relationships after leaving the group (-want +got):\n%s", diff)
	}

	// List.
	list := expect(t, h.Do("GET", resources+"?page[size]=5", u.Token, ""), 200)
	if n := len(list["data"].([]any)); n != 1 {
		t.Errorf("%d resources listed, want 1", n)
	}

	tests := []struct {
		name   string
		method string
		path   string
		body   string
		status int
		want   []apiError
	}{
		{"bad type and state", "POST", resources, `{"code":"X","description":"d","unit":"UN","type":99,"locals":{"XX":{"pnd":1}}}`, 422, []apiError{
			{"422", "invalid", "/type", ""}, {"422", "invalid", "/locals/XX", ""},
		}},
		{"negative price in a document", "POST", resources, `{"data":{"type":"resources","attributes":{"code":"X","description":"d","unit":"UN","resource_type":4,"locals":{"MG":{"pnd":-1}}}}}`, 422, []apiError{
			{"422", "invalid", "/data/attributes/locals/MG/pnd", ""},
		}},
		{"duplicate code", "POST", resources, `{"code":"0001","description":"d","unit":"UN","resource_type":4}`, 422, []apiError{
			{"422", "invalid", "/code", ""},
		}},
		{"type as text", "PATCH", resources + "/" + id, `{"resource_type":"4"}`, 422, []apiError{
			{"422", "invalid", "/resource_type", ""},
		}},
		{"type with a fraction", "PATCH", resources + "/" + id, `{"resource_type":4.5}`, 422, []apiError{
			{"422", "invalid", "/resource_type", ""},
		}},
		{"group that is not a group", "PATCH", resources + "/" + id, `{"data":{"type":"resources","relationships":{"group":{"data":{"type":"users","id":"x"}}}}}`, 422, []apiError{
			{"422", "invalid", "/data/relationships/group/data/type", ""},
		}},
		{"unknown relationship", "PATCH", resources + "/" + id, `{"data":{"type":"resources","relationships":{"owner":{"data":null}}}}`, 422, []apiError{
			{"422", "invalid", "/data/relationships/owner", ""},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, h.Do(tt.method, tt.path, u.Token, tt.body), tt.status)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOwnItems builds a composition from the company's own resource and
// checks the item id and that the resource cannot go while it is used.
func TestOwnItems(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	res := str(data(t, create(t, h, resources, u.Token, `{"code":"001","description":"Bloco","unit":"UN","type":4,"locals":{"MG":{"pnd":2.005,"pd":1.999}}}`))["id"])
	id := sinapiComposition(t, h, u.Token, "ALV-001")

	a := attrs(t, expect(t, h.Do("POST", compositions+"/"+id+"/add_items", u.Token, `{"items":[{"code":"001","quantity":3,"resource":true}]}`), 200))
	item, ok := a["items"].(obj)["MYBASE:R:001"].(obj)
	if !ok {
		t.Fatalf("no item MYBASE:R:001 in %v", a["items"])
	}
	if diff := cmp.Diff(obj{
		"banco": "MYBASE", "code": "001", "description": "Bloco", "type": "4", "unit": "UN",
		"unitary_pnd": "2.005", "unitary_pd": "1.999", "coefficient": "3", "pnd": "6.01", "pd": "5.99",
		"is_resource": true, "position": "1",
	}, numbersAsText(item)); diff != "" {
		t.Errorf("item (-want +got):\n%s", diff)
	}
	errorsOf(t, h.Do("DELETE", resources+"/"+res, u.Token, ""), 409)
}
