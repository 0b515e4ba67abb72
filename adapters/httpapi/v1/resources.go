package v1

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// resourceCreated is the answer of a create: `locals` keyed by the state
// sent as `local`, no is_sicro. group_id and second_code are null when empty.
type resourceCreated struct {
	ID           string         `json:"id"`
	CompanyID    string         `json:"company_id"`
	UserID       string         `json:"user_id"`
	DepartmentID string         `json:"department_id"`
	GroupID      *string        `json:"group_id"`
	Code         string         `json:"code"`
	SecondCode   *string        `json:"second_code"`
	Description  string         `json:"description"`
	Type         int            `json:"type"`
	Unit         string         `json:"unit"`
	Locals       map[string]any `json:"locals"`
	Status       bool           `json:"status"`
	Note         string         `json:"note"`
	Tags         []string       `json:"tags,omitempty"`
}

// resourceUpdated is the answer of an update: the secondary code as code_2
// (a string) and the prices as `local`. group_id is null when empty.
type resourceUpdated struct {
	ID           string         `json:"id"`
	CompanyID    string         `json:"company_id"`
	UserID       string         `json:"user_id"`
	DepartmentID string         `json:"department_id"`
	GroupID      *string        `json:"group_id"`
	Code         string         `json:"code"`
	Code2        string         `json:"code_2"`
	Description  string         `json:"description"`
	Type         int            `json:"type"`
	Unit         string         `json:"unit"`
	Local        map[string]any `json:"local"`
	IsSicro      bool           `json:"is_sicro"`
	Status       bool           `json:"status"`
	Note         string         `json:"note"`
	Tags         []string       `json:"tags,omitempty"`
}

// priceBody is a state's four prices.
type priceBody struct {
	PND  json.Number `json:"pnd"`
	PD   json.Number `json:"pd"`
	PNDI json.Number `json:"pndi"`
	PDI  json.Number `json:"pdi"`
}

// locals writes the prices per state: the four-price object, or for a SICRO
// resource a single number, its pnd (seed rule 1).
func locals(r *domain.Resource) map[string]any {
	out := make(map[string]any, len(r.Locals))
	for st, p := range r.Locals {
		if r.IsSicro {
			out[st] = httpapi.Num(p.PND)
			continue
		}
		out[st] = priceBody{PND: httpapi.Num(p.PND), PD: httpapi.Num(p.PD), PNDI: httpapi.Num(p.PNDI), PDI: httpapi.Num(p.PDI)}
	}
	return out
}

// nullable writes "" as null.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// resourceCreateRequest is the body of a create: the prices of one state,
// named by `local`, at the top level. For a SICRO resource (one price per
// state) a price left out takes the value of pnd.
type resourceCreateRequest struct {
	GroupID     string   `json:"group_id"`
	Code        string   `json:"code"`
	SecondCode  string   `json:"second_code"`
	Description string   `json:"description"`
	Type        whole    `json:"type"`
	Unit        string   `json:"unit"`
	Local       string   `json:"local"`
	PND         number   `json:"pnd"`
	PD          number   `json:"pd"`
	PNDI        number   `json:"pndi"`
	PDI         number   `json:"pdi"`
	IsSicro     bool     `json:"is_sicro"`
	Status      bool     `json:"status"`
	Note        string   `json:"note"`
	Tags        []string `json:"tags"`
}

func (in resourceCreateRequest) input() app.ResourceInput {
	line := domain.PriceLine{PND: in.PND.D, PD: in.PD.D, PNDI: in.PNDI.D, PDI: in.PDI.D}
	return app.ResourceInput{
		GroupID: in.GroupID, Code: in.Code, SecondCode: in.SecondCode, Description: in.Description,
		Type: in.Type.N, Unit: in.Unit, IsSicro: in.IsSicro, Status: in.Status, Note: in.Note, Tags: in.Tags,
		Locals: map[string]domain.PriceLine{in.Local: line},
	}
}

// NumberErrors implements httpapi.NumberErrorer: the prices are named as
// the use case names them ("/locals/MG/pnd"; createResourceFields shows
// them as pnd).
func (in resourceCreateRequest) NumberErrors(ptr string) []domain.FieldError {
	at := ptr + "/locals/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(in.Local)
	out := httpapi.NumberErrors(in.Type, ptr+"/type")
	for _, p := range []struct {
		name string
		n    number
	}{{"pnd", in.PND}, {"pd", in.PD}, {"pndi", in.PNDI}, {"pdi", in.PDI}} {
		out = append(out, httpapi.NumberErrors(p.n, at+"/"+p.name)...)
	}
	return out
}

