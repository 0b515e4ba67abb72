package v2

import (
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
// its attributes app.CompanyExport in format version 2 (snake_case), or 1
// (Go names) with ?version=1; the import takes either back (the document
// or its attributes as plain JSON) and answers the type "company-imports".

type exportDoc struct {
	ID           string                `jsonapi:"primary,company-exports"`
	Format       string                `jsonapi:"attr,Format"`
	Version      int                   `jsonapi:"attr,Version"`
	ExportedAt   string                `jsonapi:"attr,ExportedAt"`
	Groups       []*domain.Group       `jsonapi:"attr,Groups"`
	Resources    []*domain.Resource    `jsonapi:"attr,Resources"`
	Compositions []*domain.Composition `jsonapi:"attr,Compositions"`
	Budgets      []*domain.Budget      `jsonapi:"attr,Budgets"`
	Profile      *app.ExportedProfile  `jsonapi:"attr,Profile,omitempty"`
}

// exportDocV2 is the export in format version 2: each attribute the
// snake_case tree of app.CompanyExportAttributes.
type exportDocV2 struct {
	ID           string `jsonapi:"primary,company-exports"`
	Format       any    `jsonapi:"attr,format"`
	Version      any    `jsonapi:"attr,version"`
	ExportedAt   any    `jsonapi:"attr,exported_at"`
	Groups       any    `jsonapi:"attr,groups"`
	Resources    any    `jsonapi:"attr,resources"`
	Compositions any    `jsonapi:"attr,compositions"`
	Budgets      any    `jsonapi:"attr,budgets"`
	Profile      any    `jsonapi:"attr,profile,omitempty"`
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
	q, err := query(r, "version")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	version := app.CompanyExportV2
	switch q.Get("version") {
	case "", "2":
	case "1":
		version = app.CompanyExportV1
	default:
		h.writeError(w, r, paramErrors{{Param: "version", Message: "must be 1 or 2 (the format's version; 2 when not given)"}})
		return
	}
	p := principal(r)
	e, err := h.env.App.ExportCompany(r.Context(), p)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if version == app.CompanyExportV2 {
		a, err := app.CompanyExportAttributes(e, version)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		h.writeDoc(w, r, http.StatusOK, &exportDocV2{ID: p.CompanyID, Format: a["format"], Version: a["version"], ExportedAt: a["exported_at"],
			Groups: a["groups"], Resources: a["resources"], Compositions: a["compositions"], Budgets: a["budgets"], Profile: a["profile"]})
		return
	}
	e.Version = app.CompanyExportV1
	raw, _ := json.Marshal(e.ExportedAt)
	var at string
	_ = json.Unmarshal(raw, &at)
	h.writeDoc(w, r, http.StatusOK, &exportDoc{ID: p.CompanyID, Format: e.Format, Version: e.Version, ExportedAt: at,
		Groups: e.Groups, Resources: e.Resources, Compositions: e.Compositions, Budgets: e.Budgets, Profile: e.Profile})
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
	prefix := "" // the pointer of the attributes in the request
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
		body, prefix = ro.Attributes, "/data/attributes"
	}
	in, err := app.DecodeCompanyExport(body)
	if err != nil {
		h.writeError(w, r, prefixed(err, prefix))
		return
	}
	out, err := h.env.App.ImportCompany(r.Context(), principal(r), in)
	if err != nil {
		h.writeError(w, r, prefixed(err, prefix))
		return
	}
	doc := &importDoc{ID: principal(r).CompanyID, Groups: out.Groups, Resources: out.Resources, Compositions: out.Compositions, Budgets: out.Budgets}
	h.writeDocWith(w, r, http.StatusCreated, doc, nil, &jsonapi.Meta{"created": len(out.Groups) + len(out.Resources) + len(out.Compositions) + len(out.Budgets)})
}

// prefixed puts prefix before the pointers of err's field errors.
func prefixed(err error, prefix string) error {
	e, ok := err.(*domain.Error)
	if !ok || prefix == "" {
		return err
	}
	for i := range e.Fields {
		e.Fields[i].Field = prefix + e.Fields[i].Field
	}
	for i := range e.More {
		e.More[i] = prefix + e.More[i]
	}
	return e
}
