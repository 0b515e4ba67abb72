package v2

import (
	"io"
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// A contract's client documents (docs/contracts.md):
//
//	GET /contracts/{id}/measurements/{n}/boletim.xlsx and .pdf
//	GET /contracts/{id}/statement.xlsx and .pdf
//
// with the header of the documents of the contract's frozen version (its
// number and hash), the company's profile and the signature block.
func (h *handlers) contractDocumentRoutes(r chi.Router) {
	for _, kind := range []string{"xlsx", "pdf"} {
		r.Get("/contracts/{id}/measurements/{n}/boletim."+kind, h.contractDocument(kind, true))
		r.Get("/contracts/{id}/statement."+kind, h.contractDocument(kind, false))
	}
}

// contractDocument serves the boletim of measurement {n} (boletim) or the
// accumulated statement as XLSX or PDF (kind).
func (h *handlers) contractDocument(kind string, boletim bool) http.HandlerFunc {
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
		ctx, p := r.Context(), principal(r)
		n := 0
		if boletim {
			var err error
			if n, err = recordNumber(r); err != nil {
				h.writeError(w, r, err)
				return
			}
		}
		v, err := h.env.App.Contract(ctx, p, chi.URLParam(r, "id"))
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		var bol *domain.Boletim
		if boletim {
			if bol, err = v.Boletim(n); err != nil {
				h.writeError(w, r, err)
				return
			}
		}
		c := v.State.Contract
		var doc reports.Document
		if doc.Version, err = h.env.App.BudgetVersion(ctx, p, c.BudgetID, c.VersionNumber); err != nil {
			h.writeError(w, r, err)
			return
		}
		b, _, err := doc.Version.Open()
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		h.renderDocument(w, r, ctx, media, doc, func(doc reports.Document) (func(io.Writer) error, string, error) {
			if boletim {
				render := reports.BoletimXLSX
				if kind == "pdf" {
					render = reports.BoletimPDF
				}
				return func(w io.Writer) error { return render(w, bol, b, doc) },
					reports.VersionFilename(b, c.VersionNumber, "boletim-"+strconv.Itoa(n), kind), nil
			}
			render := reports.StatementXLSX
			if kind == "pdf" {
				render = reports.StatementPDF
			}
			st := v.State.Statement(v.Measurements)
			return func(w io.Writer) error { return render(w, st, b, doc) },
				reports.VersionFilename(b, c.VersionNumber, "medicoes-acumuladas", kind), nil
		})
	}
}
