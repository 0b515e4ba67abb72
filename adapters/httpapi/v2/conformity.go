package v2

import (
	"bytes"
	"encoding/csv"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
	"github.com/shopspring/decimal"
)

// The conformity report of a budget (the proposal) against its reference
// (docs/conformity.md):
//
//	GET /budgets/{id}/conformity?reference={budget}[&reference_version=n][&unfeasible=75][&guarantee=85]
//
// JSON:API type "conformity-reports", or CSV (?format=csv or Accept:
// text/csv): a row per line, then per stage, then the global figures.
func (h *handlers) conformityRoutes(r chi.Router) {
	r.Get("/budgets/{id}/conformity", h.conformity)
	r.Get("/contracts/{id}/conformity", h.contractConformity)
	for _, kind := range []string{"xlsx", "pdf"} {
		r.Get("/budgets/{id}/conformity."+kind, h.conformityDocument(kind))
	}
}

// conformityQuery reads the report's parameters and format, every bad one
// at once.
func conformityQuery(r *http.Request) (app.ConformityReference, domain.ConformityLimits, string, error) {
	q, err := query(r, conformityParams...)
	if err != nil {
		return app.ConformityReference{}, domain.ConformityLimits{}, "", err
	}
	ref, limits, bad := conformityOf(q)
	format, err := reportFormat(r, q)
	if pe, ok := err.(paramErrors); ok {
		bad, err = append(bad, pe...), nil
	}
	if len(bad) > 0 {
		return ref, limits, "", bad
	}
	return ref, limits, format, err
}

// conformityParams are the report's query parameters.
var conformityParams = []string{"format", "reference", "reference_version", "unfeasible", "guarantee"}

// conformityOf reads the reference and the limits from a query.
func conformityOf(q url.Values) (app.ConformityReference, domain.ConformityLimits, paramErrors) {
	var ref app.ConformityReference
	limits := domain.DefaultConformityLimits()
	var bad paramErrors
	if ref.BudgetID = strings.TrimSpace(q.Get("reference")); ref.BudgetID == "" {
		bad = append(bad, &paramError{Param: "reference", Message: "is required: the id of the reference budget"})
	}
	if s, ok := q["reference_version"]; ok {
		n, err := strconv.Atoi(s[0])
		if err != nil || n < 1 {
			bad = append(bad, &paramError{Param: "reference_version", Message: "must be a version's number (1, 2, …)"})
		}
		ref.Version = n
	}
	for _, x := range []struct {
		name string
		d    *decimal.Decimal
	}{{"unfeasible", &limits.Unfeasible}, {"guarantee", &limits.Guarantee}} {
		if s, ok := q[x.name]; ok {
			d, problem := httpapi.ParseNumber([]byte(strings.TrimSpace(s[0])), false)
			if problem != "" {
				bad = append(bad, &paramError{Param: x.name, Message: "must be a percent (a dot for the decimal point): " + problem})
				continue
			}
			*x.d = d
		}
	}
	return ref, limits, bad
}

// conformityDocument serves the report as XLSX or PDF (kind).
func (h *handlers) conformityDocument(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		media, ok := h.documentMedia(w, r, kind, conformityParams[1:]...)
		if !ok {
			return
		}
		ref, limits, bad := conformityOf(r.URL.Query())
		if len(bad) > 0 {
			h.writeReportError(w, r, bad)
			return
		}
		c, _, err := h.env.App.Conformity(r.Context(), principal(r), chi.URLParam(r, "id"), ref, limits)
		if err != nil {
			h.writeError(w, r, invalidAsParams(err))
			return
		}
		render := pick(kind, reports.ConformityXLSX, reports.ConformityPDF)
		h.renderDocument(w, r, r.Context(), media, reports.Document{}, func(doc reports.Document) (func(io.Writer) error, string, error) {
			return func(w io.Writer) error { return render(w, c, doc) }, exportName(r, c.Proposal.Budget, "conformidade", kind), nil
		})
	}
}

