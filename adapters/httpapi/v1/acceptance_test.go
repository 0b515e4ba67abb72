package v1_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSinapiCompositionThroughHTTP rebuilds real SINAPI MG 08/2026
// compositions from their published items, through HTTP only (v1 login,
// create, add-bases, add-items), and checks that costdb's totals are Caixa's
// published totals, digit for digit.
func TestSinapiCompositionThroughHTTP(t *testing.T) {
	const argamassa = "ARGAMASSA TRAÇO 1:1:6 (EM VOLUME DE CIMENTO, CAL E AREIA MÉDIA ÚMIDA) PARA EMBOÇO/MASSA ÚNICA/ASSENTAMENTO DE ALVENARIA DE VEDAÇÃO, PREPARO MECÂNICO COM BETONEIRA ATÉ 600 L. AF_07/2026"
	type item struct {
		code, qty, desc string
		isResource      bool
		// unit prices and line totals (truncated to centavos), both regimes
		unitPND, unitPD, pnd, pd string
	}
	tests := []struct {
		code    string
		items   []item
		pnd, pd string
	}{
		{
			code: "89306",
			items: []item{
				{"88316", "0.6505", "SERVENTE COM ENCARGOS COMPLEMENTARES", false, "24.88", "23.58", "16.18", "15.33"},
				{"88309", "1.1152", "PEDREIRO COM ENCARGOS COMPLEMENTARES", false, "33.62", "31.67", "37.49", "35.31"},
				{"87286", "0.0175", argamassa, false, "713.59", "703.92", "12.48", "12.31"},
				{"34788", "1.54", "MEIO BLOCO ESTRUTURAL CERAMICO DE 14 X 19 X 14 CM (L X A X C) E 6,0 MPA", true, "1.61", "1.61", "2.47", "2.47"},
				{"34649", "1.28", "CANALETA ESTRUTURAL CERAMICA DE 14 X 19 X 29 CM (L X A X C) E 6,0 MPA", true, "3.48", "3.48", "4.45", "4.45"},
				{"34586", "15.37", "BLOCO ESTRUTURAL CERAMICO DE 14 X 19 X 29 CM (L X A X C) E 6,0 MPA", true, "2.62", "2.62", "40.26", "40.26"},
			},
			pnd: "113.33", pd: "110.13",
		},
		{
			code: "89478",
			items: []item{
				{"88316", "1.0804", "SERVENTE COM ENCARGOS COMPLEMENTARES", false, "24.88", "23.58", "26.88", "25.47"},
				{"88309", "1.0804", "PEDREIRO COM ENCARGOS COMPLEMENTARES", false, "33.62", "31.67", "36.32", "34.21"},
				{"87286", "0.0187", argamassa, false, "713.59", "703.92", "13.34", "13.16"},
				{"38596", "1.29", "CANALETA DE CONCRETO ESTRUTURAL 14 X 19 X 29 CM, FBK 4,5 MPA (NBR 6136)", true, "5.43", "5.43", "7", "7"},
				{"38590", "15.54", "BLOCO DE CONCRETO ESTRUTURAL 14 X 19 X 29 CM, FBK 4,5 MPA (NBR 6136)", true, "4.39", "4.39", "68.22", "68.22"},
				{"38588", "1.55", "MEIO BLOCO DE CONCRETO ESTRUTURAL 14 X 19 X 14 CM, FBK 4,5 MPA (NBR 6136)", true, "2.64", "2.64", "4.09", "4.09"},
			},
			pnd: "155.85", pd: "152.15",
		},
	}
	h, u := setup(t)

	// Log in through v1, as a v1 client does.
	login := call(t, h, "POST", "/api/v1/login/authenticate_user", "",
		jsonBody(t, map[string]string{"email": u.Email, "secret_token": u.Secret}), 200)
	token, _ := login["auth_token"].(string)
	if token == "" {
		t.Fatalf("no auth_token in %v", login)
	}

	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			comp := createComposition(t, h, token, "MINHA-"+tt.code)
			cid := id(t, comp)
			banks := attachSinapi(t, h, token, cid)
			if diff := cmp.Diff(map[string]any{"SINAPI": map[string]any{"data": "08/2026", "estado": "MG", "relatorio": true}}, banks["banks"]); diff != "" {
				t.Errorf("banks after add-bases (-want +got):\n%s", diff)
			}

			type in struct {
				Bank string      `json:"bank"`
				Code string      `json:"code"`
				Qty  json.Number `json:"qty"`
			}
			var items []in
			for _, it := range tt.items {
				items = append(items, in{"SINAPI", it.code, json.Number(it.qty)})
			}
			body := jsonBody(t, map[string]any{"items": items})
			got := call(t, h, "POST", base+"/compositions/"+cid+"/add-items", token, body, 200)

			prices := got["prices"].(map[string]any)
			if diff := cmp.Diff(map[string]any{"pnd": num(tt.pnd), "pd": num(tt.pd)}, prices); diff != "" {
				t.Errorf("prices (-Caixa's published +got):\n%s", diff)
			}
			gotItems := got["items"].([]any)
			if len(gotItems) != len(tt.items) {
				t.Fatalf("%d items, want %d: %v", len(gotItems), len(tt.items), gotItems)
			}
			for i, want := range tt.items {
				g := gotItems[i].(map[string]any)
				if diff := cmp.Diff([]string{"banco", "code", "coefficient", "description", "is_resource", "pd", "pnd", "type", "unit", "unitary_pd", "unitary_pnd"}, keys(g)); diff != "" {
					t.Errorf("item %d keys (-want +got):\n%s", i, diff)
				}
				checks := map[string]any{"banco": "SINAPI", "code": want.code, "coefficient": num(want.qty), "is_resource": want.isResource}
				checks["description"] = want.desc
				checks["unitary_pnd"], checks["unitary_pd"] = num(want.unitPND), num(want.unitPD)
				checks["pnd"], checks["pd"] = num(want.pnd), num(want.pd)
				for k, v := range checks {
					if diff := cmp.Diff(v, g[k]); diff != "" {
						t.Errorf("item %d (%s) %s (-want +got):\n%s", i, want.code, k, diff)
					}
				}
			}

			// A retried request leaves the same composition: no duplicate lines.
			again := call(t, h, "POST", base+"/compositions/"+cid+"/add-items", token, body, 200)
			if diff := cmp.Diff(got, again); diff != "" {
				t.Errorf("retried add-items changed the composition (-first +retry):\n%s", diff)
			}
			stored := call(t, h, "GET", base+"/compositions/"+cid, token, "", 200)
			if diff := cmp.Diff(got, stored); diff != "" {
				t.Errorf("GET differs from the add-items answer (-add-items +GET):\n%s", diff)
			}
		})
	}
}
