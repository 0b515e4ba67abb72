package v1

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

type calculationMethod struct {
	Type        int    `json:"type"`
	Description string `json:"description"`
}

// bankBody is one bank edition of a composition: regiao is the edition's
// region, or the region the client sent for a bank without regions;
// with_labor_charges is shown when the client sent it.
type bankBody struct {
	Data             string `json:"data"`
	Estado           string `json:"estado"`
	Regiao           string `json:"regiao,omitempty"`
	Relatorio        bool   `json:"relatorio"`
	WithLaborCharges *bool  `json:"with_labor_charges,omitempty"`
}

// compositionCreateRequest is the body of a create. `local` is the state;
// is_sicro chooses the model (SICRO: team_production, fic, adc_labor);
// rounding_type (1–4) is optional and defaults to the model's method.
type compositionCreateRequest struct {
	GroupID        string   `json:"group_id"`
	Code           string   `json:"code"`
	SecondCode     string   `json:"second_code"`
	Description    string   `json:"description"`
	Type           string   `json:"type"`
	Unit           string   `json:"unit"`
	Local          string   `json:"local"`
	IsSicro        bool     `json:"is_sicro"`
	Labor          bool     `json:"labor"`
	RoundingType   whole    `json:"rounding_type"`
	Note           string   `json:"note"`
	Tags           []string `json:"tags"`
	TeamProduction number   `json:"team_production"`
	FIC            number   `json:"fic"`
	AdcLabor       number   `json:"adc_labor"`
	// The names a read shows, accepted back (aliases.go).
	State             string          `json:"state"`
	CalculationMethod calcMethodInput `json:"calculation_method"`
}

