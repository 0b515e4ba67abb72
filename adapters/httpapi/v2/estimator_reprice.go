package v2

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
	"github.com/shopspring/decimal"
)

// Re-pricing (docs/budgets.md, "Re-price with a diff"):
//
//	POST /budgets/{id}/reprice/preview   the diff, JSON:API (reprice-lines) or CSV (?format=csv)
//	POST /budgets/{id}/reprice           a new budget re-priced (201)
//
// The body names the target: location, desonerado, banks (each replaces
// the budget's edition of that bank); the apply also takes code,
// description and drop_missing. JSON:API type budget-reprices.

var (
	aDropMissing = attr{app: "drop_missing", names: []string{"drop_missing"}, kind: "boolean"}
)

// repriceLineDoc is a line of a price comparison.
type repriceLineDoc struct {
	ID                string       `jsonapi:"primary,reprice-lines"`
	NodeID            string       `jsonapi:"attr,node_id"`
	Number            string       `jsonapi:"attr,number"`
	Kind              string       `jsonapi:"attr,kind"`
	Bank              string       `jsonapi:"attr,bank"`
	Code              string       `jsonapi:"attr,code"`
	Description       string       `jsonapi:"attr,description"`
	Unit              string       `jsonapi:"attr,unit"`
	Quantity          json.Number  `jsonapi:"attr,quantity"`
	QuantityAfter     json.Number  `jsonapi:"attr,quantity_after"`
	BaseVersionBefore *string      `jsonapi:"attr,base_version_before"`
	BaseVersionAfter  *string      `jsonapi:"attr,base_version_after"`
	UnitPriceBefore   *json.Number `jsonapi:"attr,unit_price_before"`
	UnitPriceAfter    *json.Number `jsonapi:"attr,unit_price_after"`
	UnitDiff          *json.Number `jsonapi:"attr,unit_diff"`
	UnitDiffPct       *json.Number `jsonapi:"attr,unit_diff_pct"`
	TotalBefore       json.Number  `jsonapi:"attr,total_with_bdi_before"`
	TotalAfter        json.Number  `jsonapi:"attr,total_with_bdi_after"`
	TotalDiff         json.Number  `jsonapi:"attr,total_diff"`
	MissingBefore     bool         `jsonapi:"attr,missing_before"`
	Lacking           bool         `jsonapi:"attr,lacking"`
	Change            string       `jsonapi:"attr,change"`
}

func pctDoc(p *decimal.Decimal) *json.Number {
	if p == nil {
		return nil
	}
	return ptr(httpapi.Money(*p))
}

func repriceLines(prefix string, d *domain.PriceDiff) []*repriceLineDoc {
	out := make([]*repriceLineDoc, len(d.Lines))
	for i, l := range d.Lines {
		doc := &repriceLineDoc{ID: prefix + ":" + l.NodeID, NodeID: l.NodeID, Number: l.Number, Kind: string(l.Kind),
			Bank: l.Bank, Code: l.Code, Description: l.Description, Unit: l.Unit, Quantity: httpapi.Num(l.Quantity),
			QuantityAfter: httpapi.Num(l.QuantityAfter), Change: string(l.Change),
			BaseVersionBefore: strOrNil(l.MonthBefore), BaseVersionAfter: strOrNil(l.MonthAfter),
			UnitPriceBefore: moneyOrNull(l.UnitBefore, l.MissingBefore), UnitPriceAfter: moneyOrNull(l.UnitAfter, l.Lacking),
			TotalBefore: httpapi.Money(l.TotalBefore), TotalAfter: httpapi.Money(l.TotalAfter), TotalDiff: httpapi.Money(l.TotalDiff),
			MissingBefore: l.MissingBefore, Lacking: l.Lacking}
		if !l.Lacking && !l.MissingBefore {
			doc.UnitDiff, doc.UnitDiffPct = ptr(httpapi.Money(l.UnitDiff)), pctDoc(l.UnitDiffPct)
		}
		if l.Lacking {
			doc.BaseVersionAfter = strOrNil(l.MonthAfter)
		}
		out[i] = doc
	}
	return out
}

// totalsDoc is a footer.
type totalsDoc struct {
	Total        json.Number `json:"total"`
	BDIValue     json.Number `json:"bdi_value"`
	TotalWithBDI json.Number `json:"total_with_bdi"`
}

func totalsOf(t domain.BudgetTotals) totalsDoc {
	return totalsDoc{Total: httpapi.Money(t.Total), BDIValue: httpapi.Money(t.BDIValue), TotalWithBDI: httpapi.Money(t.TotalWithBDI)}
}

// stageDiffDoc is a stage's subtotals with BDI before and after.
type stageDiffDoc struct {
	NodeID      string       `json:"node_id"`
	Number      string       `json:"number"`
	Depth       int          `json:"depth"`
	Description string       `json:"description"`
	Before      json.Number  `json:"before"`
	After       json.Number  `json:"after"`
	Diff        json.Number  `json:"diff"`
	DiffPct     *json.Number `json:"diff_pct"`
	Change      string       `json:"change"`
}

