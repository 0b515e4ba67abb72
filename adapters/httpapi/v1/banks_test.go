package v1_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const banksPath = "/api/v1/banks"

// recordIDs lists the id of each record of a v1 list.
func recordIDs(body map[string]any) []string {
	out := []string{}
	for _, r := range body["records"].([]any) {
		out = append(out, r.(map[string]any)["id"].(string))
	}
	return out
}

func TestBanks(t *testing.T) {
	h, u := setup(t)
	other := h.AddUser("Construtora Beta", "bia@beta.example")

	// Any company reads the editions, with a Bearer or a bare token.
	body := call(t, h, "GET", banksPath, u.Token, "", 200)
	if diff := cmp.Diff([]string{"SICRO3-AL-2024-01", "SINAPI-MG-2026-08"}, recordIDs(body)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if body["total"] != num("2") || body["per_page"] != num("10") || body["current_page"] != num("1") {
		t.Errorf("envelope %v", body)
	}
	r := h.Do("GET", banksPath+"?bank=sinapi", "", "", "Authorization", other.Token)
	checkStatus(t, r, "GET with a bare token", 200)
	rec := object(t, r.Body)["records"].([]any)[0].(map[string]any)
	want := map[string]any{
		"id": "SINAPI-MG-2026-08", "name": "SINAPI", "local": "MG", "version": "08/2026", "region": "",
		"regimes": []any{"nao-desonerado", "desonerado"}, "resources": num("19"), "compositions": num("8"), "structures": num("5"),
	}
	for k, v := range want {
		if diff := cmp.Diff(v, rec[k]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", k, diff)
		}
	}
	if !createdAtPattern.MatchString(rec["imported_at"].(string)) || rec["source"] == "" {
		t.Errorf("imported_at %v, source %v", rec["imported_at"], rec["source"])
	}

	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"state=al", []string{"SICRO3-AL-2024-01"}},
		{"version=08/2026&bank=SINAPI", []string{"SINAPI-MG-2026-08"}},
		{"regime=desonerado", []string{"SICRO3-AL-2024-01", "SINAPI-MG-2026-08"}},
		{"region=Norte", []string{}},
		{"bank=&state=", []string{"SICRO3-AL-2024-01", "SINAPI-MG-2026-08"}}, // empty filters are ignored
		{"per_page=1&page=2", []string{"SINAPI-MG-2026-08"}},
		{"page=3", []string{}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			body := call(t, h, "GET", banksPath+"?"+tt.query, u.Token, "", 200)
			if diff := cmp.Diff(tt.want, recordIDs(body)); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
	for _, tt := range []struct {
		query  string
		status int
		fields []string
	}{
		{"state=XX", 422, []string{"state"}},
		{"version=2026-08&regime=maybe", 422, []string{"regime", "version"}},
		{"page=0", 400, []string{"page"}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			checkError(t, call(t, h, "GET", banksPath+"?"+tt.query, u.Token, "", tt.status), tt.fields...)
		})
	}
	r = h.Do("GET", banksPath, "", "")
	checkStatus(t, r, "GET without a token", http.StatusUnauthorized)
}

