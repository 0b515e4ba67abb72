package v1

// The answers v1 wrote by reflection (encoding/json) before the records
// read most got encoders of their own (encode.go): the reference the
// encoders are compared with (encode_test.go).

import (
	"encoding/json"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
)

// compositionBody is a composition as v1 shows it; group_id is null when it
// has no group. team_production, fic and adc_labor appear only for a
// SICRO-model composition, whose prices also carry every SICRO key.
type refCompositionBody struct {
	ID                string              `json:"id"`
	CompanyID         string              `json:"company_id"`
	UserID            string              `json:"user_id"`
	DepartmentID      string              `json:"department_id"`
	GroupID           *string             `json:"group_id"`
	Code              string              `json:"code"`
	SecondCode        string              `json:"second_code"`
	Description       string              `json:"description"`
	Type              string              `json:"type"`
	Unit              string              `json:"unit"`
	State             string              `json:"state"`
	IsSicro           bool                `json:"is_sicro"`
	CalculationMethod calculationMethod   `json:"calculation_method"`
	Labor             bool                `json:"labor"`
	TeamProduction    json.Number         `json:"team_production,omitempty"`
	FIC               json.Number         `json:"fic,omitempty"`
	AdcLabor          json.Number         `json:"adc_labor,omitempty"`
	Prices            pricesBody          `json:"prices"`
	Banks             map[string]bankBody `json:"banks"`
	Items             []itemBody          `json:"items"`
	CreatedAt         string              `json:"created_at"`
	Tags              []string            `json:"tags,omitempty"`
	// Incomplete and Missing appear only when some item has no price: the
	// prices then leave those items out (docs/decisions.md).
	Incomplete bool                  `json:"incomplete,omitempty"`
	Missing    []httpapi.MissingItem `json:"missing,omitempty"`
}

// pricesBody holds pnd and pd, and for the SICRO model every other key
// (empty ones are left out, and only the SINAPI model leaves them empty).
type pricesBody struct {
	PND          *json.Number `json:"pnd"` // null when the composition has no unit cost
	PD           *json.Number `json:"pd"`
	ChDeEq       json.Number  `json:"ch_de_eq,omitempty"`
	ChdDeEq      json.Number  `json:"chd_de_eq,omitempty"`
	ChiDeEq      json.Number  `json:"chi_de_eq,omitempty"`
	ChdiDeEq     json.Number  `json:"chdi_de_eq,omitempty"`
	ChDaMo       json.Number  `json:"ch_da_mo,omitempty"`
	ChdDaMo      json.Number  `json:"chd_da_mo,omitempty"`
	CHE          json.Number  `json:"che,omitempty"`
	CHDE         json.Number  `json:"chde,omitempty"`
	ChIncidencia json.Number  `json:"ch_incidencia,omitempty"`
	CTF          json.Number  `json:"ctf,omitempty"`
	CTFD         json.Number  `json:"ctfd,omitempty"`
	CUOI         json.Number  `json:"cuoi,omitempty"`
	CUOID        json.Number  `json:"cuoid,omitempty"`
	CCA          json.Number  `json:"cca,omitempty"`
	CCAD         json.Number  `json:"ccad,omitempty"`
	CUMO         json.Number  `json:"cumo,omitempty"`
}

func refBankOf(b domain.BankRef) bankBody {
	out := bankBody{Data: b.Month, Estado: b.State, Regiao: b.Region, Relatorio: b.Report, WithLaborCharges: b.WithLaborCharges}
	if out.Regiao == "" {
		out.Regiao = b.AskedRegion
	}
	return out
}

// itemBody is one item of a composition: coefficient is the quantity sent,
// pnd and pd the line totals at 2 decimals (domain.RoundingMethod.ShowLine).
// An item without a price has null prices and `missing` true.
type itemBody struct {
	Banco       string       `json:"banco"`
	Code        string       `json:"code"`
	Description string       `json:"description"`
	Type        string       `json:"type"`
	Unit        string       `json:"unit"`
	UnitaryPND  *json.Number `json:"unitary_pnd"`
	UnitaryPD   *json.Number `json:"unitary_pd"`
	Coefficient json.Number  `json:"coefficient"`
	PND         *json.Number `json:"pnd"`
	PD          *json.Number `json:"pd"`
	IsResource  bool         `json:"is_resource"`
	Missing     bool         `json:"missing,omitempty"`
}

