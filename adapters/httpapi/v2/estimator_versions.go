package v2

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// Frozen versions (docs/budgets.md, "Frozen versions"):
//
//	POST /budgets/{id}/versions                       freeze: 201 with the version
//	GET  /budgets/{id}/versions                       the versions, by number
//	GET  /budgets/{id}/versions/{version}             one version
//	GET  /budgets/{id}/versions/{version}/reports/synthetic|analytic|abc
//	                                                  its reports (JSON:API, or ?format=csv)
//	GET  /budgets/{id}/versions/{version}/compare/{other}
//	                                                  the diff of two versions (reprice-lines)
//
// A version is the JSON:API type "budget-versions", id "<budget id>:<n>".

// versionDoc is a frozen version as v2 writes it.
type versionDoc struct {
	ID           string          `jsonapi:"primary,budget-versions"`
	Number       int             `jsonapi:"attr,number"`
	Hash         string          `jsonapi:"attr,hash"`
	FrozenAt     string          `jsonapi:"attr,frozen_at"`
	Code         string          `jsonapi:"attr,code"`
	Description  string          `jsonapi:"attr,description"`
	Location     string          `jsonapi:"attr,location"`
	Desonerado   bool            `jsonapi:"attr,desonerado"`
	BDI          json.Number     `jsonapi:"attr,bdi"`
	Banks        []budgetBankDoc `jsonapi:"attr,banks"`
	Lines        int             `jsonapi:"attr,lines"`
	Total        json.Number     `jsonapi:"attr,total"`
	BDIValue     json.Number     `jsonapi:"attr,bdi_value"`
	TotalWithBDI json.Number     `jsonapi:"attr,total_with_bdi"`
}

func (h *handlers) versionDoc(v *domain.BudgetVersion) (*versionDoc, error) {
	pb, err := h.env.App.PriceVersion(v)
	if err != nil {
		return nil, err
	}
	b, rep := pb.Budget, pb.Totals
	return &versionDoc{ID: v.BudgetID + ":" + strconv.Itoa(v.Number), Number: v.Number, Hash: v.Hash,
		FrozenAt: h.env.FormatTime(v.FrozenAt), Code: b.Code, Description: b.Description, Location: b.State,
		Desonerado: b.Desonerado, BDI: httpapi.Num(b.BDI), Banks: banksOf(b), Lines: b.Lines(),
		Total: httpapi.Money(rep.Total), BDIValue: httpapi.Money(rep.BDIValue), TotalWithBDI: httpapi.Money(rep.TotalWithBDI)}, nil
}

// versionNumber reads a {version} path parameter: a whole number from 1
// (anything else finds nothing: 404).
func versionNumber(r *http.Request, name string) (int, error) {
	n, err := strconv.Atoi(chi.URLParam(r, name))
	if err != nil || n < 1 {
		return 0, domain.Errorf(domain.ENOTFOUND, "no version %q of budget %s: versions are numbered 1, 2, …", chi.URLParam(r, name), chi.URLParam(r, "id"))
	}
	return n, nil
}

// freezeBudget handles POST /budgets/{id}/versions (no body, or an empty
// one).
func (h *handlers) freezeBudget(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	v, err := h.env.App.FreezeBudget(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	doc, err := h.versionDoc(v)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Location", created(r, strconv.Itoa(v.Number)))
	h.writeDoc(w, r, http.StatusCreated, doc)
}

// listVersions handles GET /budgets/{id}/versions.
func (h *handlers) listVersions(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	list, err := h.env.App.BudgetVersions(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	docs := make([]*versionDoc, len(list))
	for i, v := range list {
		if docs[i], err = h.versionDoc(v); err != nil {
			h.writeError(w, r, err)
			return
		}
	}
	h.writeDocWith(w, r, http.StatusOK, docs, selfLink(r), &jsonapi.Meta{"total": len(docs)})
}

// versionRead reads the query (none but fields) and {version} of a read of
// one version; false when it answered the error.
func (h *handlers) versionRead(w http.ResponseWriter, r *http.Request) (int, bool) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return 0, false
	}
	n, err := versionNumber(r, "version")
	if err != nil {
		h.writeError(w, r, err)
		return 0, false
	}
	return n, true
}

// version reads version {version} of budget {id} for a read of it; false
// when it answered the error.
func (h *handlers) version(w http.ResponseWriter, r *http.Request) (*domain.BudgetVersion, bool) {
	n, ok := h.versionRead(w, r)
	if !ok {
		return nil, false
	}
	v, err := h.env.App.BudgetVersion(r.Context(), principal(r), chi.URLParam(r, "id"), n)
	if err != nil {
		h.writeError(w, r, err)
		return nil, false
	}
	return v, true
}

// getVersion handles GET /budgets/{id}/versions/{version}.
func (h *handlers) getVersion(w http.ResponseWriter, r *http.Request) {
	v, ok := h.version(w, r)
	if !ok {
		return
	}
	doc, err := h.versionDoc(v)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeDoc(w, r, http.StatusOK, doc)
}

// versionReport serves a report handler for a frozen version: the same
// document or CSV, computed from the version alone.
func (h *handlers) versionReport(report http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// A number that is not one finds no version (404), after the
		// report's own checks of the query.
		n, err := versionNumber(r, "version")
		if err != nil {
			n = 0
		}
		report(w, r.WithContext(app.WithVersion(r.Context(), n)))
	}
}

// versionPair reads the versions {version} and {other} of a comparison;
// false when it answered the error.
func (h *handlers) versionPair(w http.ResponseWriter, r *http.Request) (a, b int, ok bool) {
	a, err := versionNumber(r, "version")
	if err == nil {
		b, err = versionNumber(r, "other")
	}
	if err != nil {
		h.writeError(w, r, err)
		return 0, 0, false
	}
	return a, b, true
}

// compareVersions handles GET /budgets/{id}/versions/{version}/compare/{other}
// (?format=csv for the CSV).
func (h *handlers) compareVersions(w http.ResponseWriter, r *http.Request) {
	format, ok := h.formatQuery(w, r)
	if !ok {
		return
	}
	a, b, ok := h.versionPair(w, r)
	if !ok {
		return
	}
	id := chi.URLParam(r, "id")
	d, err := h.env.App.CompareVersions(r.Context(), principal(r), id, a, b)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if isCSV(format) {
		h.writeCSV(w, r, d, reports.Filename(d.Before.Budget, "versoes-"+strconv.Itoa(a)+"-"+strconv.Itoa(b), "csv"),
			func(buf *bytes.Buffer) error { return reports.PriceDiffCSV(buf, d, csvOptions(format)...) })
		return
	}
	meta := diffMeta(d)
	h.writeDocWith(w, r, http.StatusOK, repriceLines(id, d), selfLink(r), &meta)
}