func TestFindBankItem(t *testing.T) {
	h, u := setup(t)
	const find = banksPath + "/find_by_code?"

	// 89306 with its published structure, each item priced from the edition.
	body := call(t, h, "GET", find+"bank=sinapi&state=mg&version=08/2026&code=89306", u.Token, "", 200)
	head := map[string]any{
		"banco": "SINAPI", "estado": "MG", "data": "08/2026", "code": "89306", "type": "", "unit": "M2",
		"unitary_pnd": num("113.33"), "unitary_pd": num("110.13"), "is_resource": false,
	}
	for k, v := range head {
		if diff := cmp.Diff(v, body[k]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", k, diff)
		}
	}
	if diff := cmp.Diff([]string{"banco", "code", "data", "description", "estado", "is_resource", "items", "type", "unit", "unitary_pd", "unitary_pnd"}, keys(body)); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	type line struct {
		Code, Type, Unit       string
		Coef, PND, PD          string
		IsResource, HasDescrip bool
	}
	var got []line
	for _, x := range body["items"].([]any) {
		it := x.(map[string]any)
		if it["banco"] != "SINAPI" {
			t.Errorf("structure item of bank %v", it["banco"])
		}
		got = append(got, line{it["code"].(string), it["type"].(string), it["unit"].(string),
			string(it["coefficient"].(json.Number)), string(it["unitary_pnd"].(json.Number)), string(it["unitary_pd"].(json.Number)),
			it["is_resource"].(bool), it["description"] != ""})
	}
	want := []line{
		{"88316", "", "H", "0.6505", "24.88", "23.58", false, true},
		{"88309", "", "H", "1.1152", "33.62", "31.67", false, true},
		{"87286", "", "M3", "0.0175", "713.59", "703.92", false, true},
		{"34788", "4", "UN", "1.54", "1.61", "1.61", true, true},
		{"34649", "4", "UN", "1.28", "3.48", "3.48", true, true},
		{"34586", "4", "UN", "15.37", "2.62", "2.62", true, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}

	// 88309: its cost, no structure imported.
	body = call(t, h, "GET", find+"bank=SINAPI&state=MG&version=08/2026&code=88309", u.Token, "", 200)
	if body["unitary_pnd"] != num("33.62") || body["unitary_pd"] != num("31.67") || len(body["items"].([]any)) != 0 {
		t.Errorf("88309: %v", body)
	}
	// SICRO: the leading zero stays; equipment has four prices and no items.
	body = call(t, h, "GET", find+"bank=SICRO3&state=AL&version=01/2024&code=0307731", u.Token, "", 200)
	if body["code"] != "0307731" || body["unitary_pnd"] != num("112.02") || body["unit"] != "dm³" {
		t.Errorf("0307731: %v", body)
	}
	body = call(t, h, "GET", find+"bank=SICRO3&state=AL&version=01/2024&code=E9017&kind=resource", u.Token, "", 200)
	if diff := cmp.Diff(map[string]any{
		"banco": "SICRO3", "estado": "AL", "data": "01/2024", "code": "E9017",
		"description": "Escavadeira hidráulica sobre esteira com capacidade de 0,4 m³ - 64 kW", "type": "1", "unit": "h",
		"unitary_pnd": num("185.4888"), "unitary_pd": num("182.3921"), "unitary_pndi": num("92.8898"), "unitary_pdi": num("89.7931"),
		"is_resource": true,
	}, body); diff != "" {
		t.Errorf("E9017 (-want +got):\n%s", diff)
	}

	for _, tt := range []struct {
		query  string
		status int
		fields []string
	}{
		{"code=89306", 422, []string{"bank", "state", "version"}},
		{"bank=SINAPI&state=MG&version=08/2026", 422, []string{"code"}},
		{"bank=SINAPI&state=XX&version=8/2026&code=89306", 422, []string{"state", "version"}},
		{"bank=SINAPI&state=MG&version=08/2026&code=89306&kind=both", 422, []string{"kind"}},
		{"bank=SINAPI&state=MG&version=08/2026&code=89306&kind=resource", 404, nil},
		{"bank=SINAPI&state=MG&version=09/2026&code=89306", 404, nil},
		{"bank=SINAPI&state=MG&version=08/2026&region=Norte&code=89306", 404, nil},
		{"bank=SINAPI&state=MG&version=08/2026&code=99999", 404, nil},
		{"bank=SICRO3&state=AL&version=01/2024&code=307731", 404, nil},
	} {
		t.Run(tt.query, func(t *testing.T) {
			checkError(t, call(t, h, "GET", find+tt.query, u.Token, "", tt.status), tt.fields...)
		})
	}
	r := h.Do("GET", find+"bank=SINAPI&state=MG&version=08/2026&code=89306", "", "")
	checkStatus(t, r, "GET without a token", http.StatusUnauthorized)
}
