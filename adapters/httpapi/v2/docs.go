package v2

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/google/jsonapi"
)

// Relationship targets. Only their type and id are ever written.
type (
	userRef struct {
		ID string `jsonapi:"primary,users"`
	}
	sectorRef struct {
		ID string `jsonapi:"primary,sectors"`
	}
	groupRef struct {
		ID string `jsonapi:"primary,groups"`
	}
)

func userOf(id string) *userRef     { return &userRef{ID: id} }
func sectorOf(id string) *sectorRef { return &sectorRef{ID: id} }

// groupOf is the group relationship of a record: nil (left out) when it
// belongs to no group.
func groupOf(id string) *groupRef {
	if id == "" {
		return nil
	}
	return &groupRef{ID: id}
}

// writeDoc writes a success document for models (a struct pointer or a
// slice of them) with the status. The document is built in full before
// anything is written, so that a marshalling failure can still answer 500.
func (h *handlers) writeDoc(w http.ResponseWriter, r *http.Request, st int, models any) {
	h.writeCompound(w, r, st, models, nil, nil, nil)
}

// writeRead answers 200 with a record read, and in `included` the records
// its relationships inc name (see include.go).
func (h *handlers) writeRead(w http.ResponseWriter, r *http.Request, models any, inc []string) {
	h.writeCompound(w, r, http.StatusOK, models, nil, nil, inc)
}

// writeDocWith writes a success document with top-level links and meta.
func (h *handlers) writeDocWith(w http.ResponseWriter, r *http.Request, st int, models any, links *jsonapi.Links, meta *jsonapi.Meta) {
	h.writeCompound(w, r, st, models, links, meta, nil)
}

// writeCompound writes a success document with top-level links and meta,
// every relationship with its links.related, and in `included` the records
// the relationships inc name. google/jsonapi takes top-level links and meta
// only from a slice type implementing Linkable and Metable, which cannot
// carry per-request values (the page, the user), and never for a single
// resource; and it would include a relationship's record as the bare
// identifier it is given. So the payload it builds is completed here.
func (h *handlers) writeCompound(w http.ResponseWriter, r *http.Request, st int, models any, links *jsonapi.Links, meta *jsonapi.Meta, inc []string) {
	switch m := models.(type) { // the records with an encoder of their own (encode.go)
	case *compositionDoc:
		writeObjects(h, w, r, st, []*compositionDoc{m}, false, links, meta, inc)
		return
	case []*compositionDoc:
		writeObjects(h, w, r, st, m, true, links, meta, inc)
		return
	case *resourceDoc:
		writeObjects(h, w, r, st, []*resourceDoc{m}, false, links, meta, inc)
		return
	case []*resourceDoc:
		writeObjects(h, w, r, st, m, true, links, meta, inc)
		return
	}
	p, err := jsonapi.Marshal(models)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	var nodes []*jsonapi.Node
	switch p := p.(type) {
	case *jsonapi.OnePayload:
		p.Included, p.Links, p.Meta = nil, links, meta
		if p.Data != nil {
			nodes = []*jsonapi.Node{p.Data}
		}
	case *jsonapi.ManyPayload:
		p.Included, p.Links, p.Meta = nil, links, meta
		nodes = p.Data
	}
	included, err := h.included(r, nodes, inc)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	base := apiBase(r)
	linkRelationships(base, nodes)
	linkRelationships(base, included)
	sets := fieldsOf(r)
	sparseNodes(sets, nodes...)
	sparseNodes(sets, included...)
	if inc != nil {
		switch p := p.(type) {
		case *jsonapi.OnePayload:
			p.Included = included
		case *jsonapi.ManyPayload:
			p.Included = included
		}
	}
	h.writeJSON(w, r, st, p)
}

// writeJSON writes v as encoding/json does, without escaping HTML (links
// keep their & readable), with status st.
func (h *handlers) writeJSON(w http.ResponseWriter, r *http.Request, st int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		h.writeError(w, r, err)
		return
	}
	writeBody(w, st, buf.Bytes())
}

func writeBody(w http.ResponseWriter, st int, body []byte) {
	writeChecked(w, st, body, httpapi.AnswerNumbersProblem(body))
}

// writeChecked writes body, whose first number out of the bounds has the
// problem p ("" when none).
func writeChecked(w http.ResponseWriter, st int, body []byte, p string) {
	if p != "" {
		// Never a number out of bounds: the record is in a state that
		// cannot be shown (httpapi.AnswerNumbersProblem).
		writeErrors(w, []errorObject{{Status: "409", Code: domain.ECONFLICT, Title: titles[domain.ECONFLICT], Detail: p}})
		return
	}
	w.Header().Set("Content-Type", mediaType)
	httpapi.WriteBody(w, st, body)
}

// noContent answers 204.
func noContent(w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) }
