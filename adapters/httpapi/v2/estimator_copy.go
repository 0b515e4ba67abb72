package v2

import (
	"net/http"
	"strings"

	"github.com/costdb/costdb/app"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// Copy and duplicate (docs/budgets.md, "Copy and duplicate"):
//
//	POST /banks/{id}/items/{code}/copy                 a bank composition into the own base
//	POST /my_database/compositions/{id}/duplicate      an own composition under a new code
//	POST /budgets/{id}/duplicate                       a budget under a new code
//
// Each body is plain JSON or a JSON:API document of the type named below
// (a request that creates something), and each answers 201 with the new
// record and its Location.

var aDeep = attr{app: "deep", names: []string{"deep"}, kind: "boolean"}

// createdMeta lists the compositions a copy created, the root first.
func createdMeta(c *app.Copied) *jsonapi.Meta {
	list := make([]map[string]string, len(c.Created))
	for i, x := range c.Created {
		list[i] = map[string]string{"id": x.ID, "code": x.Code, "location": x.State}
	}
	return &jsonapi.Meta{"created": list}
}

// compositionsPath is the path of the own compositions collection, below
// the prefix the request came in with.
func compositionsPath(r *http.Request, id string) string {
	p := r.URL.Path
	if i := strings.Index(p, "/banks/"); i >= 0 {
		p = p[:i]
	} else if i := strings.Index(p, "/my_database/"); i >= 0 {
		p = p[:i]
	}
	return p + "/my_database/compositions/" + id
}

// copyBankComposition handles POST /banks/{id}/items/{code}/copy: body
// {code, deep} (JSON:API type composition-copies).
func (h *handlers) copyBankComposition(w http.ResponseWriter, r *http.Request) {
	b := h.readAttrs(w, r, "composition-copies", "")
	if b == nil {
		return
	}
	in := app.CopyInput{EditionID: pathParam(r, "id"), Code: pathParam(r, "code")}
	in.NewCode = deref(read[string](b, aCode))
	in.Deep = deref(read[bool](b, aDeep))
	if err := b.finish(); err != nil {
		h.writeError(w, r, err)
		return
	}
	c, err := h.env.App.Rejecting(b.rejected).CopyBankComposition(r.Context(), principal(r), in)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	w.Header().Set("Location", compositionsPath(r, c.Root.ID))
	h.writeDocWith(w, r, http.StatusCreated, h.compositionDoc(c.Root, true), nil, createdMeta(c))
}

// duplicateComposition handles POST /my_database/compositions/{id}/duplicate:
// body {code, location} (JSON:API type composition-duplicates).
func (h *handlers) duplicateComposition(w http.ResponseWriter, r *http.Request) {
	b := h.readAttrs(w, r, "composition-duplicates", "")
	if b == nil {
		return
	}
	code := deref(read[string](b, aCode))
	state := deref(read[string](b, aLocation))
	if err := b.finish(); err != nil {
		h.writeError(w, r, err)
		return
	}
	c, err := h.env.App.Rejecting(b.rejected).DuplicateComposition(r.Context(), principal(r), chi.URLParam(r, "id"), code, state)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	w.Header().Set("Location", compositionsPath(r, c.Root.ID))
	h.writeDocWith(w, r, http.StatusCreated, h.compositionDoc(c.Root, true), nil, createdMeta(c))
}

// duplicateBudget handles POST /budgets/{id}/duplicate: body {code,
// description} (JSON:API type budget-duplicates).
func (h *handlers) duplicateBudget(w http.ResponseWriter, r *http.Request) {
	b := h.readAttrs(w, r, "budget-duplicates", "")
	if b == nil {
		return
	}
	code := deref(read[string](b, aCode))
	desc := deref(read[string](b, aDescription))
	if err := b.finish(); err != nil {
		h.writeError(w, r, err)
		return
	}
	pb, err := h.env.App.Rejecting(b.rejected).DuplicateBudget(r.Context(), principal(r), chi.URLParam(r, "id"), code, desc)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	p := r.URL.Path
	w.Header().Set("Location", p[:strings.LastIndex(strings.TrimSuffix(p, "/duplicate"), "/")]+"/"+pb.ID)
	h.writeDoc(w, r, http.StatusCreated, h.budgetDoc(pb, true))
}
