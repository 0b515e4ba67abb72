package v2

// The documents v2 wrote by reflection (google/jsonapi, then encoding/json)
// before the records read most got encoders of their own (encode.go): the
// reference the encoders are compared with (encode_test.go).

import (
	"encoding/json"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
)

// compositionDoc is a composition as v2 writes it (JSON:API type
// "compositions"). The attributes are the seed's, `type` (the class code)
// included, which real clients read by that name although JSON:API reserves
// it; the same value is also written as composition_type, for JSON:API
// client libraries that merge attributes with the resource's own type. Then
// labor, calculation_method and note, which a client sets and must be able
// to read back. The relationship `group` is there only when the composition
// belongs to a group.
type refCompositionDoc struct {
	ID                string             `jsonapi:"primary,compositions"`
	Code              string             `jsonapi:"attr,code"`
	SecondaryCode     string             `jsonapi:"attr,secondary_code"`
	Description       string             `jsonapi:"attr,description"`
	Type              string             `jsonapi:"attr,type"`
	CompositionType   string             `jsonapi:"attr,composition_type"`
	Unit              string             `jsonapi:"attr,unit"`
	IsSicro           bool               `jsonapi:"attr,is_sicro"`
	Labor             bool               `jsonapi:"attr,labor"`
	CalculationMethod calculationMethod  `jsonapi:"attr,calculation_method"`
	TeamProduction    json.Number        `jsonapi:"attr,team_production"`
	FIC               json.Number        `jsonapi:"attr,fic"`
	LaborAddition     json.Number        `jsonapi:"attr,labor_addition"`
	Note              string             `jsonapi:"attr,note"`
	CreatedAt         string             `jsonapi:"attr,created_at"`
	Location          string             `jsonapi:"attr,location"`
	Prices            pricesDoc          `jsonapi:"attr,prices"`
	Banks             map[string]bankDoc `jsonapi:"attr,banks"`
	Items             map[string]itemDoc `jsonapi:"attr,items"`
	OmittedItems      int                `jsonapi:"attr,omitted_items"`
	Tags              []string           `jsonapi:"attr,tags,omitempty"`
	// Incomplete and Missing appear only when some item has no price.
	Incomplete bool                  `jsonapi:"attr,incomplete,omitempty"`
	Missing    []httpapi.MissingItem `jsonapi:"attr,missing,omitempty"`
	User       *userRef              `jsonapi:"relation,user"`
	Sector     *sectorRef            `jsonapi:"relation,sector"`
	Group      *groupRef             `jsonapi:"relation,group,omitempty"`
}

// calculationMethod is how line totals are cut (domain.RoundingMethod).
type calculationMethod struct {
	Type        int    `json:"type"`
	Description string `json:"description"`
}

// pricesDoc is `prices`: the 18 keys of the seed, every one always there
// (0 where the composition's model does not fill it: the SINAPI model fills
// only pnd and pd).
type pricesDoc struct {
	PND          *json.Number `json:"pnd"` // null when the composition has no unit cost
	PD           *json.Number `json:"pd"`
	ChDeEq       json.Number  `json:"ch_de_eq"`
	ChdDeEq      json.Number  `json:"chd_de_eq"`
	ChiDeEq      json.Number  `json:"chi_de_eq"`
	ChdiDeEq     json.Number  `json:"chdi_de_eq"`
	ChDaMo       json.Number  `json:"ch_da_mo"`
	ChdDaMo      json.Number  `json:"chd_da_mo"`
	CHE          json.Number  `json:"che"`
	CHDE         json.Number  `json:"chde"`
	ChIncidencia json.Number  `json:"ch_incidencia"`
	CTF          json.Number  `json:"ctf"`
	CTFD         json.Number  `json:"ctfd"`
	CUOI         json.Number  `json:"cuoi"`
	CUOID        json.Number  `json:"cuoid"`
	CCA          json.Number  `json:"cca"`
	CCAD         json.Number  `json:"ccad"`
	CUMO         json.Number  `json:"cumo"`
}

