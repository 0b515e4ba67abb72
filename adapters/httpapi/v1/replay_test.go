package v1_test

// A replay, request for request, of what a real open-source v1 client sends
// (a bid-management application that registers a tender's own compositions
// in the company's base): the same paths, headers and body shapes, in the
// same order, and each answer checked for the fields that client reads.
//
// The subtests whose names start with "quoted numbers:" send numbers as JSON
// strings, as that client does for the SICRO-model fields; they pass once v1
// decodes numeric text (issue 16, first bullet).

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// replayClient sends requests as the client does: the token both as a
// Bearer token and in an auth-token header, Accept and a User-Agent, and
// Content-Type only with a body. Paths are relative to /api/v1.
type replayClient struct {
	h     *apitest.Harness
	token string
}

func (c *replayClient) do(t *testing.T, method, path string, body any) (int, any) {
	t.Helper()
	var text string
	if body != nil {
		text = jsonBody(t, body)
	}
	headers := []string{"Accept", "application/json", "User-Agent", "replay-client/0.1 (Edge Function)"}
	if c.token != "" {
		headers = append(headers, "Authorization", "Bearer "+c.token, "auth-token", c.token)
	}
	r := c.h.Do(method, "/api/v1"+path, "", text, headers...)
	if len(strings.TrimSpace(string(r.Body))) == 0 {
		return r.Status, nil
	}
	return r.Status, decode(t, r.Body)
}

// ok sends a request that must succeed (the client throws on anything but
// 2xx) and returns the answer as an object.
func (c *replayClient) ok(t *testing.T, method, path string, body any) map[string]any {
	t.Helper()
	status, v := c.do(t, method, path, body)
	m, isObj := v.(map[string]any)
	if status < 200 || status >= 300 || !isObj {
		t.Fatalf("%s %s: status %d, want 2xx with an object\n%v", method, path, status, v)
	}
	return m
}

// pick returns the first of the values that is a non-empty string, as the
// client picks among the names a field might have.
func pick(vals ...any) string {
	for _, v := range vals {
		if s, ok := v.(string); ok && s != "" {
			return s
		}
	}
	return ""
}

func field(m any, key string) any {
	if o, ok := m.(map[string]any); ok {
		return o[key]
	}
	return nil
}

// findInPages pages a list as the client does (page by page, 10 a
// page, stopping when records run out or page*10 >= total) looking for a
// record whose key equals want.
func findInPages(t *testing.T, c *replayClient, path, key, want string) map[string]any {
	t.Helper()
	for page := 1; page <= 10; page++ {
		r := c.ok(t, "GET", path+"?page="+strconv.Itoa(page), nil)
		records, ok := r["records"].([]any)
		total, isNum := r["total"].(json.Number)
		if !ok || !isNum {
			t.Fatalf("%s: the client reads total (a number) and records (a list): %v", path, r)
		}
		for _, rec := range records {
			if field(rec, key) == want {
				return rec.(map[string]any)
			}
		}
		n, _ := total.Int64()
		if len(records) == 0 || int64(page*10) >= n {
			return nil
		}
	}
	return nil
}

