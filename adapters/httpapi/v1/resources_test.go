package v1_test

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResourceCreate(t *testing.T) {
	h, u := setup(t)
	gid := id(t, call(t, h, "POST", base+"/groups", u.Token, `{"description":"Blocos"}`, 201))

	tests := []struct {
		name string
		body string
		want map[string]any // without the ids
	}{
		{
			name: "all fields",
			body: `{"group_id":"` + gid + `","code":"0001","second_code":"B-1","description":"Bloco cerâmico","type":4,"unit":"UN","local":"mg",` +
				`"pnd":2.62,"pd":2.6200,"pndi":0,"pdi":0.001,"status":true,"note":"cotação de agosto"}`,
			want: map[string]any{
				"group_id": gid, "code": "0001", "second_code": "B-1", "description": "Bloco cerâmico",
				"type": num("4"), "unit": "UN",
				"locals": map[string]any{"MG": map[string]any{"pnd": num("2.62"), "pd": num("2.62"), "pndi": num("0"), "pdi": num("0.001")}},
				"status": true, "note": "cotação de agosto",
			},
		},
		{
			name: "no group, no second code",
			body: `{"code":"0002","description":"Areia","type":4,"unit":"M3","local":"SP","pnd":120.5,"pd":120.5,"pndi":120.5,"pdi":120.5,"status":false,"note":""}`,
			want: map[string]any{
				"group_id": nil, "code": "0002", "second_code": nil, "description": "Areia",
				"type": num("4"), "unit": "M3",
				"locals": map[string]any{"SP": map[string]any{"pnd": num("120.5"), "pd": num("120.5"), "pndi": num("120.5"), "pdi": num("120.5")}},
				"status": false, "note": "",
			},
		},
		{
			name: "SICRO resource: one number per state, missing prices take pnd",
			body: `{"code":"P0001","description":"Ajudante","type":3,"unit":"h","local":"AL","pnd":19.5057,"is_sicro":true,"status":true,"note":""}`,
			want: map[string]any{
				"group_id": nil, "code": "P0001", "second_code": nil, "description": "Ajudante",
				"type": num("3"), "unit": "h",
				"locals": map[string]any{"AL": num("19.5057")},
				"status": true, "note": "",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := call(t, h, "POST", base+"/resources", u.Token, tt.body, 201)
			tt.want["id"] = id(t, got)
			tt.want["company_id"], tt.want["user_id"], tt.want["department_id"] = u.CompanyID, u.UserID, u.DepartmentID
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("create (-want +got):\n%s", diff)
			}
		})
	}

	// The SICRO resource's one price is its price in every column.
	sicro := call(t, h, "GET", base+"/resources/find_by_code?code=P0001", u.Token, "", 200)
	upd := call(t, h, "PUT", base+"/resources/"+id(t, sicro), u.Token, `{"is_sicro":false}`, 200)
	want := map[string]any{"AL": map[string]any{"pnd": num("19.5057"), "pd": num("19.5057"), "pndi": num("19.5057"), "pdi": num("19.5057")}}
	if diff := cmp.Diff(want, upd["local"]); diff != "" {
		t.Errorf("prices of the SICRO resource (-want +got):\n%s", diff)
	}
}