// bankDoc is one entry of `banks`, keyed by bank name. regiao is written
// only for an edition with a region (as v1 does).
type bankDoc struct {
	Estado    string `json:"estado"`
	Data      string `json:"data"`
	Regiao    string `json:"regiao,omitempty"`
	Relatorio bool   `json:"relatorio"`
}

// itemDoc is one entry of `items`, keyed by itemID: the fields of a v1
// composition item, its 1-based position in the composition and, for an
// item added with one (SICRO equipment), its utilization.
type itemDoc struct {
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
	Position    int          `json:"position"`
	Utilization *json.Number `json:"utilization,omitempty"`
	Missing     bool         `json:"missing,omitempty"`
}

// itemID is the key of an item in a composition's `items` object:
// "<BANK>:<C|R>:<code>" — the bank as the composition names it (MYBASE for
// the company's own records), C for a composition or R for a resource, and
// the code exactly as the bank writes it, leading zeros kept. Examples:
// "SINAPI:C:88309", "SICRO3:R:E9017", "MYBASE:R:001". Bank, kind and code
// are what make a line unique in a composition, so an item keeps its id for
// as long as it is there, and adding the same line again keeps the id.
func itemID(it domain.Item) string {
	kind := "R"
	if it.Kind == domain.KindComposition {
		kind = "C"
	}
	return it.Bank + ":" + kind + ":" + it.Code
}

// compositionDoc maps a priced composition. withItems false (lists) leaves
// `items` empty and counts the items in omitted_items.
func refComposition(h *handlers, pc *domain.PricedComposition, withItems bool) *refCompositionDoc {
	c := pc.Composition
	num := httpapi.Num
	p := pc.Prices
	d := &refCompositionDoc{
		ID:              c.ID,
		Code:            c.Code,
		SecondaryCode:   c.SecondCode,
		Description:     c.Description,
		Type:            c.Type,
		CompositionType: c.Type,
		Unit:            c.Unit,
		IsSicro:         c.IsSicro,
		Labor:           c.Labor,
		CalculationMethod: calculationMethod{
			Type: int(c.Rounding), Description: c.Rounding.Description(),
		},
		TeamProduction: num(c.TeamProduction),
		FIC:            num(c.FIC),
		LaborAddition:  num(c.LaborAddition),
		Note:           c.Note,
		CreatedAt:      h.env.FormatTime(c.CreatedAt),
		Location:       c.State,
		Tags:           c.Tags,
		Prices: pricesDoc{
			PND: httpapi.NumOrNull(p.PND, p.Unpriced[domain.NaoDesonerado]), PD: httpapi.NumOrNull(p.PD, p.Unpriced[domain.Desonerado]),
			ChDeEq: num(p.ChDeEq), ChdDeEq: num(p.ChdDeEq),
			ChiDeEq: num(p.ChiDeEq), ChdiDeEq: num(p.ChdiDeEq),
			ChDaMo: num(p.ChDaMo), ChdDaMo: num(p.ChdDaMo),
			CHE: num(p.CHE), CHDE: num(p.CHDE),
			ChIncidencia: num(p.ChIncidencia),
			CTF:          num(p.CTF), CTFD: num(p.CTFD),
			CUOI: num(p.CUOI), CUOID: num(p.CUOID),
			CCA: num(p.CCA), CCAD: num(p.CCAD),
			CUMO: num(p.CUMO),
		},
		Banks:  make(map[string]bankDoc, len(c.Banks)),
		Items:  map[string]itemDoc{},
		User:   userOf(c.UserID),
		Sector: sectorOf(c.DepartmentID),
		Group:  groupOf(c.GroupID),
	}
	for _, b := range c.Banks {
		d.Banks[b.Name] = bankDoc{Estado: b.State, Data: b.Month, Regiao: b.Region, Relatorio: b.Report}
		if b.Region == "" && b.AskedRegion != "" { // a region sent for a bank without regions
			d.Banks[b.Name] = bankDoc{Estado: b.State, Data: b.Month, Regiao: b.AskedRegion, Relatorio: b.Report}
		}
	}
	d.Incomplete, d.Missing = pc.Incomplete(), httpapi.MissingItems(pc.Missing)
	if !withItems {
		d.OmittedItems = len(pc.Items)
		return d
	}
	orNull := httpapi.NumOrNull
	for i, it := range pc.Items {
		e := itemDoc{
			Banco:       it.Bank,
			Code:        it.Code,
			Description: it.Description,
			Type:        it.Type,
			Unit:        it.Unit,
			UnitaryPND:  orNull(it.UnitPrice.PND, !it.Priced(domain.NaoDesonerado)),
			UnitaryPD:   orNull(it.UnitPrice.PD, !it.Priced(domain.Desonerado)),
			Coefficient: num(it.Quantity),
			PND:         orNull(c.Rounding.ShowLine(it.Total.PND), !it.Priced(domain.NaoDesonerado)),
			PD:          orNull(c.Rounding.ShowLine(it.Total.PD), !it.Priced(domain.Desonerado)),
			IsResource:  it.Kind == domain.KindResource,
			Position:    i + 1,
			Missing:     it.Missing,
		}
		if it.Utilization.Valid {
			u := num(it.Utilization.Decimal)
			e.Utilization = &u
		}
		d.Items[itemID(it.Item)] = e
	}
	return d
}

