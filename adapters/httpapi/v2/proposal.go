package v2

import (
	"io"
	"net/http"
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

// A budget's proposal under a uniform discount (domain.Proposal,
// docs/proposals.md):
//
//	GET /budgets/{id}/proposal?discount=5.5
//	GET /budgets/{id}/proposal/target?target=650000.00&places=2
//	GET /budgets/{id}/versions/{version}/proposal… (the same two)
//
// answered as a collection of "proposal-rows" (one per stage and line, id
// "budget id:node id" as the synthetic report's rows) with the figures in the meta, or as CSV (?format=csv or
// csv-excel, or Accept: text/csv). A bad or missing parameter is 400
// naming it, every one at once.
const proposalRowType = "proposal-rows"

// proposalQuery reads the parameters of a proposal: discount, or (for
// target) target and places.
func proposalQuery(r *http.Request, target bool) (app.ProposalInput, string, error) {
	names := []string{"format", "discount"}
	if target {
		names = []string{"format", "target", "places"}
	}
	q, err := query(r, names...)
	if err != nil {
		return app.ProposalInput{}, "", err
	}
	var in app.ProposalInput
	var bad paramErrors
	num := func(name string) decimal.NullDecimal {
		s, ok := q[name]
		if !ok {
			bad = append(bad, &paramError{Param: name, Message: "is required"})
			return decimal.NullDecimal{}
		}
		d, problem := httpapi.ParseNumber([]byte(strings.TrimSpace(s[0])), false)
		if problem != "" {
			bad = append(bad, &paramError{Param: name, Message: "must be a decimal number (a dot for the decimal point): " + problem})
			return decimal.NullDecimal{}
		}
		return decimal.NullDecimal{Decimal: d, Valid: true}
	}
	if target {
		in.Target, in.Places = num("target"), 2
		if s, ok := q["places"]; ok {
			n, err := strconv.Atoi(s[0])
			if err != nil {
				bad = append(bad, &paramError{Param: "places", Message: "must be a whole number from 0 to 6"})
			} else {
				in.Places = int32(max(min(n, 1000), -1000))
				var v domain.Validation
				if domain.CheckProposalPlaces(&v, "places", in.Places); v.Len() > 0 {
					bad = append(bad, &paramError{Param: "places", Message: v.Fields[0].Message})
				}
			}
		}
	} else {
		in.Discount = num("discount")
	}
	format, err := reportFormat(r, q)
	if pe, ok := err.(paramErrors); ok {
		bad, err = append(bad, pe...), nil
	}
	if len(bad) > 0 {
		return in, "", bad
	}
	return in, format, err
}

// proposal handles GET /budgets/{id}/proposal and a version's.
func (h *handlers) proposal(w http.ResponseWriter, r *http.Request) { h.writeProposal(w, r, false) }

// proposalForTarget handles GET /budgets/{id}/proposal/target and a
// version's.
func (h *handlers) proposalForTarget(w http.ResponseWriter, r *http.Request) {
	h.writeProposal(w, r, true)
}

func (h *handlers) writeProposal(w http.ResponseWriter, r *http.Request, target bool) {
	in, format, err := proposalQuery(r, target)
	if err != nil {
		h.writeReportError(w, r, err)
		return
	}
	p, err := h.env.App.Proposal(r.Context(), principal(r), chi.URLParam(r, "id"), in)
	if fields := domain.ErrorFields(err); domain.ErrorCode(err) == domain.EINVALID && len(fields) > 0 {
		errs := make(paramErrors, len(fields))
		for i, f := range fields {
			errs[i] = &paramError{Param: strings.TrimPrefix(f.Field, "/"), Message: f.Message}
		}
		err = errs
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if isCSV(format) {
		h.streamCSV(w, r, exportName(r, p.Budget, "proposta", "csv"), func(w io.Writer) error { return reports.ProposalCSV(w, p, csvOptions(format)...) })
		return
	}
	meta := jsonapi.Meta{
		"budget":             metaOf(p.Budget),
		"rows":               len(p.Rows),
		"discount":           httpapi.Num(p.Discount),
		"reference_total":    httpapi.Money(p.ReferenceTotal),
		"total":              httpapi.Money(p.Total),
		"effective_discount": httpapi.Num(p.EffectiveDiscount()),
	}
	if p.Target.Valid {
		meta["target"] = httpapi.Money(p.Target.Decimal)
		meta["residual"] = httpapi.Money(p.Residual.Decimal)
		meta["places"] = p.Places
	}
	addMissing(meta, httpapi.MissingLines(p.Missing))
	nodes := make([]*jsonapi.Node, len(p.Rows))
	for i := range p.Rows {
		row := &p.Rows[i]
		attrs := map[string]any{
			"number": row.Number, "depth": row.Depth, "kind": string(row.Kind), "description": row.Description,
			"reference_total": httpapi.Money(row.ReferenceTotal), "total": httpapi.Money(row.Total),
		}
		if row.Kind.IsLine() {
			attrs["bank"], attrs["code"], attrs["unit"] = row.Bank, row.Code, row.Unit
			attrs["base_version"] = nil // the own base
			if row.Month != "" {
				attrs["base_version"] = row.Month
			}
			attrs["quantity"] = httpapi.Num(row.Quantity)
			attrs["reference_unit_price"] = httpapi.Num(row.ReferenceUnitPrice)
			attrs["unit_price"] = httpapi.Num(row.UnitPrice)
			attrs["missing"] = row.Missing
			attrs["supply"] = row.Supply
		}
		nodes[i] = &jsonapi.Node{Type: proposalRowType, ID: p.Budget.ID + ":" + row.NodeID, Attributes: attrs}
	}
	h.writeNodes(w, r, &jsonapi.ManyPayload{Data: nodes, Meta: &meta, Links: selfLink(r)})
}
