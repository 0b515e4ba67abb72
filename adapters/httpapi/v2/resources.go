package v2

import (
	"net/http"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// priceLineIn is the four prices of a resource in one state, as sent.
type priceLineIn struct {
	PND  number `json:"pnd"`
	PD   number `json:"pd"`
	PNDI number `json:"pndi"`
	PDI  number `json:"pdi"`
}

// Attributes a resource create or update may carry, besides those it shares
// with compositions.
var (
	aResourceType = attr{app: "type", names: []string{"resource_type", "type"}, kind: "integer"}
	aStatus       = attr{app: "status", names: []string{"status"}, kind: "boolean"}
	aLocals       = attr{app: "locals", names: []string{"locals"}, kind: "object of states to {pnd, pd, pndi, pdi}"}
)

var resourceReadOnly = []string{"created_at"}

// resourcePatch reads the attributes of a resource create or update.
func resourcePatch(b *attrBody) app.ResourcePatch {
	pt := app.ResourcePatch{
		GroupID:     readGroup(b),
		Code:        read[string](b, aCode),
		SecondCode:  read[string](b, aSecondCode),
		Description: read[string](b, aDescription),
		Type:        readWhole[int](b, aResourceType),
		Unit:        read[string](b, aUnit),
		IsSicro:     read[bool](b, aIsSicro),
		Status:      read[bool](b, aStatus),
		Note:        read[string](b, aNote),
		Tags:        read[[]string](b, aTags),
	}
	if locals := readNumbers[map[string]priceLineIn](b, aLocals); locals != nil {
		pt.Locals = make(map[string]domain.PriceLine, len(*locals))
		for st, p := range *locals {
			pt.Locals[st] = domain.PriceLine{PND: p.PND.D, PD: p.PD.D, PNDI: p.PNDI.D, PDI: p.PDI.D}
		}
	}
	return pt
}

// listResources handles GET /my_database/resources: page[number],
// page[size], sort and filter[…] on the fields app.Service.Resources names.
func (h *handlers) listResources(w http.ResponseWriter, r *http.Request) {
	lq, err := h.parseList(r, groupedRels...)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	list, total, err := h.env.App.Resources(r.Context(), principal(r), lq.app)
	if err != nil {
		h.writeError(w, r, asParamErrors(err))
		return
	}
	docs, objs := make([]*resourceDoc, len(list)), make([]resourceDoc, len(list))
	for i, res := range list {
		objs[i] = resourceDoc{env: h.env, res: res}
		docs[i] = &objs[i]
	}
	h.writeCompound(w, r, http.StatusOK, docs, lq.page.links(r, total), totalMeta(total), lq.include)
}

// createResource handles POST /my_database/resources: 201 with Location.
func (h *handlers) createResource(w http.ResponseWriter, r *http.Request) {
	b, pt, ok := readPatch(h, w, r, "resources", "", resourcePatch, resourceReadOnly...)
	if !ok {
		return
	}
	in := app.ResourceInput{
		GroupID: deref(pt.GroupID), Code: deref(pt.Code), SecondCode: deref(pt.SecondCode),
		Description: deref(pt.Description), Type: deref(pt.Type), Unit: deref(pt.Unit),
		IsSicro: deref(pt.IsSicro), Status: deref(pt.Status), Note: deref(pt.Note), Tags: deref(pt.Tags), Locals: pt.Locals,
	}
	res, err := h.env.App.Rejecting(b.rejected).CreateResource(r.Context(), principal(r), in)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	w.Header().Set("Location", created(r, res.ID))
	h.writeDoc(w, r, http.StatusCreated, h.resourceDoc(res))
}

// findResource handles GET /my_database/resources/find_by_code?code=
// (include=user,sector,group).
func (h *handlers) findResource(w http.ResponseWriter, r *http.Request) {
	q, inc, err := readQuery(r, groupedRels, "code")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := required(q, "code"); err != nil {
		h.writeError(w, r, err)
		return
	}
	res, err := h.env.App.ResourceByCode(r.Context(), principal(r), q.Get("code"))
	h.writeResource(w, r, res, inc, err)
}

// getResource handles GET /my_database/resources/{id} (include=user,sector,group).
func (h *handlers) getResource(w http.ResponseWriter, r *http.Request) {
	_, inc, err := readQuery(r, groupedRels)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	res, err := h.env.App.Resource(r.Context(), principal(r), chi.URLParam(r, "id"))
	h.writeResource(w, r, res, inc, err)
}

// updateResource handles PATCH /my_database/resources/{id}: only the
// attributes the body names change; locals, when named, replace every state.
func (h *handlers) updateResource(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	b, pt, ok := readPatch(h, w, r, "resources", id, resourcePatch, resourceReadOnly...)
	if !ok {
		return
	}
	res, err := h.env.App.Rejecting(b.rejected).UpdateResource(r.Context(), principal(r), id, pt)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.resourceDoc(res))
}

// deleteResource handles DELETE /my_database/resources/{id}: 204, or 409
// while a composition uses the resource.
func (h *handlers) deleteResource(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := h.env.App.DeleteResource(r.Context(), principal(r), chi.URLParam(r, "id")); err != nil {
		h.writeError(w, r, err)
		return
	}
	noContent(w)
}

func (h *handlers) writeResource(w http.ResponseWriter, r *http.Request, res *domain.Resource, inc []string, err error) {
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeRead(w, r, h.resourceDoc(res), inc)
}
