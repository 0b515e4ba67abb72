package v2

// The reports' documents as they were rendered before they were streamed
// (google/jsonapi and encoding/json by reflection, whole in memory): the
// reference the streamed documents must equal byte for byte.

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/google/jsonapi"
)

// legacyAnalyticItemDoc is an item of a composition in the analytic report:
// per unit of the composition, with the items of a composition item opened
// in turn (an own composition always; a bank one where its published
// structure was imported, else items is empty).
type legacyAnalyticItemDoc struct {
	Kind         string                  `json:"kind"`
	Bank         string                  `json:"bank"`
	BaseVersion  *string                 `json:"base_version"`
	Code         string                  `json:"code"`
	Description  string                  `json:"description"`
	Unit         string                  `json:"unit"`
	ResourceType *int                    `json:"resource_type"`
	Section      string                  `json:"section,omitempty"`
	Coefficient  json.Number             `json:"coefficient"`
	UnitPrice    *json.Number            `json:"unit_price"` // null when missing
	Partial      *json.Number            `json:"partial"`    // null when missing
	Missing      bool                    `json:"missing"`
	Items        []legacyAnalyticItemDoc `json:"items"`
}

func legacyAnalyticItems(items []domain.AnalyticItem) []legacyAnalyticItemDoc {
	out := make([]legacyAnalyticItemDoc, len(items))
	for i, it := range items {
		d := legacyAnalyticItemDoc{
			Kind: string(it.Kind), Bank: it.Bank, BaseVersion: strOrNil(it.Month), Code: it.Code,
			Description: it.Description, Unit: it.Unit, Section: it.Section,
			Coefficient: httpapi.Num(it.Coefficient),
			UnitPrice:   moneyOrNull(it.UnitPrice, it.Missing), Partial: moneyOrNull(it.Partial, it.Missing),
			Missing: it.Missing, Items: legacyAnalyticItems(it.Items),
		}
		if it.Kind == domain.KindResource {
			d.ResourceType = ptr(it.ResourceType)
		}
		out[i] = d
	}
	return out
}

// legacyAnalyticRowDoc is a row of the analytic report: a synthetic row and, for
// a composition line, its items and one unit of it by category.
type legacyAnalyticRowDoc struct {
	ID               string                  `jsonapi:"primary,analytic-rows"`
	NodeID           string                  `jsonapi:"attr,node_id"`
	Number           string                  `jsonapi:"attr,number"`
	Depth            int                     `jsonapi:"attr,depth"`
	Kind             string                  `jsonapi:"attr,kind"`
	Bank             *string                 `jsonapi:"attr,bank"`
	BaseVersion      *string                 `jsonapi:"attr,base_version"`
	Code             *string                 `jsonapi:"attr,code"`
	Description      string                  `jsonapi:"attr,description"`
	Unit             *string                 `jsonapi:"attr,unit"`
	Quantity         *json.Number            `jsonapi:"attr,quantity"`
	UnitPrice        *json.Number            `jsonapi:"attr,unit_price"`
	UnitPriceWithBDI *json.Number            `jsonapi:"attr,unit_price_with_bdi"`
	Total            json.Number             `jsonapi:"attr,total"`
	TotalWithBDI     json.Number             `jsonapi:"attr,total_with_bdi"`
	Weight           json.Number             `jsonapi:"attr,weight"`
	Missing          bool                    `jsonapi:"attr,missing"`
	Items            []legacyAnalyticItemDoc `jsonapi:"attr,items"`
	UnitSummary      *summaryDoc             `jsonapi:"attr,unit_summary"`
}

// legacyABCRowDoc is a row of the ABC curve. The seed's `type` is resource_type
// (JSON:API forbids an attribute named type), null for a bank composition
// that stays whole (kind composition); category is labor, material,
// equipment or services. Totals have no BDI.
type legacyABCRowDoc struct {
	ID                string       `jsonapi:"primary,abc-rows"`
	Position          int          `jsonapi:"attr,position"`
	Bank              string       `jsonapi:"attr,bank"`
	BaseVersion       *string      `jsonapi:"attr,base_version"`
	Code              string       `jsonapi:"attr,code"`
	Kind              string       `jsonapi:"attr,kind"`
	Idle              bool         `jsonapi:"attr,idle"`
	Description       string       `jsonapi:"attr,description"`
	Unit              string       `jsonapi:"attr,unit"`
	ResourceType      *int         `jsonapi:"attr,resource_type"`
	Category          string       `jsonapi:"attr,category"`
	Quantity          json.Number  `jsonapi:"attr,quantity"`
	UnitPrice         *json.Number `jsonapi:"attr,unit_price"` // null when missing
	Total             json.Number  `jsonapi:"attr,total"`
	Percent           json.Number  `jsonapi:"attr,percent"`
	CumulativePercent json.Number  `jsonapi:"attr,cumulative_percent"`
	Class             string       `jsonapi:"attr,class"`
	Missing           bool         `jsonapi:"attr,missing"`
}

