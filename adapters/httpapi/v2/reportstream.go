package v2

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/google/jsonapi"
	"github.com/shopspring/decimal"
)

// The reports are streamed (issue 11, docs/decisions.md "Streamed
// reports"): the report is computed, its figures are checked, and then its
// JSON:API document is written to the answer row by row, by hand, byte for
// byte what google/jsonapi and encoding/json wrote from the row documents
// before (a resource's members type, id, attributes; its attributes in the
// order of their names; the document's data, links, meta).

// streamRows answers a report's collection document: rows rows written by
// row, the top-level links (self) and meta. The rows' figures are the
// report's, checked by the use case (domain.ErrFiguresOut); the meta is
// checked as the whole body was (httpapi.AnswerNumbersProblem), a 409
// before anything is sent.
func (h *handlers) streamRows(w http.ResponseWriter, r *http.Request, meta jsonapi.Meta, rows int, row func(*httpapi.JSONWriter, int)) {
	h.streamEach(w, r, meta, func(each func(func(*httpapi.JSONWriter)) error) error {
		for i := 0; i < rows; i++ {
			if err := each(func(j *httpapi.JSONWriter) { row(j, i) }); err != nil {
				return err
			}
		}
		return nil
	})
}

// errClientGone stops a streamed answer whose client went away.
var errClientGone = errors.New("the client went away")

// streamEach is streamRows for rows handed out by each (a report's Each):
// each calls its argument once per row, with what writes the row, and
// stops at its first error (the client gone).
func (h *handlers) streamEach(w http.ResponseWriter, r *http.Request, meta jsonapi.Meta, each func(row func(func(*httpapi.JSONWriter)) error) error) {
	var mb bytes.Buffer
	enc := json.NewEncoder(&mb)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(meta); err != nil {
		h.writeError(w, r, err)
		return
	}
	if problem := httpapi.AnswerNumbersProblem(mb.Bytes()); problem != "" {
		writeErrors(w, []errorObject{{Status: "409", Code: domain.ECONFLICT, Title: titles[domain.ECONFLICT], Detail: problem}})
		return
	}
	httpapi.StreamJSON(w, mediaType, func(j *httpapi.JSONWriter) {
		j.Raw(`{"data":[`)
		first := true
		_ = each(func(write func(*httpapi.JSONWriter)) error {
			if j.Err() != nil {
				return errClientGone
			}
			if !first {
				j.Raw(",")
			}
			first = false
			write(j)
			return nil
		})
		j.Raw(`],"links":`)
		j.Value(selfLink(r))
		j.Raw(`,"meta":`)
		j.Raw(string(bytes.TrimSuffix(mb.Bytes(), []byte("\n"))))
		j.Raw("}")
	})
}

// writeReportRow writes a row of the synthetic report, or of the analytic
// one when an is not nil. Fields only a line has (bank, base_version,
// code, unit, quantity, unit prices) are null on a stage row, whose totals
// are the sums of the lines under it; unit prices are null on a line
// without a price. supply is present (true) on a line priced with the
// differentiated BDI (synthetic only).
func writeReportRow(j *httpapi.JSONWriter, budgetID string, row *domain.SyntheticRow, an *domain.AnalyticRow, items *httpapi.ItemTree, set fieldSet) {
	line := row.Kind.IsLine()
	lineString := func(s string) {
		if line {
			j.String(s)
		} else {
			j.Null()
		}
	}
	if an != nil {
		j.Raw(`{"type":"analytic-rows","id":`)
	} else {
		j.Raw(`{"type":"synthetic-rows","id":`)
	}
	j.String(budgetID + ":" + row.NodeID)
	j.Raw(`,"attributes":{`)
	a := attrWriter{j: j, set: set}
	if a.key("bank") {
		lineString(row.Bank)
	}
	if a.key("base_version") {
		if line && row.Month != "" { // the own base has no edition
			j.String(row.Month)
		} else {
			j.Null()
		}
	}
	if a.key("code") {
		lineString(row.Code)
	}
	if a.key("depth") {
		j.Int(row.Depth)
	}
	if a.key("description") {
		j.String(row.Description)
	}
	if an != nil {
		if a.key("items") {
			items.Write(j, an.Items)
		}
	}
	if a.key("kind") {
		j.String(string(row.Kind))
	}
	if a.key("missing") {
		j.Bool(row.Missing)
	}
	if a.key("node_id") {
		j.String(row.NodeID)
	}
	if a.key("number") {
		j.String(row.Number)
	}
	if a.key("quantity") {
		if line {
			j.Number(httpapi.Num(row.Quantity))
		} else {
			j.Null()
		}
	}
	if row.Supply && an == nil {
		if a.key("supply") {
			j.Bool(true)
		}
	}
	if a.key("total") {
		j.Money(row.Total)
	}
	if a.key("total_with_bdi") {
		j.Money(row.TotalWithBDI)
	}
	if a.key("unit") {
		lineString(row.Unit)
	}
	priced := line && !row.Missing
	if a.key("unit_price") {
		moneyOrNullTo(j, row.UnitPrice, !priced)
	}
	if a.key("unit_price_with_bdi") {
		moneyOrNullTo(j, row.UnitPriceWithBDI, !priced)
	}
	if an != nil {
		if a.key("unit_summary") {
			if line {
				writeSummary(j, an.UnitSummary)
			} else {
				j.Null()
			}
		}
	}
	if a.key("weight") {
		j.Money(row.Weight)
	}
	j.Raw("}}")
}