// residualDoc is the part of the totals with BDI in no line.
type residualDoc struct {
	Before json.Number `json:"before"`
	After  json.Number `json:"after"`
	Diff   json.Number `json:"diff"`
}

// diffMeta is the meta of a price comparison.
func diffMeta(d *domain.PriceDiff) jsonapi.Meta {
	stages := make([]stageDiffDoc, len(d.Stages))
	for i, s := range d.Stages {
		stages[i] = stageDiffDoc{NodeID: s.NodeID, Number: s.Number, Depth: s.Depth, Description: s.Description,
			Before: httpapi.Money(s.Before), After: httpapi.Money(s.After), Diff: httpapi.Money(s.Diff), DiffPct: pctDoc(s.DiffPct), Change: string(s.Change)}
	}
	lacking := make([]string, len(d.Lacking))
	for i, l := range d.Lacking {
		lacking[i] = l.NodeID
	}
	return jsonapi.Meta{
		"before":   totalsOf(d.Before.BudgetTotals),
		"after":    totalsOf(d.After.BudgetTotals),
		"diff":     httpapi.Money(d.Total.Diff),
		"diff_pct": pctDoc(d.Total.DiffPct),
		"residual": residualDoc{Before: httpapi.Money(d.Residual.Before), After: httpapi.Money(d.Residual.After), Diff: httpapi.Money(d.Residual.Diff)},
		"stages":   stages,
		"lacking":  lacking,
		"target":   metaOf(d.After.Budget),
		"banks":    banksOf(d.After.Budget),
	}
}

func banksOf(b *domain.Budget) []budgetBankDoc {
	out := make([]budgetBankDoc, len(b.Banks))
	for i, ref := range b.Banks {
		out[i] = budgetBankDoc{Name: ref.Name, Location: ref.State, Version: ref.Month, Region: ref.Region}
	}
	return out
}

// readTarget reads the target of a re-pricing.
func readTarget(b *attrBody) app.RepriceTarget {
	t := app.RepriceTarget{State: read[string](b, aLocation), Desonerado: read[bool](b, aDesonerado)}
	if banks := read[[]budgetBankIn](b, aBudBanks); banks != nil {
		t.Banks = bankInputs(*banks)
	}
	return t
}

// repriceTarget reads the body of a re-pricing preview (type
// "budget-reprices"): the target, and the body for its pointers; false
// when it answered the error.
func (h *handlers) repriceTarget(w http.ResponseWriter, r *http.Request) (*attrBody, app.RepriceTarget, bool) {
	b, err := decodeAttrs(r, "budget-reprices", "")
	if err != nil {
		h.writeError(w, r, err)
		return nil, app.RepriceTarget{}, false
	}
	t := readTarget(b)
	if err := b.finish(); err != nil {
		h.writeError(w, r, err)
		return nil, app.RepriceTarget{}, false
	}
	return b, t, true
}

// repricePreview handles POST /budgets/{id}/reprice/preview.
func (h *handlers) repricePreview(w http.ResponseWriter, r *http.Request) {
	format, ok := h.formatQuery(w, r)
	if !ok {
		return
	}
	id := chi.URLParam(r, "id")
	b, t, ok := h.repriceTarget(w, r)
	if !ok {
		return
	}
	d, err := h.env.App.RepricePreview(r.Context(), principal(r), id, t)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	if isCSV(format) {
		h.writeCSV(w, r, d, reports.Filename(d.Before.Budget, "reprecificacao", "csv"), func(buf *bytes.Buffer) error { return reports.PriceDiffCSV(buf, d, csvOptions(format)...) })
		return
	}
	meta := diffMeta(d)
	h.writeDocWith(w, r, http.StatusOK, repriceLines(id, d), selfLink(r), &meta)
}

// reprice handles POST /budgets/{id}/reprice: 201 with the new budget.
func (h *handlers) reprice(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	b, err := decodeAttrs(r, "budget-reprices", "")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	t := readTarget(b)
	code := deref(read[string](b, aCode))
	desc := deref(read[string](b, aDescription))
	drop := deref(read[bool](b, aDropMissing))
	if err := b.finish(); err != nil {
		h.writeError(w, r, err)
		return
	}
	pb, err := h.env.App.Rejecting(b.rejected).Reprice(r.Context(), principal(r), chi.URLParam(r, "id"), t, code, desc, drop)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	p := r.URL.Path
	w.Header().Set("Location", p[:len(p)-len("/"+chi.URLParam(r, "id")+"/reprice")]+"/"+pb.ID)
	h.writeDoc(w, r, http.StatusCreated, h.budgetDoc(pb, true))
}
