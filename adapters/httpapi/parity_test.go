package httpapi_test

import (
	"encoding/json"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// The business facts of the parity scenario, as neither generation writes
// them: both answers are mapped to these before they are compared.
type (
	facts struct {
		Group       string
		Resource    resourceFacts
		Composition compositionFacts
	}
	resourceFacts struct {
		Code, SecondCode, Description, Unit, Note string
		Group                                     string // the group's description
		Type                                      int
		IsSicro, Status                           bool
		Prices                                    map[string][4]string // state → pnd, pd, pndi, pdi
	}
	compositionFacts struct {
		Code, SecondCode, Description, Type, Unit, State string
		IsSicro, Labor                                   bool
		Method                                           int
		PND, PD                                          string
		Banks                                            map[string]bankFacts
		Items                                            []itemFacts // in composition order
	}
	bankFacts struct {
		State, Month, Region string
		Report               bool
	}
	itemFacts struct {
		Bank, Code, Description, Type, Unit string
		Resource                            bool
		Coefficient, UnitPND, UnitPD        string
		PND, PD                             string
	}
)

// n normalises a JSON number (trailing zeros do not count).
func n(t *testing.T, v json.Number) string {
	t.Helper()
	d, err := decimal.NewFromString(v.String())
	if err != nil {
		t.Fatalf("%q is not a number", v)
	}
	return d.String()
}

func decodeInto(t *testing.T, r *apitest.Response, status int, v any) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d\n%s", r.Status, status, r.Body)
	}
	r.JSON(t, v)
}

// The v1 and v2 item lists of the scenario: SINAPI composition 89306's six
// items (three compositions, three resources) and one own resource.
const (
	v1Items = `{"items":[
		{"bank":"SINAPI","code":"88316","qty":0.6505},{"bank":"SINAPI","code":"88309","qty":1.1152},
		{"bank":"SINAPI","code":"87286","qty":0.0175},{"bank":"SINAPI","code":"34788","qty":1.54},
		{"bank":"SINAPI","code":"34649","qty":1.28},{"bank":"SINAPI","code":"34586","qty":15.37},
		{"bank":"MYBASE","code":"000123","qty":0.01}]}`
	v2Items = `{"items":[
		{"bank":"SINAPI","code":"88316","quantity":0.6505,"resource":false},{"bank":"SINAPI","code":"88309","quantity":1.1152,"resource":false},
		{"bank":"SINAPI","code":"87286","quantity":0.0175,"resource":false},{"bank":"SINAPI","code":"34788","quantity":1.54,"resource":true},
		{"bank":"SINAPI","code":"34649","quantity":1.28,"resource":true},{"bank":"SINAPI","code":"34586","quantity":15.37,"resource":true},
		{"bank":"MYBASE","code":"000123","quantity":0.01,"resource":true}]}`
)