// input maps the request to the app input, or EINVALID when two names of
// one field disagree.
func (in compositionCreateRequest) input() (app.CompositionInput, error) {
	state, err := pickState(nonEmpty(in.Local), nonEmpty(in.State))
	if err != nil {
		return app.CompositionInput{}, err
	}
	rounding, err := pickRounding(nonZero(in.RoundingType.N), in.CalculationMethod)
	if err != nil {
		return app.CompositionInput{}, err
	}
	out := app.CompositionInput{
		GroupID: in.GroupID, Code: in.Code, SecondCode: in.SecondCode, Description: in.Description,
		Type: in.Type, Unit: in.Unit, IsSicro: in.IsSicro, Labor: in.Labor,
		Note: in.Note, Tags: in.Tags,
		TeamProduction: in.TeamProduction.D, FIC: in.FIC.D, LaborAddition: in.AdcLabor.D,
	}
	if state != nil {
		out.State = *state
	}
	if rounding != nil {
		out.Rounding = domain.RoundingMethod(*rounding)
	}
	return out, nil
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nonZero(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// compositionUpdateRequest is the body of an update: the create body,
// applied as a patch (keys absent or null stay as they are). An id, when
// sent, must equal the id in the path; company_id, user_id and
// department_id are ignored. Banks and items change only through add-bases,
// add-items and remove-items.
type compositionUpdateRequest struct {
	ID             *string   `json:"id"`
	GroupID        *string   `json:"group_id"`
	Code           *string   `json:"code"`
	SecondCode     *string   `json:"second_code"`
	Description    *string   `json:"description"`
	Type           *string   `json:"type"`
	Unit           *string   `json:"unit"`
	Local          *string   `json:"local"`
	IsSicro        *bool     `json:"is_sicro"`
	Labor          *bool     `json:"labor"`
	RoundingType   whole     `json:"rounding_type"`
	Note           *string   `json:"note"`
	Tags           *[]string `json:"tags"`
	TeamProduction number    `json:"team_production"`
	FIC            number    `json:"fic"`
	AdcLabor       number    `json:"adc_labor"`
	// The names a read shows, accepted back (aliases.go).
	State             *string         `json:"state"`
	CalculationMethod calcMethodInput `json:"calculation_method"`
}

// patch maps the request to the app patch, or EINVALID when the body names
// an id other than the path's or two names of one field disagree.
func (in compositionUpdateRequest) patch(pathID string) (app.CompositionPatch, error) {
	if err := checkBodyID(in.ID, pathID); err != nil {
		return app.CompositionPatch{}, err
	}
	state, err := pickState(in.Local, in.State)
	if err != nil {
		return app.CompositionPatch{}, err
	}
	roundingType, err := pickRounding(in.RoundingType.ptr(), in.CalculationMethod)
	if err != nil {
		return app.CompositionPatch{}, err
	}
	var rounding *domain.RoundingMethod
	if roundingType != nil {
		m := domain.RoundingMethod(*roundingType)
		rounding = &m
	}
	return app.CompositionPatch{
		GroupID: in.GroupID, Code: in.Code, SecondCode: in.SecondCode, Description: in.Description,
		Type: in.Type, Unit: in.Unit, State: state, IsSicro: in.IsSicro, Labor: in.Labor,
		Rounding: rounding, Note: in.Note, Tags: in.Tags,
		TeamProduction: in.TeamProduction.ptr(), FIC: in.FIC.ptr(), LaborAddition: in.AdcLabor.ptr(),
	}, nil
}

// fields names the fields of the update's errors as the body sent them.
func (in compositionUpdateRequest) fields() fieldMapper {
	return compositionFieldsAs(in.Local == nil && in.State != nil, !in.RoundingType.Set && in.CalculationMethod.Set)
}

// fields names the fields of the create's errors as the body sent them.
func (in compositionCreateRequest) fields() fieldMapper {
	return compositionFieldsAs(in.Local == "" && in.State != "", in.RoundingType.N == 0 && in.CalculationMethod.Set)
}

// compositionFieldsAs names a composition's fields with the spellings the
// request used: `state` or `local`, `calculation_method` or `rounding_type`.
func compositionFieldsAs(sentState, sentMethod bool) fieldMapper {
	table := map[string]string{"state": "local"}
	if sentState {
		delete(table, "state")
	}
	if sentMethod {
		table["rounding_type"] = "calculation_method"
	}
	return renamed(table)
}

func (h *handler) listCompositions(w http.ResponseWriter, r *http.Request) {
	pg, err := parsePagination(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	cs, total, err := h.env.App.Compositions(r.Context(), principal(r), pg.query(r, true))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, envelope(pg, total, cs, h.composition))
}

func (h *handler) createComposition(w http.ResponseWriter, r *http.Request) {
	var in compositionCreateRequest
	svc, ok := h.decode(w, r, &in)
	if !ok {
		return
	}
	input, err := in.input()
	if err != nil {
		h.fail(w, r, err)
		return
	}
	pc, err := svc.CreateComposition(r.Context(), principal(r), input)
	if err != nil {
		h.failAs(w, r, err, in.fields())
		return
	}
	h.write(w, http.StatusCreated, h.composition(pc))
}

func (h *handler) getComposition(w http.ResponseWriter, r *http.Request) {
	pc, err := h.env.App.Composition(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, h.composition(pc))
}

// findComposition answers GET /find_by_code?code=[&state=]: a code is unique
// per state. Without state (as real clients ask), the code's composition
// when the company has it in one state; in several, 422 on state listing
// them; in none, 404.
func (h *handler) findComposition(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	code, state := q.Get("code"), q.Get("state")
	var v domain.Validation
	if code == "" {
		v.Add("/code", "is required")
	}
	if err := v.Err(); err != nil {
		h.fail(w, r, err)
		return
	}
	pc, err := h.env.App.CompositionByCode(r.Context(), principal(r), code, state)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, h.composition(pc))
}

func (h *handler) updateComposition(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	var in compositionUpdateRequest
	svc, ok := h.decode(w, r, &in)
	if !ok {
		return
	}
	patch, err := in.patch(id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	pc, err := svc.UpdateComposition(r.Context(), principal(r), id, patch)
	if err != nil {
		h.failAs(w, r, err, in.fields())
		return
	}
	h.write(w, http.StatusOK, h.composition(pc))
}

// deleteComposition deletes a composition: 200 {"message": "deleted"}, or
// 409 while another composition uses it.
func (h *handler) deleteComposition(w http.ResponseWriter, r *http.Request) {
	if err := h.env.App.DeleteComposition(r.Context(), principal(r), chi.URLParam(r, "id")); err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, deleted)
}

// addItemsRequest is the body of add-items. An item may say what its code
// is, as real clients do: `type` ("resource" or "composition") or
// `is_resource` (true or false); both together must agree. Without either,
// the app resolves the kind from the code (a code that is both a
// composition and a resource in the bank is the composition).
type addItemsRequest struct {
	Items list[itemRequest] `json:"items"`
}

type itemRequest struct {
	Bank       string `json:"bank"`
	Code       string `json:"code"`
	Qty        number `json:"qty"`
	Type       string `json:"type"`
	IsResource *bool  `json:"is_resource"`
}

// kind is the kind the item's hints name ("" for none), or EINVALID naming
// a bad type or the two hints when they disagree.
func (it itemRequest) kind(ptr string) (domain.ItemKind, error) {
	var byType, byFlag domain.ItemKind
	switch t := it.Type; t {
	case "":
	case string(domain.KindResource), string(domain.KindComposition):
		byType = domain.ItemKind(t)
	default:
		return "", domain.FieldErrorf(ptr+"/type", "must be resource or composition")
	}
	if it.IsResource != nil {
		byFlag = domain.KindComposition
		if *it.IsResource {
			byFlag = domain.KindResource
		}
	}
	if byType != "" && byFlag != "" && byType != byFlag {
		var v domain.Validation
		v.Add(ptr+"/type", "is %s but is_resource says %s; send one of them, or both agreeing", byType, byFlag)
		v.Add(ptr+"/is_resource", "says %s but type is %s; send one of them, or both agreeing", byFlag, byType)
		return "", v.Err()
	}
	if byType != "" {
		return byType, nil
	}
	return byFlag, nil
}

// NumberErrors implements httpapi.NumberErrorer: the quantity is named as
// the use case names it ("/items/2/quantity"; itemFields shows it as qty).
func (it itemRequest) NumberErrors(ptr string) []domain.FieldError {
	return httpapi.NumberErrors(it.Qty, ptr+"/quantity")
}

// itemFields names the fields of add-items, whose quantity is `qty`.
var itemFields = renamed(map[string]string{"quantity": "qty"})

func (h *handler) addItems(w http.ResponseWriter, r *http.Request) {
	var in addItemsRequest
	svc, ok := h.decode(w, r, &in)
	if !ok {
		return
	}
	items := make([]app.ItemInput, len(in.Items))
	var v domain.Validation
	for i, it := range in.Items {
		kind, err := it.kind("/items/" + strconv.Itoa(i))
		if err := v.Merge("", err); err != nil {
			h.fail(w, r, err)
			return
		}
		items[i] = app.ItemInput{Bank: it.Bank, Code: it.Code, Kind: kind, Quantity: it.Qty.D, BankRequired: true}
	}
	if err := v.Err(); err != nil {
		h.failAs(w, r, err, itemFields)
		return
	}
	pc, err := svc.AddItems(r.Context(), principal(r), chi.URLParam(r, "id"), items)
	if err != nil {
		h.failAs(w, r, err, itemFields)
		return
	}
	h.write(w, http.StatusOK, h.composition(pc))
}

// addBasesRequest is the body of add-bases: each base is a bank edition,
// `status` its report flag (`relatorio` in the answer), `region` the
// edition's region (kept and shown back but not looked up for a bank without
// regions), `with_labor_charges` the regime the client prices it in (true
// não desonerado, false desonerado; the edition must have those prices).
type addBasesRequest struct {
	Bases list[baseRequest] `json:"bases"`
}

type baseRequest struct {
	Name             string `json:"name"`
	Local            string `json:"local"`
	Version          string `json:"version"`
	Status           bool   `json:"status"`
	Region           string `json:"region"`
	WithLaborCharges *bool  `json:"with_labor_charges"`
}

// baseFields names the fields of add-bases.
var baseFields = renamed(map[string]string{"banks": "bases", "location": "local"})

func (h *handler) addBases(w http.ResponseWriter, r *http.Request) {
	var in addBasesRequest
	svc, ok := h.decode(w, r, &in)
	if !ok {
		return
	}
	banks := make([]app.BankInput, len(in.Bases))
	for i, b := range in.Bases {
		banks[i] = app.BankInput{Name: b.Name, State: b.Local, Month: b.Version, Region: b.Region, Report: b.Status, WithLaborCharges: b.WithLaborCharges}
	}
	pc, err := svc.AddBanks(r.Context(), principal(r), chi.URLParam(r, "id"), banks)
	if err != nil {
		h.failAs(w, r, err, baseFields)
		return
	}
	h.write(w, http.StatusOK, h.composition(pc))
}

// removeItemsRequest is the body of remove-items: codes of compositions and
// of resources, from any bank.
type removeItemsRequest struct {
	Compositions list[codeRequest] `json:"compositions"`
	Resources    list[codeRequest] `json:"resources"`
}

type codeRequest struct {
	Code string `json:"code"`
}

func (h *handler) removeItems(w http.ResponseWriter, r *http.Request) {
	var in removeItemsRequest
	svc, ok := h.decode(w, r, &in)
	if !ok {
		return
	}
	refs := make([]app.ItemRef, 0, len(in.Compositions)+len(in.Resources))
	for _, c := range in.Compositions {
		refs = append(refs, app.ItemRef{Code: c.Code, Kind: domain.KindComposition})
	}
	for _, res := range in.Resources {
		refs = append(refs, app.ItemRef{Code: res.Code, Kind: domain.KindResource})
	}
	pc, err := svc.RemoveItems(r.Context(), principal(r), chi.URLParam(r, "id"), refs)
	if err != nil {
		h.failAs(w, r, err, removeFields(len(in.Compositions)))
		return
	}
	h.write(w, http.StatusOK, h.composition(pc))
}

// removeFields names the fields of remove-items: the app numbers the
// compositions, then the resources, as one list of items; an error about
// the list as a whole (nothing to remove) names both lists.
func removeFields(nComps int) fieldMapper {
	return func(ptr string) []string {
		rest, ok := strings.CutPrefix(ptr, "/items")
		if !ok {
			return plainFields(ptr)
		}
		if rest == "" {
			return []string{"compositions", "resources"}
		}
		idx, tail, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
		i, err := strconv.Atoi(idx)
		if err != nil {
			return plainFields(ptr)
		}
		list := "compositions"
		if i >= nComps {
			list, i = "resources", i-nComps
		}
		return plainFields("/" + list + "/" + strconv.Itoa(i) + "/" + tail)
	}
}