func TestResourceReadShapes(t *testing.T) {
	h, u := setup(t)
	gid := id(t, call(t, h, "POST", base+"/groups", u.Token, `{"description":"Blocos"}`, 201))
	plain := id(t, call(t, h, "POST", base+"/resources", u.Token,
		`{"code":"0001","description":"Bloco","type":4,"unit":"UN","local":"MG","pnd":2.62,"pd":2.61,"pndi":2.60,"pdi":2.59,"status":true,"note":"n"}`, 201))
	grouped := id(t, call(t, h, "POST", base+"/resources", u.Token,
		`{"group_id":"`+gid+`","code":"0002","second_code":"X-2","description":"Canaleta","type":4,"unit":"UN","local":"MG","pnd":3.48,"pd":3.48,"pndi":3.48,"pdi":3.48,"status":false,"note":""}`, 201))
	sicro := id(t, call(t, h, "POST", base+"/resources", u.Token,
		`{"code":"E9001","description":"Conjunto vibratório","type":1,"unit":"h","local":"AL","pnd":18.1827,"pd":18.1827,"pndi":11.3001,"pdi":11.3001,"is_sicro":true,"status":true,"note":""}`, 201))

	owner := map[string]any{"company_id": u.CompanyID, "user_id": u.UserID, "department_id": u.DepartmentID}
	record := func(fields map[string]any) map[string]any {
		for k, v := range owner {
			fields[k] = v
		}
		return fields
	}
	records := []any{
		// No group: the key is left out; no second code: null.
		record(map[string]any{
			"id": plain, "code": "0001", "second_code": nil, "description": "Bloco", "type": num("4"), "unit": "UN",
			"locals":   map[string]any{"MG": map[string]any{"pnd": num("2.62"), "pd": num("2.61"), "pndi": num("2.6"), "pdi": num("2.59")}},
			"is_sicro": false, "status": true, "note": "n",
		}),
		record(map[string]any{
			"id": grouped, "group_id": gid, "code": "0002", "second_code": "X-2", "description": "Canaleta", "type": num("4"), "unit": "UN",
			"locals":   map[string]any{"MG": map[string]any{"pnd": num("3.48"), "pd": num("3.48"), "pndi": num("3.48"), "pdi": num("3.48")}},
			"is_sicro": false, "status": false, "note": "",
		}),
		// A SICRO resource: one number per state (seed rule 1).
		record(map[string]any{
			"id": sicro, "code": "E9001", "second_code": nil, "description": "Conjunto vibratório", "type": num("1"), "unit": "h",
			"locals":   map[string]any{"AL": num("18.1827")},
			"is_sicro": true, "status": true, "note": "",
		}),
	}

	list := call(t, h, "GET", base+"/resources", u.Token, "", 200)
	want := map[string]any{"total": num("3"), "per_page": num("10"), "current_page": num("1"), "records": records}
	if diff := cmp.Diff(want, list); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}
	for i, rid := range []string{plain, grouped, sicro} {
		if diff := cmp.Diff(records[i], call(t, h, "GET", base+"/resources/"+rid, u.Token, "", 200)); diff != "" {
			t.Errorf("GET /%s (-want +got):\n%s", rid, diff)
		}
	}
	code := records[2].(map[string]any)["code"].(string)
	if diff := cmp.Diff(records[2], call(t, h, "GET", base+"/resources/find_by_code?code="+url.QueryEscape(code), u.Token, "", 200)); diff != "" {
		t.Errorf("find_by_code (-want +got):\n%s", diff)
	}
}