// runV1 runs the scenario through v1 and returns what it reads back.
func runV1(t *testing.T, h *apitest.Harness, token string) facts {
	t.Helper()
	const b = "/api/v1/base/mybase"
	do := func(method, path, body string, status int, v any) {
		t.Helper()
		decodeInto(t, h.Do(method, b+path, token, body), status, v)
	}
	var g struct{ ID, Description string }
	do("POST", "/groups", `{"description":"Alvenaria"}`, 201, &g)
	var res struct{ ID string }
	do("POST", "/resources", `{"code":"000123","second_code":"AR-01","description":"AREIA MEDIA LAVADA","type":4,"unit":"M3",
		"local":"MG","pnd":120.50,"pd":120.50,"pndi":120.50,"pdi":120.50,"status":true,"note":"fornecedor local","group_id":"`+g.ID+`"}`, 201, &res)
	var comp struct{ ID string }
	do("POST", "/compositions", `{"code":"ALV-001","description":"ALVENARIA ESTRUTURAL 14X19X29","type":"PARE","unit":"M2",
		"local":"MG","is_sicro":false,"labor":false,"group_id":"`+g.ID+`"}`, 201, &comp)
	do("POST", "/compositions/"+comp.ID+"/add-bases", `{"bases":[{"name":"SINAPI","local":"MG","version":"08/2026","status":true}]}`, 200, &struct{}{})
	do("POST", "/compositions/"+comp.ID+"/add-items", v1Items, 200, &struct{}{})
	do("PUT", "/compositions/"+comp.ID, `{"description":"ALVENARIA ESTRUTURAL 14X19X29, COLHER","second_code":"A-14"}`, 200, &struct{}{})
	do("PUT", "/resources/"+res.ID, `{"description":"AREIA MEDIA LAVADA (POSTO OBRA)","locals":{"MG":{"pnd":130,"pd":125.5,"pndi":130,"pdi":125.5}}}`, 200, &struct{}{})

	var gotG struct{ ID, Description string }
	do("GET", "/groups/"+g.ID, "", 200, &gotG)
	var gotR struct {
		GroupID     string  `json:"group_id"`
		Code        string  `json:"code"`
		SecondCode  *string `json:"second_code"`
		Description string  `json:"description"`
		Type        int     `json:"type"`
		Unit        string  `json:"unit"`
		Locals      map[string]struct{ PND, PD, PNDI, PDI json.Number }
		IsSicro     bool   `json:"is_sicro"`
		Status      bool   `json:"status"`
		Note        string `json:"note"`
	}
	do("GET", "/resources/"+res.ID, "", 200, &gotR)
	var gotC struct {
		Code              string             `json:"code"`
		SecondCode        string             `json:"second_code"`
		Description       string             `json:"description"`
		Type              string             `json:"type"`
		Unit              string             `json:"unit"`
		State             string             `json:"state"`
		IsSicro           bool               `json:"is_sicro"`
		Labor             bool               `json:"labor"`
		CalculationMethod struct{ Type int } `json:"calculation_method"`
		Prices            struct{ PND, PD json.Number }
		Banks             map[string]struct {
			Data, Estado, Regiao string
			Relatorio            bool
		}
		Items []struct {
			Banco, Code, Description, Type, Unit string
			UnitaryPND                           json.Number `json:"unitary_pnd"`
			UnitaryPD                            json.Number `json:"unitary_pd"`
			Coefficient, PND, PD                 json.Number
			IsResource                           bool `json:"is_resource"`
		}
	}
	do("GET", "/compositions/"+comp.ID, "", 200, &gotC)

	groupOf := map[string]string{gotG.ID: gotG.Description}
	f := facts{Group: gotG.Description}
	f.Resource = resourceFacts{
		Code: gotR.Code, Description: gotR.Description, Unit: gotR.Unit, Note: gotR.Note,
		Group: groupOf[gotR.GroupID], Type: gotR.Type, IsSicro: gotR.IsSicro, Status: gotR.Status,
		Prices: map[string][4]string{},
	}
	if gotR.SecondCode != nil {
		f.Resource.SecondCode = *gotR.SecondCode
	}
	for st, p := range gotR.Locals {
		f.Resource.Prices[st] = [4]string{n(t, p.PND), n(t, p.PD), n(t, p.PNDI), n(t, p.PDI)}
	}
	f.Composition = compositionFacts{
		Code: gotC.Code, SecondCode: gotC.SecondCode, Description: gotC.Description, Type: gotC.Type,
		Unit: gotC.Unit, State: gotC.State, IsSicro: gotC.IsSicro, Labor: gotC.Labor,
		Method: gotC.CalculationMethod.Type, PND: n(t, gotC.Prices.PND), PD: n(t, gotC.Prices.PD),
		Banks: map[string]bankFacts{},
	}
	for name, bk := range gotC.Banks {
		f.Composition.Banks[name] = bankFacts{State: bk.Estado, Month: bk.Data, Region: bk.Regiao, Report: bk.Relatorio}
	}
	for _, it := range gotC.Items {
		f.Composition.Items = append(f.Composition.Items, itemFacts{
			Bank: it.Banco, Code: it.Code, Description: it.Description, Type: it.Type, Unit: it.Unit,
			Resource: it.IsResource, Coefficient: n(t, it.Coefficient),
			UnitPND: n(t, it.UnitaryPND), UnitPD: n(t, it.UnitaryPD), PND: n(t, it.PND), PD: n(t, it.PD),
		})
	}
	return f
}