func refComposition(h *handler, pc *domain.PricedComposition) refCompositionBody {
	c, num := pc.Composition, httpapi.Num
	out := refCompositionBody{
		ID: c.ID, CompanyID: c.CompanyID, UserID: c.UserID, DepartmentID: c.DepartmentID,
		Code: c.Code, SecondCode: c.SecondCode, Description: c.Description, Type: c.Type, Unit: c.Unit,
		State: c.State, IsSicro: c.IsSicro,
		CalculationMethod: calculationMethod{Type: int(c.Rounding), Description: c.Rounding.Description()},
		Labor:             c.Labor,
		Prices:            pricesBody{PND: httpapi.NumOrNull(pc.Prices.PND, pc.Prices.Unpriced[domain.NaoDesonerado]), PD: httpapi.NumOrNull(pc.Prices.PD, pc.Prices.Unpriced[domain.Desonerado])},
		Banks:             make(map[string]bankBody, len(c.Banks)),
		Items:             make([]itemBody, 0, len(pc.Items)),
		CreatedAt:         h.env.FormatTime(c.CreatedAt),
		Tags:              c.Tags,
	}
	if c.GroupID != "" {
		g := c.GroupID
		out.GroupID = &g
	}
	if c.IsSicro {
		p := pc.Prices
		out.TeamProduction, out.FIC, out.AdcLabor = num(c.TeamProduction), num(c.FIC), num(c.LaborAddition)
		out.Prices = pricesBody{
			PND: httpapi.NumOrNull(p.PND, p.Unpriced[domain.NaoDesonerado]), PD: httpapi.NumOrNull(p.PD, p.Unpriced[domain.Desonerado]),
			ChDeEq: num(p.ChDeEq), ChdDeEq: num(p.ChdDeEq), ChiDeEq: num(p.ChiDeEq), ChdiDeEq: num(p.ChdiDeEq),
			ChDaMo: num(p.ChDaMo), ChdDaMo: num(p.ChdDaMo), CHE: num(p.CHE), CHDE: num(p.CHDE),
			ChIncidencia: num(p.ChIncidencia), CTF: num(p.CTF), CTFD: num(p.CTFD),
			CUOI: num(p.CUOI), CUOID: num(p.CUOID), CCA: num(p.CCA), CCAD: num(p.CCAD), CUMO: num(p.CUMO),
		}
	}
	for _, b := range c.Banks {
		out.Banks[b.Name] = refBankOf(b)
	}
	orNull := httpapi.NumOrNull
	for _, it := range pc.Items {
		out.Items = append(out.Items, itemBody{
			Banco: it.Bank, Code: it.Code, Description: it.Description, Type: it.Type, Unit: it.Unit,
			UnitaryPND: orNull(it.UnitPrice.PND, !it.Priced(domain.NaoDesonerado)), UnitaryPD: orNull(it.UnitPrice.PD, !it.Priced(domain.Desonerado)),
			Coefficient: num(it.Quantity),
			PND:         orNull(c.Rounding.ShowLine(it.Total.PND), !it.Priced(domain.NaoDesonerado)),
			PD:          orNull(c.Rounding.ShowLine(it.Total.PD), !it.Priced(domain.Desonerado)),
			IsResource:  it.Kind == domain.KindResource,
			Missing:     it.Missing,
		})
	}
	out.Incomplete, out.Missing = pc.Incomplete(), httpapi.MissingItems(pc.Missing)
	return out
}

// resourceRecord is a resource as the v1 list shows it (also the answer of
// GET /{id} and find_by_code): group_id is left out when the resource has no
// group, and second_code is null when empty.
type refResourceRecord struct {
	ID           string         `json:"id"`
	CompanyID    string         `json:"company_id"`
	UserID       string         `json:"user_id"`
	DepartmentID string         `json:"department_id"`
	GroupID      string         `json:"group_id,omitempty"`
	Code         string         `json:"code"`
	SecondCode   *string        `json:"second_code"`
	Description  string         `json:"description"`
	Type         int            `json:"type"`
	Unit         string         `json:"unit"`
	Locals       map[string]any `json:"locals"`
	IsSicro      bool           `json:"is_sicro"`
	Status       bool           `json:"status"`
	Note         string         `json:"note"`
	Tags         []string       `json:"tags,omitempty"`
}

func refResourceToRecord(r *domain.Resource) refResourceRecord {
	return refResourceRecord{
		ID: r.ID, CompanyID: r.CompanyID, UserID: r.UserID, DepartmentID: r.DepartmentID, GroupID: r.GroupID,
		Code: r.Code, SecondCode: nullable(r.SecondCode), Description: r.Description, Type: r.Type, Unit: r.Unit,
		Locals: locals(r), IsSicro: r.IsSicro, Status: r.Status, Note: r.Note, Tags: r.Tags,
	}
}