// conformity handles GET /budgets/{id}/conformity.
func (h *handlers) conformity(w http.ResponseWriter, r *http.Request) {
	ref, limits, format, err := conformityQuery(r)
	if err != nil {
		h.writeReportError(w, r, err)
		return
	}
	id := chi.URLParam(r, "id")
	c, bdi, err := h.env.App.Conformity(r.Context(), principal(r), id, ref, limits)
	if err != nil {
		h.writeError(w, r, invalidAsParams(err))
		return
	}
	if isCSV(format) {
		h.writeCSV(w, r, nil, exportName(r, c.Proposal.Budget, "conformidade", "csv"), func(buf *bytes.Buffer) error { return conformityCSV(buf, c) })
		return
	}
	lines := make([]map[string]any, len(c.Lines))
	for i, l := range c.Lines {
		row := l.Row
		m := map[string]any{"node_id": row.NodeID, "number": row.Number, "bank": row.Bank, "code": row.Code,
			"description": row.Description, "unit": row.Unit, "quantity": httpapi.Num(row.Quantity),
			"unit_price_with_bdi": httpapi.Money(row.UnitPriceWithBDI), "total_with_bdi": httpapi.Money(row.TotalWithBDI),
			"matched": l.Matched, "above": l.Above, "sample": l.Sample,
			"reference_price": nil, "reference_total": nil, "difference": nil, "difference_percent": nil, "overprice": nil}
		if l.Matched {
			m["reference_price"], m["reference_total"] = httpapi.Money(l.Reference), httpapi.Money(l.ReferenceTotal)
			m["difference"], m["difference_percent"] = httpapi.Money(l.Difference), httpapi.Num(l.Percent)
			if l.Above {
				m["overprice"] = httpapi.Money(l.Overprice)
			}
		}
		lines[i] = m
	}
	stages := make([]map[string]any, len(c.Stages))
	for i, st := range c.Stages {
		stages[i] = map[string]any{"number": st.Number, "description": st.Description, "total": httpapi.Money(st.Total),
			"reference_total": httpapi.Money(st.ReferenceTotal), "difference": httpapi.Money(st.Difference),
			"difference_percent": httpapi.Num(st.Percent), "above": st.Above, "overprice": httpapi.Money(st.Overprice)}
	}
	var guarantee, bdiCheck any
	if c.GuaranteeRequired {
		guarantee = httpapi.Money(c.Guarantee)
	}
	if bdi.Check != nil {
		row := bdi.Check.Rows[len(bdi.Check.Rows)-1] // the BDI's own row
		bdiCheck = map[string]any{"work_type": bdi.Check.WorkType.Name, "bdi": httpapi.Num(row.Value), "status": string(row.Status),
			"first_quartile": httpapi.Num(row.Range.Q1), "third_quartile": httpapi.Num(row.Range.Q3), "flagged_components": bdi.Check.Flagged}
	}
	sample := c.SampleNumbers()
	if sample == nil {
		sample = []string{}
	}
	refID := ref.BudgetID
	if ref.Version > 0 {
		refID += ":" + strconv.Itoa(ref.Version)
	}
	node := &jsonapi.Node{Type: "conformity-reports", ID: id + "@" + refID, Attributes: map[string]any{
		"reference": ref.BudgetID, "reference_version": nullableInt(ref.Version),
		"total": httpapi.Money(c.Total), "reference_total": httpapi.Money(c.ReferenceTotal), "percent": httpapi.Num(c.Percent),
		"limits":     map[string]any{"unfeasible": httpapi.Num(c.Limits.Unfeasible), "guarantee": httpapi.Num(c.Limits.Guarantee)},
		"unfeasible": c.Unfeasible, "guarantee_required": c.GuaranteeRequired, "guarantee": guarantee,
		"above": c.Above, "unmatched": c.Unmatched, "overprice": httpapi.Money(c.Overprice),
		"bdi_check": bdiCheck, "sample": sample, "stages": stages, "lines": lines,
	}}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: node})
}