// createResourceFields names the fields of a create: the prices of the one
// state sit at the top level, and a bad state is the `local` field.
func createResourceFields(ptr string) []string {
	if rest, ok := strings.CutPrefix(ptr, "/locals/"); ok {
		if _, price, ok := strings.Cut(rest, "/"); ok {
			return plainFields("/" + price)
		}
		return []string{"local"}
	}
	return plainFields(ptr)
}

// resourceUpdateRequest is the body of an update: the full record as v1
// clients send it, applied as a patch (keys absent or null stay as they
// are). company_id, user_id and department_id are set by the server and
// ignored; an id, when sent, must equal the id in the path. `locals`, when
// sent, replaces the whole map of prices.
type resourceUpdateRequest struct {
	ID          *string     `json:"id"`
	GroupID     *string     `json:"group_id"`
	Code        *string     `json:"code"`
	SecondCode  *string     `json:"second_code"`
	Description *string     `json:"description"`
	Type        whole       `json:"type"`
	Unit        *string     `json:"unit"`
	Locals      localsInput `json:"locals"`
	IsSicro     *bool       `json:"is_sicro"`
	Status      *bool       `json:"status"`
	Note        *string     `json:"note"`
	Tags        *[]string   `json:"tags"`
	// The names the update answer shows, accepted back (aliases.go).
	Code2 *string     `json:"code_2"`
	Local updateLocal `json:"local"`
}

// patch maps the request to the app patch, or EINVALID when the body names
// an id other than the path's or two names of one field disagree.
func (in resourceUpdateRequest) patch(pathID string) (app.ResourcePatch, error) {
	if err := checkBodyID(in.ID, pathID); err != nil {
		return app.ResourcePatch{}, err
	}
	second, err := pickSecondCode(in.SecondCode, in.Code2)
	if err != nil {
		return app.ResourcePatch{}, err
	}
	locals, err := pickLocals(in.Locals, in.Local.Locals)
	if err != nil {
		return app.ResourcePatch{}, err
	}
	return app.ResourcePatch{
		GroupID: in.GroupID, Code: in.Code, SecondCode: second, Description: in.Description,
		Type: in.Type.ptr(), Unit: in.Unit, IsSicro: in.IsSicro, Status: in.Status, Note: in.Note, Tags: in.Tags,
		Locals: locals.lines(),
	}, nil
}

func (h *handler) listResources(w http.ResponseWriter, r *http.Request) {
	pg, err := parsePagination(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	rs, total, err := h.env.App.Resources(r.Context(), principal(r), pg.query(r, true))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, envelope(pg, total, rs, resourceToRecord))
}

func (h *handler) createResource(w http.ResponseWriter, r *http.Request) {
	var in resourceCreateRequest
	svc, ok := h.decode(w, r, &in)
	if !ok {
		return
	}
	res, err := svc.CreateResource(r.Context(), principal(r), in.input())
	if err != nil {
		h.failAs(w, r, err, createResourceFields)
		return
	}
	h.write(w, http.StatusCreated, resourceCreated{
		ID: res.ID, CompanyID: res.CompanyID, UserID: res.UserID, DepartmentID: res.DepartmentID,
		GroupID: nullable(res.GroupID), Code: res.Code, SecondCode: nullable(res.SecondCode),
		Description: res.Description, Type: res.Type, Unit: res.Unit, Locals: locals(res),
		Status: res.Status, Note: res.Note, Tags: res.Tags,
	})
}

func (h *handler) getResource(w http.ResponseWriter, r *http.Request) {
	res, err := h.env.App.Resource(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, resourceToRecord(res))
}

// findResource answers GET /find_by_code?code=.
func (h *handler) findResource(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("code")
	if code == "" {
		h.fail(w, r, domain.FieldErrorf("/code", "is required"))
		return
	}
	res, err := h.env.App.ResourceByCode(r.Context(), principal(r), code)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, resourceToRecord(res))
}

func (h *handler) updateResource(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	var in resourceUpdateRequest
	svc, ok := h.decode(w, r, &in)
	if !ok {
		return
	}
	patch, err := in.patch(id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	res, err := svc.UpdateResource(r.Context(), principal(r), id, patch)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, resourceUpdated{
		ID: res.ID, CompanyID: res.CompanyID, UserID: res.UserID, DepartmentID: res.DepartmentID,
		GroupID: nullable(res.GroupID), Code: res.Code, Code2: res.SecondCode,
		Description: res.Description, Type: res.Type, Unit: res.Unit, Local: locals(res),
		IsSicro: res.IsSicro, Status: res.Status, Note: res.Note, Tags: res.Tags,
	})
}

// deleteResource deletes a resource: 200 {"message": "deleted"}, or 409
// while a composition uses it.
func (h *handler) deleteResource(w http.ResponseWriter, r *http.Request) {
	if err := h.env.App.DeleteResource(r.Context(), principal(r), chi.URLParam(r, "id")); err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, deleted)
}