func moneyOrNullTo(j *httpapi.JSONWriter, d decimal.Decimal, missing bool) {
	if missing {
		j.Null()
		return
	}
	j.Money(d)
}

// writeSummary writes summaryOf(s).
func writeSummary(j *httpapi.JSONWriter, s domain.CostSummary) {
	httpapi.WriteSummary(j, s, (*httpapi.JSONWriter).Money)
}

// analyticItemObject is an item of a composition line per unit of it, but its
// items (httpapi.ItemTree): resource_type null for a composition, section
// for the SICRO model only, unit_price and partial null when missing.
var analyticItemObject = httpapi.NewObject(
	httpapi.ItemKind,
	httpapi.Str("bank", func(it *domain.AnalyticItem) string { return it.Bank }),
	httpapi.ItemBaseVersion, httpapi.ItemCode,
	httpapi.Str("description", func(it *domain.AnalyticItem) string { return it.Description }),
	httpapi.Str("unit", func(it *domain.AnalyticItem) string { return it.Unit }),
	httpapi.Field("resource_type", func(e *httpapi.Encoder, it *domain.AnalyticItem) {
		if it.Kind != domain.KindResource {
			e.Null()
			return
		}
		e.Int(it.ResourceType)
	}),
	httpapi.Str("section", func(it *domain.AnalyticItem) string { return it.Section }).OmitIf(func(it *domain.AnalyticItem) bool { return it.Section == "" }),
	httpapi.Dec("coefficient", func(it *domain.AnalyticItem) decimal.Decimal { return it.Coefficient }),
	httpapi.Field("unit_price", func(e *httpapi.Encoder, it *domain.AnalyticItem) { e.MoneyOrNull(it.UnitPrice, it.Missing) }),
	httpapi.Field("partial", func(e *httpapi.Encoder, it *domain.AnalyticItem) { e.MoneyOrNull(it.Partial, it.Missing) }),
	httpapi.Dec("labour_base", func(it *domain.AnalyticItem) decimal.Decimal { return it.LabourBase.Decimal }).
		OmitIf(func(it *domain.AnalyticItem) bool { return !it.LabourBase.Valid }),
	httpapi.Dec("labour_charges", func(it *domain.AnalyticItem) decimal.Decimal { return it.LabourCharges.Decimal }).
		OmitIf(func(it *domain.AnalyticItem) bool { return !it.LabourCharges.Valid }),
	httpapi.ItemMissing,
)

// writeABCRow writes a row of an ABC curve, of resources or (services) of
// services, one writer for both: the members they share once, and what is
// each curve's own. A resource's row: resource_type is null for a bank
// composition that stays whole (kind composition); category is labor,
// material, equipment or services; totals have no BDI; unit_price is null
// when missing. A service's row (the budget's lines that name it, grouped):
// its unit price and total with BDI as the synthetic report's lines carry
// them. Members in name order, as encoding/json writes a map.
func writeABCRow(j *httpapi.JSONWriter, budgetID string, row *domain.ABCRow, set fieldSet, services bool) {
	if services {
		j.Raw(`{"type":"abc-service-rows","id":`)
	} else {
		j.Raw(`{"type":"abc-rows","id":`)
	}
	j.String(budgetID + ":" + strconv.Itoa(row.Position))
	j.Raw(`,"attributes":{`)
	a := attrWriter{j: j, set: set}
	resources := !services
	if a.key("bank") {
		j.String(row.Ref.Name)
	}
	if a.key("base_version") {
		j.StringOrNull(strOrNil(row.Ref.Month))
	}
	if resources && a.key("category") {
		j.String(string(row.Category))
	}
	if a.key("class") {
		j.String(string(row.Class))
	}
	if a.key("code") {
		j.String(row.Code)
	}
	if a.key("cumulative_percent") {
		j.Money(row.CumulativePercent)
	}
	if a.key("description") {
		j.String(row.Description)
	}
	if resources && a.key("idle") {
		j.Bool(row.Idle)
	}
	if a.key("kind") {
		j.String(string(row.Kind))
	}
	if a.key("missing") {
		j.Bool(row.Missing)
	}
	if a.key("percent") {
		j.Money(row.Percent)
	}
	if a.key("position") {
		j.Int(row.Position)
	}
	if a.key("quantity") {
		j.Number(httpapi.Num(row.Quantity))
	}
	if resources && a.key("resource_type") {
		if row.Kind == domain.KindResource {
			j.Int(row.ResourceType)
		} else {
			j.Null()
		}
	}
	if resources && a.key("total") {
		j.Money(row.Total)
	}
	if services && a.key("total_with_bdi") {
		j.Money(row.Total)
	}
	if a.key("unit") {
		j.String(row.Unit)
	}
	if resources && a.key("unit_price") {
		moneyOrNullTo(j, row.UnitPrice, row.Missing)
	}
	if services && a.key("unit_price_with_bdi") {
		moneyOrNullTo(j, row.UnitPrice, row.Missing)
	}
	j.Raw("}}")
}
