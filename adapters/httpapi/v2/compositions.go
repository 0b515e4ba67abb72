package v2

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/shopspring/decimal"
)

// compositionDoc is a composition as v2 writes it (JSON:API type
// "compositions"). The attributes are the seed's, `type` (the class code)
// included, which real clients read by that name although JSON:API reserves
// it; the same value is also written as composition_type, for JSON:API
// client libraries that merge attributes with the resource's own type. Then
// labor, calculation_method and note, which a client sets and must be able
// to read back. The relationship `group` is there only when the composition
// belongs to a group.
type compositionDoc struct {
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
	PND          json.Number `json:"pnd"`
	PD           json.Number `json:"pd"`
	ChDeEq       json.Number `json:"ch_de_eq"`
	ChdDeEq      json.Number `json:"chd_de_eq"`
	ChiDeEq      json.Number `json:"chi_de_eq"`
	ChdiDeEq     json.Number `json:"chdi_de_eq"`
	ChDaMo       json.Number `json:"ch_da_mo"`
	ChdDaMo      json.Number `json:"chd_da_mo"`
	CHE          json.Number `json:"che"`
	CHDE         json.Number `json:"chde"`
	ChIncidencia json.Number `json:"ch_incidencia"`
	CTF          json.Number `json:"ctf"`
	CTFD         json.Number `json:"ctfd"`
	CUOI         json.Number `json:"cuoi"`
	CUOID        json.Number `json:"cuoid"`
	CCA          json.Number `json:"cca"`
	CCAD         json.Number `json:"ccad"`
	CUMO         json.Number `json:"cumo"`
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
func (h *handlers) compositionDoc(pc *domain.PricedComposition, withItems bool) *compositionDoc {
	c := pc.Composition
	num := httpapi.Num
	p := pc.Prices
	d := &compositionDoc{
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
		Prices: pricesDoc{
			PND: num(p.PND), PD: num(p.PD),
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

// Attributes a composition create or update may carry.
var (
	aCode           = attr{app: "code", names: []string{"code"}, kind: "string"}
	aSecondCode     = attr{app: "second_code", names: []string{"secondary_code"}, kind: "string"}
	aDescription    = attr{app: "description", names: []string{"description"}, kind: "string"}
	aCompType       = attr{app: "type", names: []string{"composition_type", "type"}, kind: "string"}
	aUnit           = attr{app: "unit", names: []string{"unit"}, kind: "string"}
	aLocation       = attr{app: "state", names: []string{"location"}, kind: "string"}
	aIsSicro        = attr{app: "is_sicro", names: []string{"is_sicro"}, kind: "boolean"}
	aLabor          = attr{app: "labor", names: []string{"labor"}, kind: "boolean"}
	aRounding       = attr{app: "rounding_type", names: []string{"rounding_type"}, kind: "integer"}
	aNote           = attr{app: "note", names: []string{"note"}, kind: "string"}
	aTeamProduction = attr{app: "team_production", names: []string{"team_production"}, kind: "number"}
	aFIC            = attr{app: "fic", names: []string{"fic"}, kind: "number"}
	aLaborAddition  = attr{app: "adc_labor", names: []string{"labor_addition"}, kind: "number"}
)

// compositionReadOnly are the attributes v2 writes and never reads.
var compositionReadOnly = []string{"created_at", "prices", "banks", "items", "omitted_items", "incomplete", "missing"}

// compositionPatch reads the attributes of a composition create or update.
func compositionPatch(b *attrBody) app.CompositionPatch {
	return app.CompositionPatch{
		GroupID:        readGroup(b),
		Code:           read[string](b, aCode),
		SecondCode:     read[string](b, aSecondCode),
		Description:    read[string](b, aDescription),
		Type:           read[string](b, aCompType),
		Unit:           read[string](b, aUnit),
		State:          read[string](b, aLocation),
		IsSicro:        read[bool](b, aIsSicro),
		Labor:          read[bool](b, aLabor),
		Rounding:       readRounding(b),
		Note:           read[string](b, aNote),
		TeamProduction: readNumber(b, aTeamProduction),
		FIC:            readNumber(b, aFIC),
		LaborAddition:  readNumber(b, aLaborAddition),
	}
}

// readRounding reads the calculation method: rounding_type (an integer of
// the calculation_methods catalogue) or calculation_method, as v2 writes it
// ({"type": 2, "description": "…"}, the description, which the type
// determines, not read) or as its type alone. Both given must agree.
func readRounding(b *attrBody) *domain.RoundingMethod {
	rt := readWhole[domain.RoundingMethod](b, aRounding)
	const name = "calculation_method"
	raw, ok := b.attrs[name]
	if !ok {
		return rt
	}
	b.used[name] = true
	ptr := b.attrPointer(name)
	var cm domain.RoundingMethod
	if err := json.Unmarshal(raw, &cm); err != nil {
		var o struct {
			Type        *domain.RoundingMethod `json:"type"`
			Description *string                `json:"description"`
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil || o.Type == nil {
			b.bad.Add(ptr, `must be an integer of the calculation_methods catalogue or an object {"type": integer, "description": text}`)
			return nil
		}
		cm = *o.Type
	}
	if rt != nil {
		if *rt != cm {
			b.wrong.Add(b.ptrs[aRounding.app], disagree, "rounding_type", name)
			b.wrong.Add(ptr, disagree, "rounding_type", name)
			return nil
		}
		return rt
	}
	b.ptrs[aRounding.app] = ptr
	return &cm
}

// listCompositions handles GET /my_database/compositions: a page of the
// company's compositions, without their items (counted in omitted_items);
// sort and filter[…] on the fields app.Service.Compositions names.
func (h *handlers) listCompositions(w http.ResponseWriter, r *http.Request) {
	lq, err := h.parseList(r, groupedRels...)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	list, total, err := h.env.App.Compositions(r.Context(), principal(r), lq.app)
	if err != nil {
		h.writeError(w, r, asParamErrors(err))
		return
	}
	docs := make([]*compositionDoc, len(list))
	for i, pc := range list {
		docs[i] = h.compositionDoc(pc, false)
	}
	h.writeCompound(w, r, http.StatusOK, docs, lq.page.links(r, total), totalMeta(total), lq.include)
}

// createComposition handles POST /my_database/compositions: 201 with the
// composition and its Location.
func (h *handlers) createComposition(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	b, err := decodeAttrs(r, "compositions", "")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	pt := compositionPatch(b)
	if err := b.finish(compositionReadOnly...); err != nil {
		h.writeError(w, r, err)
		return
	}
	in := app.CompositionInput{
		GroupID: deref(pt.GroupID), Code: deref(pt.Code), SecondCode: deref(pt.SecondCode),
		Description: deref(pt.Description), Type: deref(pt.Type), Unit: deref(pt.Unit),
		State: deref(pt.State), IsSicro: deref(pt.IsSicro), Labor: deref(pt.Labor),
		Rounding: deref(pt.Rounding), Note: deref(pt.Note),
		TeamProduction: deref(pt.TeamProduction), FIC: deref(pt.FIC), LaborAddition: deref(pt.LaborAddition),
	}
	pc, err := h.env.App.CreateComposition(b.context(r), principal(r), in)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	w.Header().Set("Location", created(r, pc.ID))
	h.writeDoc(w, r, http.StatusCreated, h.compositionDoc(pc, true))
}

// findComposition handles GET /my_database/compositions/find_by_code?code=&state=
// (include=user,sector,group).
func (h *handlers) findComposition(w http.ResponseWriter, r *http.Request) {
	q, inc, err := readQuery(r, groupedRels, "code", "state")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := required(q, "code", "state"); err != nil {
		h.writeError(w, r, err)
		return
	}
	pc, err := h.env.App.CompositionByCode(r.Context(), principal(r), q.Get("code"), q.Get("state"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeRead(w, r, h.compositionDoc(pc, true), inc)
}

// getComposition handles GET /my_database/compositions/{id}
// (include=user,sector,group).
func (h *handlers) getComposition(w http.ResponseWriter, r *http.Request) {
	_, inc, err := readQuery(r, groupedRels)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	pc, err := h.env.App.Composition(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeRead(w, r, h.compositionDoc(pc, true), inc)
}

// updateComposition handles PATCH /my_database/compositions/{id}: only the
// attributes the body names change.
func (h *handlers) updateComposition(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	b, err := decodeAttrs(r, "compositions", id)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	pt := compositionPatch(b)
	if err := b.finish(compositionReadOnly...); err != nil {
		h.writeError(w, r, err)
		return
	}
	pc, err := h.env.App.UpdateComposition(b.context(r), principal(r), id, pt)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.compositionDoc(pc, true))
}

// deleteComposition handles DELETE /my_database/compositions/{id}: 204.
func (h *handlers) deleteComposition(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := h.env.App.DeleteComposition(r.Context(), principal(r), chi.URLParam(r, "id")); err != nil {
		h.writeError(w, r, err)
		return
	}
	noContent(w)
}

// bankIn is one entry of an add_banks body.
type bankIn struct {
	Name     string `json:"name"`
	Location string `json:"location"`
	Version  string `json:"version"`
	Status   bool   `json:"status"`
	Region   string `json:"region"`
}

// addBanks handles POST /my_database/compositions/{id}/add_banks
// {"banks":[{name, location, version, status, region}]}: status is the report
// flag (relatorio).
func (h *handlers) addBanks(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	var body struct {
		Banks []bankIn `json:"banks"`
	}
	if err := httpapi.DecodeJSON(r, &body); err != nil {
		h.writeError(w, r, err)
		return
	}
	in := make([]app.BankInput, len(body.Banks))
	for i, b := range body.Banks {
		in[i] = app.BankInput{Name: b.Name, State: b.Location, Month: b.Version, Region: b.Region, Report: b.Status}
	}
	pc, err := h.env.App.AddBanks(r.Context(), principal(r), chi.URLParam(r, "id"), in)
	h.writeComposition(w, r, pc, err)
}

// itemIn is one entry of an add_items or remove_items body. resource true
// names a resource, false a composition; left out, the app resolves the
// kind from the code.
type itemIn struct {
	Bank        string `json:"bank"`
	Code        string `json:"code"`
	Quantity    number `json:"quantity"`
	Resource    *bool  `json:"resource"`
	Utilization number `json:"utilization"`
}

func (it itemIn) kind() domain.ItemKind {
	switch {
	case it.Resource == nil:
		return ""
	case *it.Resource:
		return domain.KindResource
	}
	return domain.KindComposition
}

// addItems handles POST /my_database/compositions/{id}/add_items
// {"items":[{bank, code, quantity, resource}]}. An item already there gets
// the new quantity. Either every item is added or, with 422 naming each bad
// item, none.
func (h *handlers) addItems(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	var body struct {
		Items []itemIn `json:"items"`
	}
	if err := httpapi.DecodeJSON(r, &body); err != nil {
		h.writeError(w, r, err)
		return
	}
	in := make([]app.ItemInput, len(body.Items))
	for i, it := range body.Items {
		in[i] = app.ItemInput{Bank: it.Bank, Code: it.Code, Kind: it.kind(), Quantity: it.Quantity.D,
			Utilization: decimal.NullDecimal{Decimal: it.Utilization.D, Valid: it.Utilization.Set}}
	}
	pc, err := h.env.App.AddItems(httpapi.RejectNumbers(r.Context(), body, ""), principal(r), chi.URLParam(r, "id"), in)
	h.writeComposition(w, r, pc, err)
}

// removeItems handles DELETE /my_database/compositions/{id}/remove_items
// {"items":[{bank, code, resource}]}.
func (h *handlers) removeItems(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	var body struct {
		Items []itemIn `json:"items"`
	}
	if err := httpapi.DecodeJSON(r, &body); err != nil {
		h.writeError(w, r, err)
		return
	}
	refs := make([]app.ItemRef, len(body.Items))
	for i, it := range body.Items {
		refs[i] = app.ItemRef{Bank: it.Bank, Code: it.Code, Kind: it.kind()}
	}
	pc, err := h.env.App.RemoveItems(r.Context(), principal(r), chi.URLParam(r, "id"), refs)
	h.writeComposition(w, r, pc, err)
}

// writeComposition answers 200 with a composition and all its items, or the error.
func (h *handlers) writeComposition(w http.ResponseWriter, r *http.Request, pc *domain.PricedComposition, err error) {
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.compositionDoc(pc, true))
}

// principal is the authenticated caller.
func principal(r *http.Request) domain.Principal { return httpapi.PrincipalFrom(r.Context()) }

// created is the Location of a record just created under the collection
// the request was sent to.
func created(r *http.Request, id string) string {
	return strings.TrimSuffix(r.URL.Path, "/") + "/" + id
}

// required refuses (400) a request without the query parameters named.
func required(q map[string][]string, names ...string) error {
	var errs paramErrors
	for _, n := range names {
		if len(q[n]) == 0 || strings.TrimSpace(q[n][0]) == "" {
			errs = append(errs, &paramError{Param: n, Message: "is required"})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