func TestResourceUpdate(t *testing.T) {
	h, u := setup(t)
	gid := id(t, call(t, h, "POST", base+"/groups", u.Token, `{"description":"Blocos"}`, 201))
	rid := id(t, createResource(t, h, u.Token, "0001", `,"second_code":"S-1","note":"nota"`))
	path := base + "/resources/" + rid

	want := map[string]any{
		"id": rid, "company_id": u.CompanyID, "user_id": u.UserID, "department_id": u.DepartmentID,
		"group_id": nil, "code": "0001", "code_2": "S-1", "description": "Nova descrição", "type": num("4"), "unit": "UN",
		"local":    map[string]any{"MG": map[string]any{"pnd": num("10.5"), "pd": num("10.25"), "pndi": num("10.5"), "pdi": num("10.25")}},
		"is_sicro": false, "status": true, "note": "nota",
	}

	// Only the keys sent change.
	got := call(t, h, "PUT", path, u.Token, `{"description":"Nova descrição"}`, 200)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("partial update (-want +got):\n%s", diff)
	}

	// The full record, as v1 clients send it: locals replace the whole map;
	// company_id, user_id and department_id are ignored.
	full := map[string]any{
		"id": rid, "company_id": "someone-else", "user_id": "someone-else", "department_id": "someone-else",
		"group_id": gid, "code": "0001-A", "second_code": "", "description": "Bloco", "type": 5, "unit": "M2",
		"locals": map[string]any{
			"SP": map[string]any{"pnd": num("1.1"), "pd": num("1.0"), "pndi": num("0.5"), "pdi": num("0.25")},
			"RJ": num("7.77"),
		},
		"status": false, "note": "",
	}
	got = call(t, h, "PUT", path, u.Token, jsonBody(t, full), 200)
	want = map[string]any{
		"id": rid, "company_id": u.CompanyID, "user_id": u.UserID, "department_id": u.DepartmentID,
		"group_id": gid, "code": "0001-A", "code_2": "", "description": "Bloco", "type": num("5"), "unit": "M2",
		"local": map[string]any{
			"SP": map[string]any{"pnd": num("1.1"), "pd": num("1"), "pndi": num("0.5"), "pdi": num("0.25")},
			"RJ": map[string]any{"pnd": num("7.77"), "pd": num("7.77"), "pndi": num("7.77"), "pdi": num("7.77")},
		},
		"is_sicro": false, "status": false, "note": "",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("full update (-want +got):\n%s", diff)
	}

	// Becoming a SICRO resource: one number per state in every answer.
	got = call(t, h, "PUT", path, u.Token, `{"is_sicro":true}`, 200)
	if diff := cmp.Diff(map[string]any{"SP": num("1.1"), "RJ": num("7.77")}, got["local"]); diff != "" {
		t.Errorf("SICRO update answer local (-want +got):\n%s", diff)
	}
	rec := call(t, h, "GET", path, u.Token, "", 200)
	if diff := cmp.Diff(map[string]any{"SP": num("1.1"), "RJ": num("7.77")}, rec["locals"]); diff != "" {
		t.Errorf("SICRO record locals (-want +got):\n%s", diff)
	}
}

func TestResourceDelete(t *testing.T) {
	h, u := setup(t)
	rid := id(t, createResource(t, h, u.Token, "0001"))
	cid := id(t, createComposition(t, h, u.Token, "C-1"))
	call(t, h, "POST", base+"/compositions/"+cid+"/add-items", u.Token, `{"items":[{"bank":"MYBASE","code":"0001","qty":2}]}`, 200)

	// Used by a composition: 409, and the resource stays.
	checkError(t, call(t, h, "DELETE", base+"/resources/"+rid, u.Token, "", 409))
	call(t, h, "GET", base+"/resources/"+rid, u.Token, "", 200)

	call(t, h, "DELETE", base+"/compositions/"+cid+"/remove-items", u.Token, `{"resources":[{"code":"0001"}]}`, 200)
	got := call(t, h, "DELETE", base+"/resources/"+rid, u.Token, "", 200)
	if diff := cmp.Diff(map[string]any{"message": "deleted"}, got); diff != "" {
		t.Errorf("delete (-want +got):\n%s", diff)
	}
	checkError(t, call(t, h, "GET", base+"/resources/"+rid, u.Token, "", 404))
}

