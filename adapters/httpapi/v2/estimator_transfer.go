package v2

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/jsonapi"
)

// Moving a company's own data (docs/budgets.md, "Export and import"):
//
//	GET  /my_database/export   the company's groups, resources, compositions and budgets
//	POST /my_database/import   create them in the caller's company (201 with what was created)
//
// The export is the JSON:API type "company-exports" (id the company's),
// its attributes app.CompanyExport; the import takes that document back
// (or its attributes as plain JSON) and answers the type "company-imports".

type exportDoc struct {
	ID           string                `jsonapi:"primary,company-exports"`
	Format       string                `jsonapi:"attr,Format"`
	Version      int                   `jsonapi:"attr,Version"`
	ExportedAt   string                `jsonapi:"attr,ExportedAt"`
	Groups       []*domain.Group       `jsonapi:"attr,Groups"`
	Resources    []*domain.Resource    `jsonapi:"attr,Resources"`
	Compositions []*domain.Composition `jsonapi:"attr,Compositions"`
	Budgets      []*domain.Budget      `jsonapi:"attr,Budgets"`
}

type importDoc struct {
	ID           string                  `jsonapi:"primary,company-imports"`
	Groups       []app.ImportSummaryItem `jsonapi:"attr,groups"`
	Resources    []app.ImportSummaryItem `jsonapi:"attr,resources"`
	Compositions []app.ImportSummaryItem `jsonapi:"attr,compositions"`
	Budgets      []app.ImportSummaryItem `jsonapi:"attr,budgets"`
}

// exportCompany handles GET /my_database/export.
func (h *handlers) exportCompany(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	p := principal(r)
	e, err := h.env.App.ExportCompany(r.Context(), p)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	raw, _ := json.Marshal(e.ExportedAt)
	var at string
	_ = json.Unmarshal(raw, &at)
	h.writeDoc(w, r, http.StatusOK, &exportDoc{ID: p.CompanyID, Format: e.Format, Version: e.Version, ExportedAt: at,
		Groups: e.Groups, Resources: e.Resources, Compositions: e.Compositions, Budgets: e.Budgets})
}

// importCompany handles POST /my_database/import.
func (h *handlers) importCompany(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	var top map[string]json.RawMessage
	if err := httpapi.DecodeJSON(r, &top); err != nil {
		h.writeError(w, r, err)
		return
	}
	body, _ := json.Marshal(top)
	if data, ok := top["data"]; ok {
		var ro struct {
			Type       string          `json:"type"`
			ID         *string         `json:"id"` // the exporting company's: not read
			Attributes json.RawMessage `json:"attributes"`
		}
		if err := json.Unmarshal(data, &ro); err != nil || ro.Attributes == nil {
			h.writeError(w, r, fieldError(domain.EBADREQUEST, "/data", "must be a company-exports resource object with attributes"))
			return
		}
		if ro.Type != "company-exports" {
			h.writeError(w, r, fieldError(domain.ECONFLICT, "/data/type", "must be company-exports"))
			return
		}
		body = ro.Attributes
	}
	var in app.CompanyExport
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		h.writeError(w, r, domain.Errorf(domain.EBADREQUEST, "the export document is not one costdb wrote: %v", err))
		return
	}
	out, err := h.env.App.ImportCompany(r.Context(), principal(r), &in)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	doc := &importDoc{ID: principal(r).CompanyID, Groups: out.Groups, Resources: out.Resources, Compositions: out.Compositions, Budgets: out.Budgets}
	h.writeDocWith(w, r, http.StatusCreated, doc, nil, &jsonapi.Meta{"created": len(out.Groups) + len(out.Resources) + len(out.Compositions) + len(out.Budgets)})
}
