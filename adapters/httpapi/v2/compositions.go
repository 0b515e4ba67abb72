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
	aTags           = attr{app: "tags", names: []string{"tags"}, kind: "array of strings"}
	aTeamProduction = attr{app: "team_production", names: []string{"team_production"}, kind: "number"}
	aFIC            = attr{app: "fic", names: []string{"fic"}, kind: "number"}
	aLaborAddition  = attr{app: "adc_labor", names: []string{"labor_addition"}, kind: "number"}
	aLabourCharges  = attr{app: "labour_charges", names: []string{"labour_charges"}, kind: "number or null"}
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
		Tags:           read[[]string](b, aTags),
		TeamProduction: readNumber(b, aTeamProduction),
		FIC:            readNumber(b, aFIC),
		LaborAddition:  readNumber(b, aLaborAddition),
		LabourCharges:  readNullNumber(b, aLabourCharges),
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
	docs, objs := make([]*compositionDoc, len(list)), make([]compositionDoc, len(list))
	for i, pc := range list {
		objs[i] = compositionDoc{env: h.env, pc: pc}
		docs[i] = &objs[i]
	}
	h.writeCompound(w, r, http.StatusOK, docs, lq.page.links(r, total), totalMeta(total), lq.include)
}

// createComposition handles POST /my_database/compositions: 201 with the
// composition and its Location.
func (h *handlers) createComposition(w http.ResponseWriter, r *http.Request) {
	b, pt, ok := readPatch(h, w, r, "compositions", "", compositionPatch, compositionReadOnly...)
	if !ok {
		return
	}
	in := app.CompositionInput{
		GroupID: deref(pt.GroupID), Code: deref(pt.Code), SecondCode: deref(pt.SecondCode),
		Description: deref(pt.Description), Type: deref(pt.Type), Unit: deref(pt.Unit),
		State: deref(pt.State), IsSicro: deref(pt.IsSicro), Labor: deref(pt.Labor),
		Rounding: deref(pt.Rounding), Note: deref(pt.Note), Tags: deref(pt.Tags),
		TeamProduction: deref(pt.TeamProduction), FIC: deref(pt.FIC), LaborAddition: deref(pt.LaborAddition),
		LabourCharges: deref(pt.LabourCharges),
	}
	pc, err := h.env.App.Rejecting(b.rejected).CreateComposition(r.Context(), principal(r), in)
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
	b, pt, ok := readPatch(h, w, r, "compositions", id, compositionPatch, compositionReadOnly...)
	if !ok {
		return
	}
	pc, err := h.env.App.Rejecting(b.rejected).UpdateComposition(r.Context(), principal(r), id, pt)
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
	var body struct {
		Banks []bankIn `json:"banks"`
	}
	if !h.readBody(w, r, &body) {
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

// itemsBody is the body of add_items and remove_items.
type itemsBody struct {
	Items []itemIn `json:"items"`
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
	var body itemsBody
	if !h.readBody(w, r, &body) {
		return
	}
	in := make([]app.ItemInput, len(body.Items))
	for i, it := range body.Items {
		in[i] = app.ItemInput{Bank: it.Bank, Code: it.Code, Kind: it.kind(), Quantity: it.Quantity.D,
			Utilization: decimal.NullDecimal{Decimal: it.Utilization.D, Valid: it.Utilization.Set}}
	}
	pc, err := h.env.RejectNumbers(body, "").AddItems(r.Context(), principal(r), chi.URLParam(r, "id"), in)
	h.writeComposition(w, r, pc, err)
}

// removeItems handles DELETE /my_database/compositions/{id}/remove_items
// {"items":[{bank, code, resource}]}.
func (h *handlers) removeItems(w http.ResponseWriter, r *http.Request) {
	var body itemsBody
	if !h.readBody(w, r, &body) {
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