func (h *handlers) legacySynthetic(w http.ResponseWriter, r *http.Request, rep *domain.SyntheticReport) {
	docs := make([]*syntheticRowDoc, len(rep.Rows))
	for i, row := range rep.Rows {
		docs[i] = syntheticRow(rep.Budget.ID, row)
	}
	meta := footerMeta(rep.Budget, rep.BudgetTotals, len(rep.Rows))
	addMissing(meta, httpapi.MissingLines(rep.Missing))
	h.writeDocWith(w, r, http.StatusOK, docs, selfLink(r), &meta)
}

func (h *handlers) legacyAnalytic(w http.ResponseWriter, r *http.Request, rep *domain.AnalyticReport) {
	docs := make([]*legacyAnalyticRowDoc, len(rep.Rows))
	for i, row := range rep.Rows {
		s := syntheticRow(rep.Budget.ID, row.SyntheticRow)
		d := &legacyAnalyticRowDoc{
			ID: s.ID, NodeID: s.NodeID, Number: s.Number, Depth: s.Depth, Kind: s.Kind,
			Bank: s.Bank, BaseVersion: s.BaseVersion, Code: s.Code, Description: s.Description, Unit: s.Unit,
			Quantity: s.Quantity, UnitPrice: s.UnitPrice, UnitPriceWithBDI: s.UnitPriceWithBDI,
			Total: s.Total, TotalWithBDI: s.TotalWithBDI, Weight: s.Weight, Missing: s.Missing,
			Items: legacyAnalyticItems(row.Items),
		}
		if row.Kind.IsLine() {
			d.UnitSummary = ptr(summaryOf(row.UnitSummary))
		}
		docs[i] = d
	}
	meta := footerMeta(rep.Budget, rep.BudgetTotals, len(rep.Rows))
	meta["summary"] = summaryOf(rep.Summary)
	addMissing(meta, httpapi.MissingLines(rep.Missing))
	h.writeDocWith(w, r, http.StatusOK, docs, selfLink(r), &meta)
}

func (h *handlers) legacyABC(w http.ResponseWriter, r *http.Request, rep *domain.ABCReport) {
	docs := make([]*legacyABCRowDoc, len(rep.Rows))
	for i, row := range rep.Rows {
		d := &legacyABCRowDoc{
			ID: rep.Budget.ID + ":" + strconv.Itoa(row.Position), Position: row.Position, Bank: row.Ref.Name,
			BaseVersion: strOrNil(row.Ref.Month), Code: row.Code, Kind: string(row.Kind), Idle: row.Idle,
			Description: row.Description, Unit: row.Unit, Category: string(row.Category),
			Quantity: httpapi.Num(row.Quantity), UnitPrice: moneyOrNull(row.UnitPrice, row.Missing), Total: httpapi.Money(row.Total),
			Percent: httpapi.Money(row.Percent), CumulativePercent: httpapi.Money(row.CumulativePercent),
			Class: string(row.Class), Missing: row.Missing,
		}
		if row.Kind == domain.KindResource {
			d.ResourceType = ptr(row.ResourceType)
		}
		docs[i] = d
	}
	classes := map[string]map[string]any{}
	for _, c := range rep.Classes() {
		classes[string(c.Class)] = map[string]any{"count": c.Count, "total": httpapi.Money(c.Total), "percent": httpapi.Money(c.Percent)}
	}
	meta := jsonapi.Meta{
		"budget":  metaOf(rep.Budget),
		"rows":    len(rep.Rows),
		"limits":  map[string]json.Number{"a": httpapi.Num(rep.Limits.A), "b": httpapi.Num(rep.Limits.B)},
		"total":   httpapi.Money(rep.Total),
		"summary": summaryOf(rep.Summary),
		"classes": classes,
	}
	addMissing(meta, httpapi.MissingRows(rep.Missing))
	h.writeDocWith(w, r, http.StatusOK, docs, selfLink(r), &meta)
}