// v2Doc is a v2 document with one resource.
type v2Doc[A any] struct {
	Data struct {
		ID            string
		Attributes    A
		Relationships map[string]struct {
			Data *struct{ Type, ID string }
		}
	}
}

// runV2 runs the scenario through v2 and returns what it reads back.
func runV2(t *testing.T, h *apitest.Harness, token string) facts {
	t.Helper()
	const b = "/api/public/v2/my_database"
	do := func(method, path, body string, status int, v any) {
		t.Helper()
		decodeInto(t, h.Do(method, b+path, token, body), status, v)
	}
	var g v2Doc[struct{ Description string }]
	do("POST", "/groups", `{"description":"Alvenaria"}`, 201, &g)
	var res v2Doc[struct{}]
	do("POST", "/resources", `{"code":"000123","secondary_code":"AR-01","description":"AREIA MEDIA LAVADA","resource_type":4,"unit":"M3",
		"locals":{"MG":{"pnd":120.50,"pd":120.50,"pndi":120.50,"pdi":120.50}},"status":true,"note":"fornecedor local","group_id":"`+g.Data.ID+`"}`, 201, &res)
	var comp v2Doc[struct{}]
	do("POST", "/compositions", `{"data":{"type":"compositions","attributes":{"code":"ALV-001","description":"ALVENARIA ESTRUTURAL 14X19X29",
		"composition_type":"PARE","unit":"M2","location":"MG","is_sicro":false,"labor":false},
		"relationships":{"group":{"data":{"type":"groups","id":"`+g.Data.ID+`"}}}}}`, 201, &comp)
	id := comp.Data.ID
	do("POST", "/compositions/"+id+"/add_banks", `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026","status":true}]}`, 200, &struct{}{})
	do("POST", "/compositions/"+id+"/add_items", v2Items, 200, &struct{}{})
	do("PATCH", "/compositions/"+id, `{"description":"ALVENARIA ESTRUTURAL 14X19X29, COLHER","secondary_code":"A-14"}`, 200, &struct{}{})
	do("PATCH", "/resources/"+res.Data.ID, `{"description":"AREIA MEDIA LAVADA (POSTO OBRA)","locals":{"MG":{"pnd":130,"pd":125.5,"pndi":130,"pdi":125.5}}}`, 200, &struct{}{})

	var gotG v2Doc[struct{ Description string }]
	do("GET", "/groups/"+g.Data.ID, "", 200, &gotG)
	var gotR v2Doc[struct {
		Code          string `json:"code"`
		SecondaryCode string `json:"secondary_code"`
		Description   string `json:"description"`
		ResourceType  int    `json:"resource_type"`
		Unit          string `json:"unit"`
		IsSicro       bool   `json:"is_sicro"`
		Status        bool   `json:"status"`
		Note          string `json:"note"`
		Locals        map[string]struct{ PND, PD, PNDI, PDI json.Number }
	}]
	do("GET", "/resources/"+res.Data.ID, "", 200, &gotR)
	var gotC v2Doc[struct {
		Code              string             `json:"code"`
		SecondaryCode     string             `json:"secondary_code"`
		Description       string             `json:"description"`
		CompositionType   string             `json:"composition_type"`
		Unit              string             `json:"unit"`
		Location          string             `json:"location"`
		IsSicro           bool               `json:"is_sicro"`
		Labor             bool               `json:"labor"`
		CalculationMethod struct{ Type int } `json:"calculation_method"`
		Prices            struct{ PND, PD json.Number }
		Banks             map[string]struct {
			Estado, Data, Regiao string
			Relatorio            bool
		}
		Items map[string]struct {
			Banco, Code, Description, Type, Unit string
			UnitaryPND                           json.Number `json:"unitary_pnd"`
			UnitaryPD                            json.Number `json:"unitary_pd"`
			Coefficient, PND, PD                 json.Number
			IsResource                           bool `json:"is_resource"`
			Position                             int
		}
	}]
	do("GET", "/compositions/"+id, "", 200, &gotC)

	groupOf := map[string]string{gotG.Data.ID: gotG.Data.Attributes.Description}
	r := gotR.Data.Attributes
	f := facts{Group: gotG.Data.Attributes.Description}
	f.Resource = resourceFacts{
		Code: r.Code, SecondCode: r.SecondaryCode, Description: r.Description, Unit: r.Unit, Note: r.Note,
		Type: r.ResourceType, IsSicro: r.IsSicro, Status: r.Status, Prices: map[string][4]string{},
	}
	if rel := gotR.Data.Relationships["group"].Data; rel != nil {
		f.Resource.Group = groupOf[rel.ID]
	}
	for st, p := range r.Locals {
		f.Resource.Prices[st] = [4]string{n(t, p.PND), n(t, p.PD), n(t, p.PNDI), n(t, p.PDI)}
	}
	c := gotC.Data.Attributes
	f.Composition = compositionFacts{
		Code: c.Code, SecondCode: c.SecondaryCode, Description: c.Description, Type: c.CompositionType,
		Unit: c.Unit, State: c.Location, IsSicro: c.IsSicro, Labor: c.Labor,
		Method: c.CalculationMethod.Type, PND: n(t, c.Prices.PND), PD: n(t, c.Prices.PD),
		Banks: map[string]bankFacts{},
	}
	for name, bk := range c.Banks {
		f.Composition.Banks[name] = bankFacts{State: bk.Estado, Month: bk.Data, Region: bk.Regiao, Report: bk.Relatorio}
	}
	items := make([]itemFacts, len(c.Items))
	seen := map[int]bool{}
	for key, it := range c.Items {
		if it.Position < 1 || it.Position > len(items) || seen[it.Position] {
			t.Fatalf("item %s has position %d", key, it.Position)
		}
		seen[it.Position] = true
		items[it.Position-1] = itemFacts{
			Bank: it.Banco, Code: it.Code, Description: it.Description, Type: it.Type, Unit: it.Unit,
			Resource: it.IsResource, Coefficient: n(t, it.Coefficient),
			UnitPND: n(t, it.UnitaryPND), UnitPD: n(t, it.UnitaryPD), PND: n(t, it.PND), PD: n(t, it.PD),
		}
	}
	f.Composition.Items = items
	return f
}