func TestReplayRealV1Client(t *testing.T) {
	h, u := setup(t)
	importCompatEditions(t, h)
	c := &replayClient{h: h}
	const uf = "PI"
	var (
		groupID, resourceID, resourceCode, sinapiID, sicroID, budgetID string
	)

	t.Run("login", func(t *testing.T) {
		r := c.ok(t, "POST", "/login/authenticate_user", map[string]any{"email": u.Email, "secret_token": u.Secret})
		token := pick(r["auth_token"], r["token"])
		userID := pick(field(r["user"], "_id"), field(r["user"], "id"), r["user_id"])
		companyID := pick(field(r["company"], "_id"), field(r["company"], "id"), r["company_id"])
		departmentID := pick(field(r["department"], "_id"), field(r["department"], "id"), r["department_id"])
		email := pick(field(r["user"], "email"), r["email"])
		companyName, _ := field(r["company"], "name").(string)
		got := []string{userID, companyID, departmentID, email, companyName}
		want := []string{u.UserID, u.CompanyID, u.DepartmentID, u.Email, "Construtora Alfa"}
		if diff := cmp.Diff(want, got); diff != "" || token == "" {
			t.Fatalf("login as the client reads it (-want +got):\n%s\ntoken %q", diff, token)
		}
		c.token = token
	})

	t.Run("groups: find by description, then create", func(t *testing.T) {
		const desc = "Licitação 0042/2026 - Prefeitura de Pavussu"
		if g := findInPages(t, c, "/base/mybase/groups", "description", desc); g != nil {
			t.Fatalf("group found before it was made: %v", g)
		}
		created := c.ok(t, "POST", "/base/mybase/groups", map[string]any{"description": desc})
		groupID = pick(created["id"])
		found := findInPages(t, c, "/base/mybase/groups", "description", desc)
		if groupID == "" || found == nil || found["id"] != groupID {
			t.Fatalf("created %v, found %v", created, found)
		}
		if got := c.ok(t, "GET", "/base/mybase/groups/"+groupID, nil); got["description"] != desc {
			t.Errorf("getGroup: %v", got)
		}
	})

	t.Run("resources: create with flat prices and locals", func(t *testing.T) {
		resourceCode = "AUX_3fa85f64_07"
		if r := findInPages(t, c, "/base/mybase/resources", "code", resourceCode); r != nil {
			t.Fatalf("resource found before it was made: %v", r)
		}
		created := c.ok(t, "POST", "/base/mybase/resources", map[string]any{
			"group_id": groupID, "code": resourceCode, "second_code": "", "description": "PARALELEPIPEDO + FRETE",
			"type": 7, "unit": "m2", "local": uf,
			"locals": map[string]any{uf: map[string]any{"pnd": 48.9, "pd": 48.9, "pndi": 48.9, "pdi": 48.9}},
			"pnd":    48.9, "pd": 48.9, "pndi": 48.9, "pdi": 48.9,
			"status": true, "note": `Auxiliar do edital 0042/2026. Código original "07".`,
		})
		resourceID = pick(created["id"])
		if created["code"] != resourceCode || resourceID == "" {
			t.Fatalf("createResource: %v", created)
		}
		// The client pages the list and reads locals[UF].pnd to spot a
		// resource stored at zero.
		found := findInPages(t, c, "/base/mybase/resources", "code", resourceCode)
		pnd := field(field(field(found, "locals"), uf), "pnd")
		if pnd != json.Number("48.9") || found["group_id"] != groupID {
			t.Errorf("listed resource: locals[%s].pnd = %v, group_id %v: %v", uf, pnd, found["group_id"], found)
		}
	})

	t.Run("resources: reference find_by_code", func(t *testing.T) {
		r := c.ok(t, "GET", "/resources/find_by_code?code=88316", nil)
		if r["code"] != "88316" || r["bank"] != "SINAPI" || field(field(r["locals"], uf), "pnd") != json.Number("20") {
			t.Errorf("findResourceByCode: %v", r)
		}
		if status, _ := c.do(t, "GET", "/resources/find_by_code?code=E9999999", nil); status != 404 {
			t.Errorf("an unknown code: status %d, want 404 (the client reads it as not found)", status)
		}
	})

	const compCode = "3FA85F_COMPOSICAO_04"
	t.Run("compositions: find_by_code without state, absent", func(t *testing.T) {
		if status, v := c.do(t, "GET", "/base/mybase/compositions/find_by_code?code="+compCode, nil); status != 404 {
			t.Fatalf("status %d, want 404: %v", status, v)
		}
	})

	t.Run("compositions: create SINAPI model", func(t *testing.T) {
		created := c.ok(t, "POST", "/base/mybase/compositions", map[string]any{
			"code": compCode, "second_code": "LICITACAO_3fa85f64_2_2_1", "description": "PAVIMENTAÇÃO EM PARALELEPÍPEDO",
			"labor": false, "type": "PARE", "unit": "m2", "local": uf, "is_sicro": false,
			"note": "Composição extraída do edital. Item 2.2.1.", "rounding_type": 2,
		})
		sinapiID = pick(created["id"])
		items, ok := created["items"].([]any)
		if sinapiID == "" || !ok || len(items) != 0 {
			t.Fatalf("createComposition: id and an empty items list: %v", created)
		}
	})

	t.Run("compositions: find_by_code without state, present", func(t *testing.T) {
		found := c.ok(t, "GET", "/base/mybase/compositions/find_by_code?code="+compCode, nil)
		if found["id"] != sinapiID || found["state"] != uf {
			t.Errorf("findCompositionByCode: %v", found)
		}
		if _, ok := found["items"].([]any); !ok {
			t.Errorf("the client reads items as a list: %v", found["items"])
		}
	})

	bases := []map[string]any{
		{"name": "SINAPI", "local": uf, "version": "02/2026", "status": true, "region": "TERESINA", "with_labor_charges": true},
	}
	t.Run("compositions: add-bases with region", func(t *testing.T) {
		r := c.ok(t, "POST", "/base/mybase/compositions/"+sinapiID+"/add-bases", map[string]any{"bases": bases})
		want := map[string]any{"data": "02/2026", "estado": uf, "regiao": "TERESINA", "relatorio": true, "with_labor_charges": true}
		if diff := cmp.Diff(want, field(r["banks"], "SINAPI")); diff != "" {
			t.Errorf("banks.SINAPI (-want +got):\n%s", diff)
		}
		// The older spelling, and a retry, answer the same.
		again := c.ok(t, "POST", "/base/mybase/compositions/"+sinapiID+"/add_bases", map[string]any{"bases": bases})
		if diff := cmp.Diff(r["banks"], again["banks"]); diff != "" {
			t.Errorf("add_bases retry (-first +again):\n%s", diff)
		}
	})

	items := []map[string]any{
		{"bank": "SINAPI", "code": "88316", "qty": 0.5, "type": "resource"},
		{"bank": "SINAPI", "code": "9999", "qty": 2, "type": "resource"},
		{"bank": "SINAPI", "code": "87292", "qty": 0.02, "type": "composition"},
	}
	type line struct {
		Code        string
		IsResource  bool
		Coefficient json.Number
	}
	wantLines := []line{{"88316", true, "0.5"}, {"9999", true, "2"}, {"87292", false, "0.02"}}
	linesOf := func(m map[string]any) []line {
		var out []line
		for _, it := range m["items"].([]any) {
			o := it.(map[string]any)
			out = append(out, line{o["code"].(string), o["is_resource"].(bool), o["coefficient"].(json.Number)})
		}
		return out
	}
	t.Run("compositions: add-items with type", func(t *testing.T) {
		r := c.ok(t, "POST", "/base/mybase/compositions/"+sinapiID+"/add-items", map[string]any{"items": items})
		if diff := cmp.Diff(wantLines, linesOf(r)); diff != "" {
			t.Errorf("items (-want +got):\n%s", diff)
		}
		// After a failed batch the client retries item by item: the same
		// composition, no line twice.
		for _, it := range items {
			c.ok(t, "POST", "/base/mybase/compositions/"+sinapiID+"/add-items", map[string]any{"items": []any{it}})
		}
		// The older shape of the same client: is_resource instead of type.
		old := c.ok(t, "POST", "/base/mybase/compositions/"+sinapiID+"/add-items", map[string]any{"items": []any{
			map[string]any{"bank": "SINAPI", "code": "9999", "qty": 2, "is_resource": true},
		}})
		if diff := cmp.Diff(wantLines, linesOf(old)); diff != "" {
			t.Errorf("items after the retries (-want +got):\n%s", diff)
		}
	})

	t.Run("compositions: remove-items", func(t *testing.T) {
		r := c.ok(t, "DELETE", "/base/mybase/compositions/"+sinapiID+"/remove-items", map[string]any{
			"compositions": []any{map[string]any{"code": "87292"}},
		})
		if diff := cmp.Diff(wantLines[:2], linesOf(r)); diff != "" {
			t.Errorf("items left (-want +got):\n%s", diff)
		}
		// 88316: 0.5 × 20.00 = 10.00; 9999: 2 × 5.00 = 10.00.
		if p := field(r["prices"], "pnd"); p != json.Number("20") {
			t.Errorf("prices.pnd = %v, want 20", p)
		}
	})

	t.Run("compositions: list and get", func(t *testing.T) {
		found := findInPages(t, c, "/base/mybase/compositions", "code", compCode)
		if found == nil || found["id"] != sinapiID {
			t.Fatalf("listCompositions: %v", found)
		}
		if got := c.ok(t, "GET", "/base/mybase/compositions/"+sinapiID, nil); got["code"] != compCode || len(got["items"].([]any)) != 2 {
			t.Errorf("getComposition: %v", got)
		}
	})

	// The SICRO-model create as the client builds it: team_production, fic
	// and adc_labor as JSON strings, no rounding_type.
	sicroBody := func(code, teamProduction string) map[string]any {
		return map[string]any{
			"code": code, "second_code": "", "description": "ESCAVAÇÃO MECÂNICA", "labor": false, "type": "MOVT",
			"unit": "m3", "local": "AL", "is_sicro": true, "note": "",
			"team_production": teamProduction, "fic": "0.0123", "adc_labor": "0",
		}
	}
	t.Run("quoted numbers: compositions: create SICRO model", func(t *testing.T) {
		status, v := c.do(t, "POST", "/base/mybase/compositions", sicroBody("3FA85F_SICRO_01", "1.5"))
		m, _ := v.(map[string]any)
		if status != 201 {
			t.Fatalf("createComposition SICRO: status %d, want 201: %v", status, v)
		}
		sicroID = pick(m["id"])
		if sicroID == "" || m["is_sicro"] != true || m["team_production"] != json.Number("1.5") || m["fic"] != json.Number("0.0123") {
			t.Errorf("SICRO composition: %v", m)
		}
	})
	t.Run("quoted numbers: SICRO defaults team_production \"0\", fic \"0\"", func(t *testing.T) {
		// The client's defaults when its caller gives no SICRO figures:
		// accepted, and shown without a unit cost (null, never 0) until
		// the team production is set, the missing list naming the field.
		body := sicroBody("3FA85F_SICRO_02", "0")
		body["fic"] = "0"
		status, v := c.do(t, "POST", "/base/mybase/compositions", body)
		m, _ := v.(map[string]any)
		if status != 201 {
			t.Fatalf("status %d, want 201: %v", status, v)
		}
		id := pick(m["id"])
		unpriced := func(m map[string]any) {
			t.Helper()
			prices, _ := m["prices"].(map[string]any)
			missing, _ := m["missing"].([]any)
			if prices == nil || prices["pnd"] != nil || prices["pd"] != nil || m["incomplete"] != true || len(missing) != 1 ||
				field(missing[0], "field") != "team_production" || field(missing[0], "code") != "3FA85F_SICRO_02" {
				t.Errorf("want pnd and pd null, incomplete, missing naming team_production: %v", m)
			}
		}
		if id == "" || m["team_production"] != json.Number("0") || m["fic"] != json.Number("0") {
			t.Errorf("SICRO composition with the defaults: %v", m)
		}
		unpriced(m)
		unpriced(c.ok(t, "GET", "/base/mybase/compositions/"+id, nil))
		// Set, the composition has its unit cost: no items, so 0, complete.
		set := c.ok(t, "PUT", "/base/mybase/compositions/"+id, map[string]any{"team_production": "2"})
		if set["incomplete"] != nil || set["missing"] != nil || field(set["prices"], "pnd") != json.Number("0") {
			t.Errorf("after setting team_production: %v", set)
		}
	})
	t.Run("quoted numbers: add-items qty as text", func(t *testing.T) {
		// On a composition of its own, so that the steps after this one do
		// not depend on it.
		created := c.ok(t, "POST", "/base/mybase/compositions", map[string]any{
			"code": "3FA85F_COMPOSICAO_05", "second_code": "", "description": "MEIO-FIO", "labor": false, "type": "PARE",
			"unit": "m", "local": uf, "is_sicro": false, "note": "", "rounding_type": 2,
		})
		own := pick(created["id"])
		c.ok(t, "POST", "/base/mybase/compositions/"+own+"/add-bases", map[string]any{"bases": bases})
		c.ok(t, "POST", "/base/mybase/compositions/"+own+"/add-items", map[string]any{"items": items[:2]})
		status, v := c.do(t, "POST", "/base/mybase/compositions/"+own+"/add-items", map[string]any{"items": []any{
			map[string]any{"bank": "SINAPI", "code": "87292", "qty": "2.5", "type": "composition"},
		}})
		if status != 200 {
			t.Fatalf("status %d, want 200: %v", status, v)
		}
		lines := linesOf(v.(map[string]any))
		if len(lines) != 3 || lines[2] != (line{"87292", false, "2.5"}) {
			t.Errorf("items: %v", lines)
		}
		status, v = c.do(t, "POST", "/base/mybase/compositions/"+own+"/add-items", map[string]any{"items": []any{
			map[string]any{"bank": "SINAPI", "code": "87292", "qty": "2,5", "type": "composition"},
		}})
		if status != 422 {
			t.Fatalf("qty \"2,5\": status %d, want 422: %v", status, v)
		}
		checkError(t, v.(map[string]any), "items[0].qty")
	})

	// Budgets are authored elsewhere (v1 has no budget creation, as the
	// origin's public API): made through v2, then read as the client would.
	t.Run("budgets list", func(t *testing.T) {
		r := h.Do("POST", "/api/public/v2/budgets", c.token, `{"code":"ORC-0042","description":"Pavimentação - Pavussu","client":"Prefeitura de Pavussu","location":"PI","bdi":20,
		  "banks":[{"name":"SINAPI","location":"PI","version":"02/2026"}],
		  "items":[{"kind":"stage","description":"Pavimentação","items":[
		    {"kind":"composition","bank":"MYBASE","code":"`+compCode+`","quantity":1077}]}]}`)
		if r.Status != 201 {
			t.Fatalf("creating the budget: %d\n%s", r.Status, r.Body)
		}
		budgetID = object(t, r.Body)["data"].(map[string]any)["id"].(string)
		list := c.ok(t, "GET", "/bud/budgets/list", nil)
		budgets, _ := list["budgets"].([]any)
		if len(budgets) != 1 || list["total"] != json.Number("1") {
			t.Fatalf("budgets list: %v", list)
		}
		b := budgets[0].(map[string]any)
		// 1077 × 20.00 = 21540.00; with 20% BDI 25848.00.
		if b["id"] != budgetID || b["code"] != "ORC-0042" || b["state"] != uf || b["total"] != "21540.00" || b["total_with_bdi"] != "25848.00" {
			t.Errorf("budget: %v", b)
		}
	})

	t.Run("synthetic report", func(t *testing.T) {
		status, v := c.do(t, "GET", "/bud/budgets/"+budgetID+"/synthetic", nil)
		rows, ok := v.([]any)
		if status != 200 || !ok || len(rows) != 3 {
			t.Fatalf("status %d, want 200 with stage, line and total: %v", status, v)
		}
		l := rows[1].(map[string]any)
		if l["code"] != compCode || l["base"] != "MYBASE" || l["kind"] != "composition" || l["total_price"] != "21540.00" || l["total_price_plus_bdi"] != "25848.00" {
			t.Errorf("line: %v", l)
		}
	})

	t.Run("analytic report", func(t *testing.T) {
		status, v := c.do(t, "GET", "/bud/budgets/"+budgetID+"/analytical_with_unit_price", nil)
		rows, ok := v.([]any)
		if status != 200 || !ok || len(rows) != 3 {
			t.Fatalf("status %d, want 200 with stage, line and total: %v", status, v)
		}
		var codes []string
		for _, it := range rows[1].(map[string]any)["items"].([]any) {
			codes = append(codes, it.(map[string]any)["code"].(string))
		}
		if diff := cmp.Diff([]string{"88316", "9999"}, codes); diff != "" {
			t.Errorf("the composition's items (-want +got):\n%s", diff)
		}
	})

	t.Run("resources: delete", func(t *testing.T) {
		if r := c.ok(t, "DELETE", "/base/mybase/resources/"+resourceID, nil); r["message"] != "deleted" {
			t.Errorf("deleteResource: %v", r)
		}
		if r := findInPages(t, c, "/base/mybase/resources", "code", resourceCode); r != nil {
			t.Errorf("the resource is still listed: %v", r)
		}
	})
}
