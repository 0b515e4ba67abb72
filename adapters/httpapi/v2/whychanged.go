package v2

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// Why a budget's total changed (docs/why-changed.md): the difference of
// the total with BDI split into causes that add up to it exactly.
//
//	GET  /budgets/{id}/versions/{version}/causes/{other}   from version {version} to {other}
//	POST /budgets/{id}/reprice/causes                       to the budget re-priced (the preview's body)
//
// JSON:API type "change-causes", or CSV (?format=csv): one row per cause,
// then the total.
func (h *handlers) changeCauseRoutes(r chi.Router) {
	r.Get("/budgets/{id}/versions/{version}/causes/{other}", h.versionCauses)
	r.Post("/budgets/{id}/reprice/causes", h.repriceCauses)
}

// versionCauses handles GET /budgets/{id}/versions/{version}/causes/{other}.
func (h *handlers) versionCauses(w http.ResponseWriter, r *http.Request) {
	format, ok := h.formatQuery(w, r)
	if !ok {
		return
	}
	a, b, ok := h.versionPair(w, r)
	if !ok {
		return
	}
	id := chi.URLParam(r, "id")
	cc, err := h.env.App.VersionChangeCauses(r.Context(), principal(r), id, a, b)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeCauses(w, r, format, id+":"+strconv.Itoa(a)+":"+strconv.Itoa(b), "por-que-mudou-v"+strconv.Itoa(a)+"-v"+strconv.Itoa(b), cc)
}

// repriceCauses handles POST /budgets/{id}/reprice/causes.
func (h *handlers) repriceCauses(w http.ResponseWriter, r *http.Request) {
	format, ok := h.formatQuery(w, r)
	if !ok {
		return
	}
	id := chi.URLParam(r, "id")
	b, t, ok := h.repriceTarget(w, r)
	if !ok {
		return
	}
	cc, err := h.env.App.RepriceChangeCauses(r.Context(), principal(r), id, t)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeCauses(w, r, format, id+":reprice", "por-que-mudou-reprecificacao", cc)
}

// writeCauses answers the causes as JSON:API or CSV.
func (h *handlers) writeCauses(w http.ResponseWriter, r *http.Request, format, id, report string, cc *domain.ChangeCauses) {
	if isCSV(format) {
		h.writeCSV(w, r, nil, exportName(r, cc.After.Budget, report, "csv"), func(buf *bytes.Buffer) error {
			cw := csv.NewWriter(buf)
			_ = cw.Write([]string{"causa", "classe", "descricao", "valor", "linhas"})
			for _, c := range cc.Causes {
				_ = cw.Write([]string{string(c.Kind), c.Class, domain.CauseLabel(c), string(httpapi.Money(c.Amount)), strconv.Itoa(c.Lines)})
			}
			_ = cw.Write([]string{"total", "", "Diferença do total com BDI (" + string(httpapi.Money(cc.Total.Before)) + " → " +
				string(httpapi.Money(cc.Total.After)) + ")", string(httpapi.Money(cc.Total.Diff)), ""})
			cw.Flush()
			return cw.Error()
		})
		return
	}
	causes := make([]map[string]any, len(cc.Causes))
	for i, c := range cc.Causes {
		causes[i] = map[string]any{"kind": string(c.Kind), "class": strOrNil(c.Class), "label": domain.CauseLabel(c),
			"amount": httpapi.Money(c.Amount), "exact": httpapi.Num(domain.RoundHalfUp(c.Exact, 10)), "lines": c.Lines}
	}
	lines := make([]map[string]any, len(cc.Lines))
	for i, l := range cc.Lines {
		parts := make([]map[string]any, len(l.Parts))
		for k, p := range l.Parts {
			parts[k] = map[string]any{"kind": string(p.Kind), "class": strOrNil(p.Class), "exact": httpapi.Num(domain.RoundHalfUp(p.Exact, 10))}
		}
		lines[i] = map[string]any{"node_id": l.NodeID, "number": l.Number, "bank": l.Bank, "code": l.Code, "description": l.Description, "parts": parts}
	}
	node := &jsonapi.Node{Type: "change-causes", ID: id, Attributes: map[string]any{
		"total_before": httpapi.Money(cc.Total.Before), "total_after": httpapi.Money(cc.Total.After),
		"difference": httpapi.Money(cc.Total.Diff), "causes": causes, "lines": lines,
	}}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: node})
}