func nullableInt(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

// conformityCSV writes the report: a row per line, per stage, then the
// global figures.
func conformityCSV(buf *bytes.Buffer, c *domain.Conformity) error {
	cw := csv.NewWriter(buf)
	_ = cw.Write([]string{"item", "banco", "codigo", "descricao", "unidade", "quantidade", "preco_bdi", "preco_referencia",
		"diferenca", "diferenca_pct", "acima", "sobrepreco", "amostra"})
	yes := map[bool]string{true: "sim", false: "nao"}
	for _, l := range c.Lines {
		row := l.Row
		rec := []string{row.Number, row.Bank, row.Code, row.Description, row.Unit, string(httpapi.Num(row.Quantity)),
			string(httpapi.Money(row.UnitPriceWithBDI)), "", "", "", yes[l.Above], "", yes[l.Sample]}
		if l.Matched {
			rec[7], rec[8], rec[9] = string(httpapi.Money(l.Reference)), string(httpapi.Money(l.Difference)), string(httpapi.Num(l.Percent))
		} else {
			rec[7] = "sem referencia"
		}
		if l.Above {
			rec[11] = string(httpapi.Money(l.Overprice))
		}
		_ = cw.Write(rec)
	}
	for _, st := range c.Stages {
		_ = cw.Write([]string{"etapa " + st.Number, "", "", st.Description, "", "", string(httpapi.Money(st.Total)),
			string(httpapi.Money(st.ReferenceTotal)), string(httpapi.Money(st.Difference)), string(httpapi.Num(st.Percent)),
			strconv.Itoa(st.Above), string(httpapi.Money(st.Overprice)), ""})
	}
	_ = cw.Write([]string{"global", "", "", "proposta / referência (%)", "", "", string(httpapi.Money(c.Total)),
		string(httpapi.Money(c.ReferenceTotal)), string(httpapi.Money(c.Total.Sub(c.ReferenceTotal))), string(httpapi.Num(c.Percent)),
		strconv.Itoa(c.Above), string(httpapi.Money(c.Overprice)), ""})
	_ = cw.Write([]string{"inexequivel", "", "", "abaixo de " + c.Limits.Unfeasible.String() + "% (Lei 14.133, art. 59, § 4º)", "", "", "", "", "", "", yes[c.Unfeasible], "", ""})
	guarantee := ""
	if c.GuaranteeRequired {
		guarantee = string(httpapi.Money(c.Guarantee))
	}
	_ = cw.Write([]string{"garantia_adicional", "", "", "abaixo de " + c.Limits.Guarantee.String() + "% (Lei 14.133, art. 59, § 5º)", "", "", "", "", guarantee, "", yes[c.GuaranteeRequired], "", ""})
	cw.Flush()
	return cw.Error()
}

// contractConformity handles GET /contracts/{id}/conformity?reference=…:
// the contract's discount against the reference before and after its
// approved amendments (Decreto 7.983/2013, art. 14).
func (h *handlers) contractConformity(w http.ResponseWriter, r *http.Request) {
	ref, _, _, err := conformityQuery(r)
	if err != nil {
		h.writeReportError(w, r, err)
		return
	}
	id := chi.URLParam(r, "id")
	d, err := h.env.App.ContractConformity(r.Context(), principal(r), id, ref)
	if err != nil {
		h.writeError(w, r, invalidAsParams(err))
		return
	}
	unmatched := d.Unmatched
	if unmatched == nil {
		unmatched = []string{}
	}
	node := &jsonapi.Node{Type: "contract-discounts", ID: id, Attributes: map[string]any{
		"reference": ref.BudgetID, "reference_version": nullableInt(ref.Version),
		"initial": httpapi.Money(d.Initial), "reference_initial": httpapi.Money(d.ReferenceInitial),
		"current": httpapi.Money(d.Current), "reference_current": httpapi.Money(d.ReferenceCurrent),
		"initial_discount": httpapi.Num(d.InitialDiscount), "current_discount": httpapi.Num(d.CurrentDiscount),
		"reduced": d.Reduced, "unmatched": unmatched,
	}}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: node})
}
