package v2_test

import (
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// TestRoundTrip sends back, for each v2 record type, the document a GET
// answered, as a PATCH: every name the read returns is accepted (the
// composition's type and composition_type, calculation_method, the
// relationships with their links, read-only attributes) and the record
// reads the same afterwards. Only a budget's updated_at moves: the PATCH
// is a write.
func TestRoundTrip(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	gid := str(data(t, create(t, h, groups, u.Token, `{"description":"Alvenarias"}`))["id"])
	rid := str(data(t, create(t, h, resources, u.Token, `{"code":"001","secondary_code":"B-1","description":"Bloco","unit":"UN","type":4,
		"status":true,"note":"n","group_id":"`+gid+`","locals":{"MG":{"pnd":2.005,"pd":1.999,"pndi":0.5,"pdi":0.25},"SP":{"pnd":3,"pd":2.9}}}`))["id"])
	cid := str(data(t, create(t, h, compositions, u.Token, `{"code":"ALV-1","secondary_code":"A1","description":"Alvenaria","unit":"M2",
		"type":"PARE","location":"MG","labor":true,"rounding_type":1,"note":"obra","group_id":"`+gid+`"}`))["id"])
	expect(t, h.Do("POST", compositions+"/"+cid+"/add_banks", u.Token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`), 200)
	expect(t, h.Do("POST", compositions+"/"+cid+"/add_items", u.Token,
		`{"items":[{"bank":"SINAPI","code":"89306","quantity":1.5},{"code":"001","quantity":3,"resource":true}]}`), 200)
	sicro := str(data(t, create(t, h, compositions, u.Token, `{"code":"TER-1","description":"Escavação","unit":"M3",
		"type":"MOVT","location":"MG","is_sicro":true,"team_production":12.5,"fic":0.01,"labor_addition":15.5}`))["id"])
	bid := str(data(t, create(t, h, budgets, u.Token, sampleBudgetBody))["id"])

	for _, path := range []string{
		groups + "/" + gid,
		resources + "/" + rid,
		compositions + "/" + cid,
		compositions + "/" + sicro,
		budgets + "/" + bid,
	} {
		t.Run(path, func(t *testing.T) {
			before := expect(t, h.Do("GET", path, u.Token, ""), 200)
			answer := expect(t, h.Do("PATCH", path, u.Token, string(mustJSON(t, before)), "Content-Type", jsonapiType), 200)
			after := expect(t, h.Do("GET", path, u.Token, ""), 200)
			for _, doc := range []obj{before, answer, after} {
				delete(attrs(t, doc), "updated_at")
			}
			if diff := cmp.Diff(before, answer); diff != "" {
				t.Errorf("PATCH answer differs from the GET sent (-GET +PATCH):\n%s", diff)
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("GET after PATCH differs (-before +after):\n%s", diff)
			}
			// The same attributes as plain JSON, as the seed sends them.
			plain := obj{}
			for k, v := range attrs(t, before) {
				plain[k] = v
			}
			expect(t, h.Do("PATCH", path, u.Token, string(mustJSON(t, plain))), 200)
			again := expect(t, h.Do("GET", path, u.Token, ""), 200)
			delete(attrs(t, again), "updated_at")
			if diff := cmp.Diff(before, again); diff != "" {
				t.Errorf("GET after a plain PATCH differs (-before +after):\n%s", diff)
			}
		})
	}
}

// TestCompositionAliases writes the class and the calculation method under
// each of their names: the names v2 reads back are writable, both names
// together are fine when they agree and 422 naming both when not.
func TestCompositionAliases(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	id := sinapiComposition(t, h, u.Token, "ALV-1")
	path := compositions + "/" + id

	tests := []struct {
		name, body string
		class      string
		method     string
	}{
		{"type", `{"type":"PISO"}`, "PISO", "2"},
		{"composition_type", `{"composition_type":"REVE"}`, "REVE", "2"},
		{"both class names agreeing", `{"data":{"type":"compositions","attributes":{"type":"PARE","composition_type":"PARE"}}}`, "PARE", "2"},
		{"calculation_method as its type", `{"calculation_method":1}`, "PARE", "1"},
		{"calculation_method as read", `{"calculation_method":{"type":3,"description":"Truncar com 4 casas decimais"}}`, "PARE", "3"},
		{"calculation_method without description", `{"data":{"type":"compositions","attributes":{"calculation_method":{"type":4}}}}`, "PARE", "4"},
		{"rounding_type", `{"rounding_type":2}`, "PARE", "2"},
		{"both method names agreeing", `{"rounding_type":1,"calculation_method":{"type":1,"description":"Arredondar com 2 casas decimais"}}`, "PARE", "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := attrs(t, expect(t, h.Do("PATCH", path, u.Token, tt.body), 200))
			got := []string{str(a["type"]), str(a["composition_type"]), num(t, a["calculation_method"].(obj)["type"])}
			if diff := cmp.Diff([]string{tt.class, tt.class, tt.method}, got); diff != "" {
				t.Errorf("type, composition_type, calculation_method.type (-want +got):\n%s", diff)
			}
		})
	}

	bad := []struct {
		name, body string
		status     int
		want       []apiError
	}{
		{"class names disagreeing", `{"data":{"type":"compositions","attributes":{"type":"PARE","composition_type":"PISO"}}}`, 422,
			[]apiError{{"422", "invalid", "/data/attributes/composition_type", ""}, {"422", "invalid", "/data/attributes/type", ""}}},
		{"method names disagreeing", `{"rounding_type":1,"calculation_method":2}`, 422,
			[]apiError{{"422", "invalid", "/rounding_type", ""}, {"422", "invalid", "/calculation_method", ""}}},
		{"method object disagreeing", `{"rounding_type":1,"calculation_method":{"type":2,"description":"Truncar com 2 casas decimais"}}`, 422,
			[]apiError{{"422", "invalid", "/rounding_type", ""}, {"422", "invalid", "/calculation_method", ""}}},
		{"no such method", `{"calculation_method":{"type":9}}`, 422, []apiError{{"422", "invalid", "/calculation_method", ""}}},
		{"method as text", `{"calculation_method":"2"}`, 400, []apiError{{"400", "bad_request", "/calculation_method", ""}}},
		{"method object with an unknown member", `{"calculation_method":{"type":2,"mode":"x"}}`, 400, []apiError{{"400", "bad_request", "/calculation_method", ""}}},
		{"group names disagreeing", `{"data":{"type":"compositions","attributes":{"group_id":"x"},"relationships":{"group":{"data":null}}}}`, 422,
			[]apiError{{"422", "invalid", "/data/attributes/group_id", ""}, {"422", "invalid", "/data/relationships/group", ""}}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, h.Do("PATCH", path, u.Token, tt.body), tt.status)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
	// Nothing bad changed anything.
	a := attrs(t, expect(t, h.Do("GET", path, u.Token, ""), 200))
	if str(a["type"]) != "PARE" || num(t, a["calculation_method"].(obj)["type"]) != "1" {
		t.Errorf("after the refused PATCHes: type %v, calculation_method %v", a["type"], a["calculation_method"])
	}
}