func TestResourceErrors(t *testing.T) {
	h, u := setup(t)
	other := h.AddUser("Construtora Beta", "bia@beta.example")
	rid := id(t, createResource(t, h, u.Token, "0001"))
	before := call(t, h, "GET", base+"/resources/"+rid, u.Token, "", 200)
	valid := `"description":"Bloco","type":4,"unit":"UN","local":"MG","pnd":1,"pd":1,"pndi":1,"pdi":1,"status":true,"note":""`

	tests := []struct {
		name, method, path, token, body string
		status                          int
		fields                          []string
	}{
		{"create malformed JSON", "POST", "", u.Token, `{"code":"0002",`, 400, nil},
		{"create not an object", "POST", "", u.Token, `[1,2]`, 400, nil},
		{"create type not an integer", "POST", "", u.Token, `{"code":"0002",` + valid + `,"type":"x"}`, 422, []string{"type"}},
		{"create price not a number", "POST", "", u.Token, `{"code":"0002",` + valid + `,"pnd":"abc"}`, 422, []string{"pnd"}},
		{"create price as text with a comma", "POST", "", u.Token, `{"code":"0002",` + valid + `,"pnd":"1,5"}`, 422, []string{"pnd"}},
		{"create code as a number", "POST", "", u.Token, `{"code":2,` + valid + `}`, 400, []string{"code"}},
		{"create without code", "POST", "", u.Token, `{` + valid + `}`, 422, []string{"code"}},
		{"create duplicate code", "POST", "", u.Token, `{"code":"0001",` + valid + `}`, 422, []string{"code"}},
		{"create negative price", "POST", "", u.Token, `{"code":"0002",` + valid + `,"pd":-1}`, 422, []string{"pd"}},
		{"create bad state", "POST", "", u.Token, `{"code":"0002",` + valid + `,"local":"XX"}`, 422, []string{"local"}},
		{"create without state", "POST", "", u.Token, `{"code":"0002",` + valid + `,"local":""}`, 422, []string{"local"}},
		{"create unknown type", "POST", "", u.Token, `{"code":"0002",` + valid + `,"type":99}`, 422, []string{"type"}},
		{"create several bad fields", "POST", "", u.Token, `{"code":"","description":"","type":4,"unit":"UN","local":"MG"}`, 422, []string{"code", "description"}},
		{"create unknown group", "POST", "", u.Token, `{"code":"0002",` + valid + `,"group_id":"nope"}`, 422, []string{"group_id"}},
		{"create too large", "POST", "", u.Token, bigBody(), 413, nil},
		{"update id differs from path", "PUT", "/" + rid, u.Token, `{"id":"other","description":"x"}`, 422, []string{"id"}},
		{"update negative price", "PUT", "/" + rid, u.Token, `{"locals":{"MG":{"pnd":-1,"pd":1,"pndi":1,"pdi":1}}}`, 422, []string{"locals[MG].pnd"}},
		{"update bad state", "PUT", "/" + rid, u.Token, `{"locals":{"ZZ":{"pnd":1,"pd":1,"pndi":1,"pdi":1}}}`, 422, []string{"locals[ZZ]"}},
		{"update price not a number", "PUT", "/" + rid, u.Token, `{"locals":{"MG":{"pnd":"x"}}}`, 422, []string{"locals[MG].pnd"}},
		{"update state price not a number", "PUT", "/" + rid, u.Token, `{"locals":{"MG":"x"}}`, 422, []string{"locals[MG]"}},
		{"update locals not an object", "PUT", "/" + rid, u.Token, `{"locals":[1]}`, 400, []string{"locals"}},
		{"update status not a boolean", "PUT", "/" + rid, u.Token, `{"status":"yes"}`, 400, []string{"status"}},
		{"update empty description", "PUT", "/" + rid, u.Token, `{"description":""}`, 422, []string{"description"}},
		{"update too large", "PUT", "/" + rid, u.Token, bigBody(), 413, nil},
		{"find_by_code without code", "GET", "/find_by_code", u.Token, "", 422, []string{"code"}},
		{"find_by_code unknown", "GET", "/find_by_code?code=9999", u.Token, "", 404, nil},
		{"find_by_code other company's", "GET", "/find_by_code?code=0001", other.Token, "", 404, nil},
		{"get missing", "GET", "/nope", u.Token, "", 404, nil},
		{"get other company's", "GET", "/" + rid, other.Token, "", 404, nil},
		{"update other company's", "PUT", "/" + rid, other.Token, `{"description":"x"}`, 404, nil},
		{"delete other company's", "DELETE", "/" + rid, other.Token, "", 404, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkError(t, call(t, h, tt.method, base+"/resources"+tt.path, tt.token, tt.body, tt.status), tt.fields...)
		})
	}
	if diff := cmp.Diff(before, call(t, h, "GET", base+"/resources/"+rid, u.Token, "", 200)); diff != "" {
		t.Errorf("failed requests changed the resource (-before +after):\n%s", diff)
	}
	if got := call(t, h, "GET", base+"/resources", u.Token, "", 200); got["total"] != num("1") {
		t.Errorf("failed creates left resources behind: %v", got["total"])
	}
}
