package v2

import (
	"bytes"
	"net/http"
	"regexp"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// The client documents of the synthetic report (docs/budgets.md,
// "Spreadsheet and PDF"):
//
//	GET /budgets/{id}/reports/synthetic.xlsx and .pdf
//	GET /budgets/{id}/versions/{version}/reports/synthetic.xlsx and .pdf
//
// (a version's document carries its number and hash).

// docReportPath are the paths whose answer is a spreadsheet or a PDF.
var docReportPath = regexp.MustCompile(`/budgets/[^/]+/(versions/[^/]+/)?reports/synthetic\.(xlsx|pdf)$`)

// syntheticDocument serves the synthetic report as XLSX or PDF.
func (h *handlers) syntheticDocument(kind string, version bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, err := query(r); err != nil {
			h.writeError(w, r, err)
			return
		}
		media := reports.XLSXMediaType
		if kind == "pdf" {
			media = reports.PDFMediaType
		}
		if _, ok := httpapi.Preferred(r.Header.Values("Accept"), media); !ok {
			h.writeReportError(w, r, domain.Errorf(eNotAcceptable, "the document is %s: Accept must allow it", media))
			return
		}
		ctx, p, id := r.Context(), principal(r), chi.URLParam(r, "id")
		var doc reports.Document
		if version {
			n, err := versionNumber(r, "version")
			if err != nil {
				h.writeError(w, r, err)
				return
			}
			if doc.Version, err = h.env.App.BudgetVersion(ctx, p, id, n); err != nil {
				h.writeError(w, r, err)
				return
			}
			ctx = app.WithVersion(ctx, n)
		}
		rep, err := h.env.App.SyntheticReport(ctx, p, id)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		if doc.Company, err = h.env.App.CompanyName(ctx, p); err != nil {
			h.writeError(w, r, err)
			return
		}
		if prob := httpapi.FiguresProblem(rep); prob != "" {
			h.writeError(w, r, domain.Errorf(domain.ECONFLICT, "%s", prob))
			return
		}
		var buf bytes.Buffer
		render := reports.SyntheticXLSX
		if kind == "pdf" {
			render = reports.SyntheticPDF
		}
		if err := render(&buf, rep, doc); err != nil {
			h.writeError(w, r, err)
			return
		}
		httpapi.WriteExport(w, media, "attachment", reports.Filename(rep.Budget, "sintetico", kind), buf.Bytes())
	}
}
