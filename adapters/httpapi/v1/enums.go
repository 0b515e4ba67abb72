package v1

import (
	"net/http"

	"github.com/costdb/costdb/app"
	"github.com/go-chi/chi/v5"
)

// enumRecord is one code of a catalogue, or one catalogue in the list of
// catalogues (code its name, name its description).
type enumRecord struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// enumList is the body of both catalogue routes.
type enumList struct {
	Records []enumRecord `json:"records"`
	Total   int          `json:"total"`
}

// listEnums answers GET /enums: {"records":[{"code":"resource_types",
// "name":"Resource types: …"}, …], "total": 6}.
func (h *handler) listEnums(w http.ResponseWriter, r *http.Request) {
	cats := h.env.App.Catalogs()
	out := enumList{Records: make([]enumRecord, len(cats)), Total: len(cats)}
	for i, c := range cats {
		out.Records[i] = enumRecord{Code: c.Name, Name: c.Description}
	}
	h.write(w, http.StatusOK, out)
}

// getEnum answers GET /enums/{catalog}: {"records":[{"code":"4",
// "name":"Material"}, …], "total": N}; 404 for an unknown catalogue.
func (h *handler) getEnum(w http.ResponseWriter, r *http.Request) {
	c, err := h.env.App.Catalog(chi.URLParam(r, "catalog"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, enumBody(c))
}

func enumBody(c app.Catalog) enumList {
	out := enumList{Records: make([]enumRecord, len(c.Entries)), Total: len(c.Entries)}
	for i, e := range c.Entries {
		out.Records[i] = enumRecord{Code: e.Code, Name: e.Name}
	}
	return out
}
