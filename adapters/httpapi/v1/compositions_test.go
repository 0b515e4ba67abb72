package v1_test

import (
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// compositionKeys are the keys of every v1 composition.
var compositionKeys = []string{
	"banks", "calculation_method", "code", "company_id", "created_at", "department_id", "description", "group_id", "id",
	"is_sicro", "items", "labor", "prices", "second_code", "state", "type", "unit", "user_id",
}

// owned fills in the ids and created_at of an expected composition from got.
func owned(t *testing.T, u apitest.User, got, want map[string]any) map[string]any {
	t.Helper()
	want["id"] = id(t, got)
	want["company_id"], want["user_id"], want["department_id"] = u.CompanyID, u.UserID, u.DepartmentID
	want["created_at"] = checkCreatedAt(t, got)
	return want
}

func TestCompositionCreate(t *testing.T) {
	h, u := setup(t)
	gid := id(t, call(t, h, "POST", base+"/groups", u.Token, `{"description":"Alvenarias"}`, 201))

	sinapi := call(t, h, "POST", base+"/compositions", u.Token,
		`{"code":"ALV-01","second_code":"89306-A","description":"Alvenaria estrutural","type":"pare","unit":"M2","local":"mg",`+
			`"is_sicro":false,"labor":false,"note":"nota","group_id":"`+gid+`"}`, 201)
	want := owned(t, u, sinapi, map[string]any{
		"code": "ALV-01", "second_code": "89306-A", "description": "Alvenaria estrutural", "type": "PARE", "unit": "M2",
		"state": "MG", "is_sicro": false, "group_id": gid,
		"calculation_method": map[string]any{"type": num("2"), "description": "Truncar com 2 casas decimais"},
		"labor":              false,
		"prices":             map[string]any{"pnd": num("0"), "pd": num("0")},
		"banks":              map[string]any{},
		"items":              []any{},
	})
	if diff := cmp.Diff(want, sinapi); diff != "" {
		t.Errorf("SINAPI-model create (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(compositionKeys, keys(sinapi)); diff != "" {
		t.Errorf("SINAPI-model keys (-want +got):\n%s", diff)
	}

	rounded := call(t, h, "POST", base+"/compositions", u.Token,
		`{"code":"ALV-02","description":"Alvenaria","unit":"M2","local":"SP","labor":true,"rounding_type":1}`, 201)
	if diff := cmp.Diff(map[string]any{"type": num("1"), "description": "Arredondar com 2 casas decimais"}, rounded["calculation_method"]); diff != "" {
		t.Errorf("rounding_type 1 (-want +got):\n%s", diff)
	}
	if rounded["labor"] != true || rounded["second_code"] != "" || rounded["type"] != "" {
		t.Errorf("labor, second_code or type wrong: %v", rounded)
	}

	sicro := call(t, h, "POST", base+"/compositions", u.Token,
		`{"code":"0307731","description":"Aparelho de apoio","type":"","unit":"dm³","local":"AL","is_sicro":true,`+
			`"team_production":2.5000,"fic":0.0123,"adc_labor":15}`, 201)
	zero := num("0")
	want = owned(t, u, sicro, map[string]any{
		"code": "0307731", "second_code": "", "description": "Aparelho de apoio", "type": "", "unit": "dm³",
		"state": "AL", "is_sicro": true, "group_id": nil,
		"calculation_method": map[string]any{"type": num("3"), "description": "Truncar com 4 casas decimais"},
		"labor":              false,
		"team_production":    num("2.5"), "fic": num("0.0123"), "adc_labor": num("15"),
		"prices": map[string]any{
			"pnd": zero, "pd": zero, "ch_de_eq": zero, "chd_de_eq": zero, "chi_de_eq": zero, "chdi_de_eq": zero,
			"ch_da_mo": zero, "chd_da_mo": zero, "che": zero, "chde": zero, "ch_incidencia": zero,
			"ctf": zero, "ctfd": zero, "cuoi": zero, "cuoid": zero, "cca": zero, "ccad": zero, "cumo": zero,
		},
		"banks": map[string]any{},
		"items": []any{},
	})
	if diff := cmp.Diff(want, sicro); diff != "" {
		t.Errorf("SICRO-model create (-want +got):\n%s", diff)
	}
}

func TestCompositionSicroPrices(t *testing.T) {
	h, u := setup(t)
	cid := id(t, call(t, h, "POST", base+"/compositions", u.Token,
		`{"code":"S-1","description":"Serviço","type":"PAVI","unit":"m3","local":"AL","is_sicro":true,"team_production":2,"fic":0.1,"adc_labor":0}`, 201))
	got := call(t, h, "POST", base+"/compositions/"+cid+"/add-bases", u.Token,
		`{"bases":[{"name":"sicro3","local":"al","version":"01/2024","status":false}]}`, 200)
	if diff := cmp.Diff(map[string]any{"SICRO3": map[string]any{"data": "01/2024", "estado": "AL", "relatorio": false}}, got["banks"]); diff != "" {
		t.Errorf("banks (-want +got):\n%s", diff)
	}
	got = call(t, h, "POST", base+"/compositions/"+cid+"/add-items", u.Token,
		`{"items":[{"bank":"SICRO3","code":"P9801","qty":2},{"bank":"SICRO3","code":"M0004","qty":10},{"bank":"SICRO3","code":"E9001","qty":1}]}`, 200)

	// A = 18.1827 (E9001), B = 2 × 19.5057 = 39.0114 (P9801), CHE = 57.1941,
	// CUE = trunc₄(57.1941 / 2) = 28.597, FIC = trunc₄(28.597 × 0.1) = 2.8597,
	// C = 10 × 6.7574 = 67.574 (M0004): 28.597 + 2.8597 + 67.574 = 99.0307.
	// Desonerado: B = 2 × 17.7649 = 35.5298, CHE = 53.7125, CUE = 26.8562,
	// FIC = 2.6856: 97.1158.
	zero := num("0")
	wantPrices := map[string]any{
		"pnd": num("99.0307"), "pd": num("97.1158"),
		"ch_de_eq": num("18.1827"), "chd_de_eq": num("18.1827"), "chi_de_eq": zero, "chdi_de_eq": zero,
		"ch_da_mo": num("39.0114"), "chd_da_mo": num("35.5298"), "che": num("57.1941"), "chde": num("53.7125"),
		"ch_incidencia": zero, "ctf": zero, "ctfd": zero, "cuoi": zero, "cuoid": zero, "cca": zero, "ccad": zero,
		"cumo": num("67.574"),
	}
	if diff := cmp.Diff(wantPrices, got["prices"]); diff != "" {
		t.Errorf("SICRO prices (-want +got):\n%s", diff)
	}
	wantItem := map[string]any{
		"banco": "SICRO3", "code": "P9801", "description": "Ajudante", "type": "3", "unit": "h",
		"unitary_pnd": num("19.5057"), "unitary_pd": num("17.7649"), "coefficient": num("2"),
		// Line totals are shown at 2 decimals: method 3 (this composition's default)
		// adds 39.0114 and 35.5298 into the price and shows them truncated.
		"pnd": num("39.01"), "pd": num("35.52"), "is_resource": true,
	}
	if diff := cmp.Diff(wantItem, got["items"].([]any)[0]); diff != "" {
		t.Errorf("SICRO item (-want +got):\n%s", diff)
	}
}

func TestCompositionReads(t *testing.T) {
	h, u := setup(t)
	cid := id(t, createComposition(t, h, u.Token, "0001"))
	attachSinapi(t, h, u.Token, cid)
	full := call(t, h, "POST", base+"/compositions/"+cid+"/add-items", u.Token, `{"items":[{"bank":"SINAPI","code":"88309","qty":1.5}]}`, 200)
	// Same code in another state is another composition.
	other := call(t, h, "POST", base+"/compositions", u.Token, `{"code":"0001","description":"Outra","unit":"M2","local":"SP"}`, 201)

	if diff := cmp.Diff(full, call(t, h, "GET", base+"/compositions/"+cid, u.Token, "", 200)); diff != "" {
		t.Errorf("GET /{id} (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(full, call(t, h, "GET", base+"/compositions/find_by_code?code=0001&state=mg", u.Token, "", 200)); diff != "" {
		t.Errorf("find_by_code MG (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(other, call(t, h, "GET", base+"/compositions/find_by_code?code=0001&state=SP", u.Token, "", 200)); diff != "" {
		t.Errorf("find_by_code SP (-want +got):\n%s", diff)
	}
	// Lists carry the items.
	want := map[string]any{"total": num("2"), "per_page": num("10"), "current_page": num("1"), "records": []any{full, other}}
	if diff := cmp.Diff(want, call(t, h, "GET", base+"/compositions", u.Token, "", 200)); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}
}

func TestCompositionUpdate(t *testing.T) {
	h, u := setup(t)
	created := createComposition(t, h, u.Token, "ALV-01")
	cid := id(t, created)
	attachSinapi(t, h, u.Token, cid)
	// Não desonerado: 0.6505 × 24.88 = 16.18444, 1.1152 × 33.62 = 37.493024,
	// 0.0175 × 713.59 = 12.487825: 16.18 + 37.49 + 12.48 = 66.15 truncated,
	// 16.18 + 37.49 + 12.49 = 66.16 rounded. Desonerado: 0.6505 × 23.58 =
	// 15.33879, 1.1152 × 31.67 = 35.318384, 0.0175 × 703.92 = 12.3186:
	// rounded 15.34 + 35.32 + 12.32 = 62.98.
	before := call(t, h, "POST", base+"/compositions/"+cid+"/add-items", u.Token,
		`{"items":[{"bank":"SINAPI","code":"88316","qty":0.6505},{"bank":"SINAPI","code":"88309","qty":1.1152},{"bank":"SINAPI","code":"87286","qty":0.0175}]}`, 200)
	if got := before["prices"].(map[string]any)["pnd"]; got != num("66.15") {
		t.Fatalf("pnd before %v, want 66.15", got)
	}

	// Only the keys sent change; banks and items stay.
	got := call(t, h, "PUT", base+"/compositions/"+cid, u.Token,
		`{"id":"`+cid+`","company_id":"x","description":"Alvenaria nova","rounding_type":1,"labor":true}`, 200)
	want := map[string]any{}
	for k, v := range before {
		want[k] = v
	}
	want["description"] = "Alvenaria nova"
	want["labor"] = true
	want["calculation_method"] = map[string]any{"type": num("1"), "description": "Arredondar com 2 casas decimais"}
	want["prices"] = map[string]any{"pnd": num("66.16"), "pd": num("62.98")}
	items := before["items"].([]any)
	newItems := make([]any, len(items))
	for i, it := range items {
		m := map[string]any{}
		for k, v := range it.(map[string]any) {
			m[k] = v
		}
		newItems[i] = m
	}
	newItems[2].(map[string]any)["pnd"] = num("12.49")
	newItems[2].(map[string]any)["pd"] = num("12.32")
	newItems[0].(map[string]any)["pd"] = num("15.34")
	newItems[1].(map[string]any)["pd"] = num("35.32")
	want["items"] = newItems
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("update (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(got, call(t, h, "GET", base+"/compositions/"+cid, u.Token, "", 200)); diff != "" {
		t.Errorf("GET after update (-want +got):\n%s", diff)
	}

	// Moving to another state and code.
	got = call(t, h, "PUT", base+"/compositions/"+cid, u.Token, `{"code":"ALV-02","local":"SP","second_code":"x"}`, 200)
	if got["code"] != "ALV-02" || got["state"] != "SP" || got["second_code"] != "x" || got["description"] != "Alvenaria nova" {
		t.Errorf("update of code and state: %v", got)
	}
}

func TestCompositionRemoveItems(t *testing.T) {
	h, u := setup(t)
	createResource(t, h, u.Token, "R-1")
	sub := id(t, createComposition(t, h, u.Token, "SUB"))
	call(t, h, "POST", base+"/compositions/"+sub+"/add-items", u.Token, `{"items":[{"bank":"MYBASE","code":"R-1","qty":1}]}`, 200)

	cid := id(t, createComposition(t, h, u.Token, "MAIN"))
	attachSinapi(t, h, u.Token, cid)
	got := call(t, h, "POST", base+"/compositions/"+cid+"/add-items", u.Token,
		`{"items":[{"bank":"SINAPI","code":"88309","qty":1},{"bank":"MYBASE","code":"SUB","qty":2},{"bank":"MYBASE","code":"R-1","qty":3},{"bank":"SINAPI","code":"34586","qty":10}]}`, 200)
	// 33.62 + 2 × 10.50 + 3 × 10.50 + 10 × 2.62 = 112.32;
	// 31.67 + 2 × 10.25 + 3 × 10.25 + 10 × 2.62 = 109.12.
	if diff := cmp.Diff(map[string]any{"pnd": num("112.32"), "pd": num("109.12")}, got["prices"]); diff != "" {
		t.Errorf("prices (-want +got):\n%s", diff)
	}
	var kinds []bool
	for _, it := range got["items"].([]any) {
		kinds = append(kinds, it.(map[string]any)["is_resource"].(bool))
	}
	if diff := cmp.Diff([]bool{false, false, true, true}, kinds); diff != "" {
		t.Errorf("is_resource (-want +got):\n%s", diff)
	}
	if banco := got["items"].([]any)[1].(map[string]any)["banco"]; banco != "MYBASE" {
		t.Errorf("own item banco %v, want MYBASE", banco)
	}

	got = call(t, h, "DELETE", base+"/compositions/"+cid+"/remove-items", u.Token,
		`{"compositions":[{"code":"SUB"},{"code":"88309"}],"resources":[{"code":"34586"}]}`, 200)
	items := got["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["code"] != "R-1" {
		t.Errorf("items after remove: %v", items)
	}
	if diff := cmp.Diff(map[string]any{"pnd": num("31.5"), "pd": num("30.75")}, got["prices"]); diff != "" {
		t.Errorf("prices after remove (-want +got):\n%s", diff)
	}
}

func TestCompositionDelete(t *testing.T) {
	h, u := setup(t)
	sub := id(t, createComposition(t, h, u.Token, "SUB"))
	main := id(t, createComposition(t, h, u.Token, "MAIN"))
	call(t, h, "POST", base+"/compositions/"+main+"/add-items", u.Token, `{"items":[{"bank":"MYBASE","code":"SUB","qty":1}]}`, 200)

	checkError(t, call(t, h, "DELETE", base+"/compositions/"+sub, u.Token, "", 409))
	call(t, h, "GET", base+"/compositions/"+sub, u.Token, "", 200)

	for _, cid := range []string{main, sub} {
		if diff := cmp.Diff(map[string]any{"message": "deleted"}, call(t, h, "DELETE", base+"/compositions/"+cid, u.Token, "", 200)); diff != "" {
			t.Errorf("delete (-want +got):\n%s", diff)
		}
		checkError(t, call(t, h, "GET", base+"/compositions/"+cid, u.Token, "", 404))
	}
}

// TestAddItemsAtomic checks that a request that fails changes nothing.
func TestAddItemsAtomic(t *testing.T) {
	h, u := setup(t)
	cid := id(t, createComposition(t, h, u.Token, "ALV-01"))
	attachSinapi(t, h, u.Token, cid)
	call(t, h, "POST", base+"/compositions/"+cid+"/add-items", u.Token, `{"items":[{"bank":"SINAPI","code":"88309","qty":1}]}`, 200)
	before := call(t, h, "GET", base+"/compositions/"+cid, u.Token, "", 200)

	failing := []struct {
		name, path, body string
		status           int
		fields           []string
	}{
		{"one good, one unknown code", "/add-items", `{"items":[{"bank":"SINAPI","code":"88316","qty":1},{"bank":"SINAPI","code":"0000000","qty":1}]}`, 422, []string{"items[1].code"}},
		{"changing a quantity, then an unknown bank", "/add-items", `{"items":[{"bank":"SINAPI","code":"88309","qty":9},{"bank":"ORSE","code":"1","qty":1}]}`, 422, []string{"items[1].bank"}},
		{"one good, one wrong type", "/add-items", `{"items":[{"bank":"SINAPI","code":"88316","qty":1},{"bank":"SINAPI","code":"88309","qty":"abc"}]}`, 422, []string{"items[1].qty"}},
		{"one known edition, one not imported", "/add-bases", `{"bases":[{"name":"SICRO3","local":"AL","version":"01/2024"},{"name":"ORSE","local":"SE","version":"01/2024"}]}`, 422, []string{"bases[1]"}},
		{"one present, one absent", "/remove-items", `{"compositions":[{"code":"88309"}],"resources":[{"code":"88309"}]}`, 422, []string{"resources[0].code"}},
	}
	for _, tt := range failing {
		t.Run(tt.name, func(t *testing.T) {
			method := "POST"
			if tt.path == "/remove-items" {
				method = "DELETE"
			}
			checkError(t, call(t, h, method, base+"/compositions/"+cid+tt.path, u.Token, tt.body, tt.status), tt.fields...)
			if diff := cmp.Diff(before, call(t, h, "GET", base+"/compositions/"+cid, u.Token, "", 200)); diff != "" {
				t.Errorf("a failed request changed the composition (-before +after):\n%s", diff)
			}
		})
	}
}

func TestCompositionErrors(t *testing.T) {
	h, u := setup(t)
	other := h.AddUser("Construtora Beta", "bia@beta.example")
	cid := id(t, createComposition(t, h, u.Token, "ALV-01"))
	attachSinapi(t, h, u.Token, cid)
	c := base + "/compositions"
	valid := `"description":"Alvenaria","type":"PARE","unit":"M2","local":"MG"`

	tests := []struct {
		name, method, path, token, body string
		status                          int
		fields                          []string
	}{
		{"create malformed", "POST", c, u.Token, `{"code":`, 400, nil},
		{"create type not a string", "POST", c, u.Token, `{"code":"X",` + valid + `,"type":5}`, 400, []string{"type"}},
		{"create is_sicro not a boolean", "POST", c, u.Token, `{"code":"X",` + valid + `,"is_sicro":"no"}`, 400, []string{"is_sicro"}},
		{"create team_production as text with a comma", "POST", c, u.Token, `{"code":"X",` + valid + `,"team_production":"2,5"}`, 422, []string{"team_production"}},
		{"create unknown class", "POST", c, u.Token, `{"code":"X",` + valid + `,"type":"XXXX"}`, 422, []string{"type"}},
		{"create without state", "POST", c, u.Token, `{"code":"X",` + valid + `,"local":""}`, 422, []string{"local"}},
		{"create without code and description", "POST", c, u.Token, `{"type":"PARE","unit":"M2","local":"MG"}`, 422, []string{"code", "description"}},
		{"create duplicate code in the state", "POST", c, u.Token, `{"code":"ALV-01",` + valid + `}`, 422, []string{"code"}},
		{"create bad rounding_type", "POST", c, u.Token, `{"code":"X",` + valid + `,"rounding_type":9}`, 422, []string{"rounding_type"}},
		{"create SICRO with a negative team production", "POST", c, u.Token, `{"code":"X",` + valid + `,"is_sicro":true,"team_production":-1}`, 422, []string{"team_production"}},
		{"create too large", "POST", c, u.Token, bigBody(), 413, nil},
		{"update id differs", "PUT", c + "/" + cid, u.Token, `{"id":"x"}`, 422, []string{"id"}},
		{"update bad state", "PUT", c + "/" + cid, u.Token, `{"local":"ZZ"}`, 422, []string{"local"}},
		{"update wrong type", "PUT", c + "/" + cid, u.Token, `{"rounding_type":true}`, 422, []string{"rounding_type"}},
		{"update rounding_type with a fraction", "PUT", c + "/" + cid, u.Token, `{"rounding_type":"1.5"}`, 422, []string{"rounding_type"}},
		{"find_by_code without code", "GET", c + "/find_by_code", u.Token, "", 422, []string{"code"}},
		{"find_by_code in another state", "GET", c + "/find_by_code?code=ALV-01&state=SP", u.Token, "", 404, nil},
		{"find_by_code other company's", "GET", c + "/find_by_code?code=ALV-01&state=MG", other.Token, "", 404, nil},
		{"add-items without items", "POST", c + "/" + cid + "/add-items", u.Token, `{}`, 422, []string{"items"}},
		{"add-items empty", "POST", c + "/" + cid + "/add-items", u.Token, `{"items":[]}`, 422, []string{"items"}},
		{"add-items items not an array", "POST", c + "/" + cid + "/add-items", u.Token, `{"items":{}}`, 400, []string{"items"}},
		{"add-items qty not a number", "POST", c + "/" + cid + "/add-items", u.Token, `{"items":[{"bank":"SINAPI","code":"88309","qty":"abc"}]}`, 422, []string{"items[0].qty"}},
		{"add-items code not a string", "POST", c + "/" + cid + "/add-items", u.Token, `{"items":[{"bank":"SINAPI","code":88309,"qty":1}]}`, 400, []string{"items[0].code"}},
		{"add-items zero qty", "POST", c + "/" + cid + "/add-items", u.Token, `{"items":[{"bank":"SINAPI","code":"88309","qty":0}]}`, 422, []string{"items[0].qty"}},
		{"add-items too many decimals", "POST", c + "/" + cid + "/add-items", u.Token, `{"items":[{"bank":"SINAPI","code":"88309","qty":0.00000001}]}`, 422, []string{"items[0].qty"}},
		{"add-items no bank", "POST", c + "/" + cid + "/add-items", u.Token, `{"items":[{"code":"88309","qty":1}]}`, 422, []string{"items[0].bank"}},
		{"add-items unknown own code", "POST", c + "/" + cid + "/add-items", u.Token, `{"items":[{"bank":"MYBASE","code":"NOPE","qty":1}]}`, 422, []string{"items[0].code"}},
		{"add-items itself", "POST", c + "/" + cid + "/add-items", u.Token, `{"items":[{"bank":"MYBASE","code":"ALV-01","qty":1}]}`, 409, nil},
		{"add-items too large", "POST", c + "/" + cid + "/add-items", u.Token, bigBody(), 413, nil},
		{"add-bases without bases", "POST", c + "/" + cid + "/add-bases", u.Token, `{}`, 422, []string{"bases"}},
		{"add-bases bad fields", "POST", c + "/" + cid + "/add-bases", u.Token, `{"bases":[{"name":"","local":"XX","version":"2026-08"}]}`, 422, []string{"bases[0].name", "bases[0].local", "bases[0].version"}},
		{"add-bases edition not imported", "POST", c + "/" + cid + "/add-bases", u.Token, `{"bases":[{"name":"SINAPI","local":"MG","version":"07/2026"}]}`, 422, []string{"bases[0]"}},
		{"add-bases status not a boolean", "POST", c + "/" + cid + "/add-bases", u.Token, `{"bases":[{"name":"SINAPI","local":"MG","version":"08/2026","status":"sim"}]}`, 400, []string{"bases[0].status"}},
		{"remove-items nothing named", "DELETE", c + "/" + cid + "/remove-items", u.Token, `{}`, 422, []string{"compositions", "resources"}},
		{"remove-items not an item", "DELETE", c + "/" + cid + "/remove-items", u.Token, `{"compositions":[{"code":"88309"}]}`, 422, []string{"compositions[0].code"}},
		{"remove-items malformed", "DELETE", c + "/" + cid + "/remove-items", u.Token, `{"compositions":`, 400, nil},
		{"get missing", "GET", c + "/nope", u.Token, "", 404, nil},
		{"get other company's", "GET", c + "/" + cid, other.Token, "", 404, nil},
		{"update other company's", "PUT", c + "/" + cid, other.Token, `{"description":"x"}`, 404, nil},
		{"delete other company's", "DELETE", c + "/" + cid, other.Token, "", 404, nil},
		{"add-items other company's", "POST", c + "/" + cid + "/add-items", other.Token, `{"items":[{"bank":"SINAPI","code":"88309","qty":1}]}`, 404, nil},
		{"add-bases other company's", "POST", c + "/" + cid + "/add-bases", other.Token, `{"bases":[{"name":"SINAPI","local":"MG","version":"08/2026"}]}`, 404, nil},
		{"remove-items other company's", "DELETE", c + "/" + cid + "/remove-items", other.Token, `{"compositions":[{"code":"88309"}]}`, 404, nil},
		{"add-items missing composition", "POST", c + "/nope/add-items", u.Token, `{"items":[{"bank":"SINAPI","code":"88309","qty":1}]}`, 404, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkError(t, call(t, h, tt.method, tt.path, tt.token, tt.body, tt.status), tt.fields...)
		})
	}
}
