package v2

import (
	"net/http"
	"strings"

	"github.com/costdb/costdb/app"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// enumsType is the JSON:API type of a catalogue in the list of catalogues.
const enumsType = "enums"

// listEnums handles GET /enums: every catalogue (resources of type "enums",
// id the catalogue's name, attributes name, description and count). Its
// entries are at /enums/{id}.
func (h *handlers) listEnums(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	self := strings.TrimSuffix(r.URL.Path, "/")
	cats := h.env.App.Catalogs()
	nodes := make([]*jsonapi.Node, len(cats))
	for i, c := range cats {
		nodes[i] = &jsonapi.Node{
			Type: enumsType,
			ID:   c.Name,
			Attributes: map[string]any{
				"name": c.Name, "description": c.Description, "count": len(c.Entries),
			},
		}
	}
	h.writePayload(w, r, &jsonapi.ManyPayload{Data: nodes, Links: &jsonapi.Links{"self": self}, Meta: totalMeta(len(cats))})
}

// getEnum handles GET /enums/{catalog}: the catalogue's entries, each a
// resource whose type is the catalogue's name and whose id is the code,
// with attributes code and name; 404 for an unknown catalogue.
func (h *handlers) getEnum(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	c, err := h.env.App.Catalog(chi.URLParam(r, "catalog"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writePayload(w, r, enumPayload(c, strings.TrimSuffix(r.URL.Path, "/")))
}

func enumPayload(c app.Catalog, self string) *jsonapi.ManyPayload {
	nodes := make([]*jsonapi.Node, len(c.Entries))
	for i, e := range c.Entries {
		nodes[i] = &jsonapi.Node{
			Type:       c.Name,
			ID:         e.Code,
			Attributes: map[string]any{"code": e.Code, "name": e.Name},
		}
	}
	meta := totalMeta(len(c.Entries))
	(*meta)["description"] = c.Description
	return &jsonapi.ManyPayload{Data: nodes, Links: &jsonapi.Links{"self": self}, Meta: meta}
}

// writePayload writes a document built by hand (where the JSON:API type
// is not fixed, which google/jsonapi's struct tags cannot say).
func (h *handlers) writePayload(w http.ResponseWriter, r *http.Request, p *jsonapi.ManyPayload) {
	sparseNodes(fieldsOf(r), p.Data...)
	h.writeJSON(w, r, http.StatusOK, p)
}