// resourceDoc is a resource of the company's own base as v2 writes it
// (JSON:API type "resources"). The resource type (an integer of the
// resource types catalogue) is resource_type only: JSON:API reserves an
// attribute named type, and unlike a composition's no seed client reads it
// (docs/decisions.md). The relationship `group` is there only when the resource
// belongs to a group.
type refResourceDoc struct {
	ID            string                  `jsonapi:"primary,resources"`
	Code          string                  `jsonapi:"attr,code"`
	SecondaryCode string                  `jsonapi:"attr,secondary_code"`
	Description   string                  `jsonapi:"attr,description"`
	ResourceType  int                     `jsonapi:"attr,resource_type"`
	Unit          string                  `jsonapi:"attr,unit"`
	IsSicro       bool                    `jsonapi:"attr,is_sicro"`
	Status        bool                    `jsonapi:"attr,status"`
	Note          string                  `jsonapi:"attr,note"`
	Locals        map[string]priceLineDoc `jsonapi:"attr,locals"`
	CreatedAt     string                  `jsonapi:"attr,created_at"`
	Tags          []string                `jsonapi:"attr,tags,omitempty"`
	User          *userRef                `jsonapi:"relation,user"`
	Sector        *sectorRef              `jsonapi:"relation,sector"`
	Group         *groupRef               `jsonapi:"relation,group,omitempty"`
}

// priceLineDoc is the four prices of a resource in one state.
type priceLineDoc struct {
	PND  json.Number `json:"pnd"`
	PD   json.Number `json:"pd"`
	PNDI json.Number `json:"pndi"`
	PDI  json.Number `json:"pdi"`
}

func refResource(h *handlers, res *domain.Resource) *refResourceDoc {
	d := &refResourceDoc{
		ID:            res.ID,
		Code:          res.Code,
		SecondaryCode: res.SecondCode,
		Description:   res.Description,
		ResourceType:  res.Type,
		Unit:          res.Unit,
		IsSicro:       res.IsSicro,
		Status:        res.Status,
		Note:          res.Note,
		Locals:        make(map[string]priceLineDoc, len(res.Locals)),
		CreatedAt:     h.env.FormatTime(res.CreatedAt),
		Tags:          res.Tags,
		User:          userOf(res.UserID),
		Sector:        sectorOf(res.DepartmentID),
		Group:         groupOf(res.GroupID),
	}
	for st, p := range res.Locals {
		d.Locals[st] = priceLineDoc{PND: httpapi.Num(p.PND), PD: httpapi.Num(p.PD), PNDI: httpapi.Num(p.PNDI), PDI: httpapi.Num(p.PDI)}
	}
	return d
}