// TestParity runs one scenario through v1 and through v2 (create a group, an
// own resource priced in MG and a composition; attach SINAPI MG 08/2026; add
// the real items of SINAPI 89306 and the own resource; update both; read
// everything back) and checks that the business facts are the same.
func TestParity(t *testing.T) {
	h := apitest.New(t)
	one := h.AddUser("Construtora Um", "um@um.com.br")
	two := h.AddUser("Construtora Dois", "dois@dois.com.br")

	got1 := runV1(t, h, one.Token)
	got2 := runV2(t, h, two.Token)
	if diff := cmp.Diff(got1, got2); diff != "" {
		t.Errorf("v1 and v2 disagree (-v1 +v2):\n%s", diff)
	}

	// And both are right: Caixa's 89306 (113.33 / 110.13) plus 0.01 m³ of
	// sand at its updated price, truncated to centavos.
	if got1.Composition.PND != "114.63" || got1.Composition.PD != "111.38" {
		t.Errorf("prices %s / %s, want 114.63 / 111.38", got1.Composition.PND, got1.Composition.PD)
	}
	var codes []string
	for _, it := range got1.Composition.Items {
		codes = append(codes, it.Bank+":"+it.Code)
	}
	want := []string{"SINAPI:88316", "SINAPI:88309", "SINAPI:87286", "SINAPI:34788", "SINAPI:34649", "SINAPI:34586", "MYBASE:000123"}
	if diff := cmp.Diff(want, codes); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if got1.Resource.Group != "Alvenaria" || got1.Composition.Description != "ALVENARIA ESTRUTURAL 14X19X29, COLHER" {
		t.Errorf("updates or group lost: %+v", got1)
	}
}
