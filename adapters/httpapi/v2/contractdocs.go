package v2

import (
	"bytes"
	"encoding/csv"
	"io"
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// A contract's client documents and its readjustment statement
// (docs/contracts.md):
//
//	GET /contracts/{id}/measurements/{n}/boletim.xlsx and .pdf
//	GET /contracts/{id}/statement.xlsx and .pdf
//	GET /contracts/{id}/readjustment          JSON:API "readjustments" (?format=csv)
//	GET /contracts/{id}/readjustment.xlsx and .pdf
//
// with the header of the documents of the contract's frozen version (its
// number and hash), the company's profile and the signature block.
func (h *handlers) contractDocumentRoutes(r chi.Router) {
	r.Get("/contracts/{id}/readjustment", h.getContractReadjustment)
	for _, kind := range []string{"xlsx", "pdf"} {
		r.Get("/contracts/{id}/measurements/{n}/boletim."+kind, h.contractDocument(kind, "boletim"))
		r.Get("/contracts/{id}/statement."+kind, h.contractDocument(kind, "statement"))
		r.Get("/contracts/{id}/readjustment."+kind, h.contractDocument(kind, "readjustment"))
	}
}

// contractDocument serves the boletim of measurement {n}, the accumulated
// statement or the readjustment statement (what) as XLSX or PDF (kind).
func (h *handlers) contractDocument(kind, what string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		media, ok := h.documentMedia(w, r, kind)
		if !ok {
			return
		}
		ctx, p, id := r.Context(), principal(r), chi.URLParam(r, "id")
		var (
			v     *app.ContractView
			bol   *domain.Boletim
			rj    *domain.ReadjustStatement
			n     int
			err   error
			name  string
			pages func(io.Writer, *domain.Budget, reports.Document) error
		)
		switch what {
		case "boletim":
			if n, err = recordNumber(r); err == nil {
				if v, err = h.env.App.Contract(ctx, p, id); err == nil {
					bol, err = v.Boletim(n)
				}
			}
			name = "boletim-" + strconv.Itoa(n)
			pages = func(w io.Writer, b *domain.Budget, doc reports.Document) error {
				return pick(kind, reports.BoletimXLSX, reports.BoletimPDF)(w, bol, b, doc)
			}
		case "statement":
			v, err = h.env.App.Contract(ctx, p, id)
			name = "medicoes-acumuladas"
			pages = func(w io.Writer, b *domain.Budget, doc reports.Document) error {
				return pick(kind, reports.StatementXLSX, reports.StatementPDF)(w, v.State.Statement(v.Measurements), b, doc)
			}
		default:
			v, rj, err = h.env.App.ContractReadjustment(ctx, p, id)
			name = "reajuste"
			pages = func(w io.Writer, b *domain.Budget, doc reports.Document) error {
				return pick(kind, reports.ReadjustmentXLSX, reports.ReadjustmentPDF)(w, rj, v.State.Contract, b, doc)
			}
		}
		if err != nil {
			h.writeError(w, r, err)
			return
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
			return func(w io.Writer) error { return pages(w, b, doc) }, reports.VersionFilename(b, c.VersionNumber, name, kind), nil
		})
	}
}

// pick is the renderer of the kind: xlsx or pdf.
func pick[F any](kind string, xlsx, pdf F) F {
	if kind == "pdf" {
		return pdf
	}
	return xlsx
}

// getContractReadjustment handles GET /contracts/{id}/readjustment
// (?format=csv): the readjustment statement of the approved measurements.
func (h *handlers) getContractReadjustment(w http.ResponseWriter, r *http.Request) {
	format, ok := h.formatQuery(w, r)
	if !ok {
		return
	}
	v, st, err := h.env.App.ContractReadjustment(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if isCSV(format) {
		h.writeCSV(w, r, nil, "reajuste.csv", func(buf *bytes.Buffer) error {
			cw := csv.NewWriter(buf)
			_ = cw.Write([]string{"medicao", "mes", "valor", "anos", "aniversario", "i0", "i", "fator", "reajuste"})
			for _, x := range st.Rows {
				_ = cw.Write([]string{strconv.Itoa(x.Number), x.Month, string(httpapi.Money(x.Value)), strconv.Itoa(x.Years), x.Anniversary,
					string(httpapi.Num(x.I0)), string(httpapi.Num(x.I)), string(httpapi.Num(x.Factor)), string(httpapi.Money(x.Amount))})
			}
			_ = cw.Write([]string{"total", "", string(httpapi.Money(st.Total)), "", "", "", "", "", string(httpapi.Money(st.TotalAmount))})
			cw.Flush()
			return cw.Error()
		})
		return
	}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: readjustmentNode(st, v.State.Contract.ID)})
}
