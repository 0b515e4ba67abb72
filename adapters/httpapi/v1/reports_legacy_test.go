package v1

// The reports as they were rendered before they were streamed (encoding/json
// by reflection, whole in memory, httpapi.WriteJSON): the reference the
// streamed answers must equal byte for byte.

import (
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
)

// summaryBody is an amount by category.
type summaryBody struct {
	Labor     string `json:"labor"`
	Material  string `json:"material"`
	Equipment string `json:"equipment"`
	Services  string `json:"services"`
	Total     string `json:"total"`
}

func summaryOf(s domain.CostSummary) *summaryBody {
	return &summaryBody{Labor: money(s.Labor), Material: money(s.Material), Equipment: money(s.Equipment),
		Services: money(s.Services), Total: money(s.Total())}
}

// analyticItem is an item of a composition in the analytic report, per
// unit of the composition: type is the resource type (as text, as v1
// composition items write it) and null for a composition; total_price is
// the partial cost; items are the items of a composition item, opened in
// turn (an own composition always, a bank one where its published
// structure was imported).
type analyticItem struct {
	Kind        string         `json:"kind"`
	Base        string         `json:"base"`
	BaseVersion *string        `json:"base_version"`
	Code        string         `json:"code"`
	Descr       string         `json:"descr"`
	Unity       string         `json:"unity"`
	Type        *string        `json:"type"`
	Coefficient string         `json:"coefficient"`
	Price       *string        `json:"price"`       // null when missing
	TotalPrice  *string        `json:"total_price"` // null when missing
	Missing     bool           `json:"missing"`
	Items       []analyticItem `json:"items"`
}

func analyticItems(items []domain.AnalyticItem) []analyticItem {
	out := make([]analyticItem, len(items))
	for i, it := range items {
		a := analyticItem{
			Kind: string(it.Kind), Base: it.Bank, BaseVersion: optStr(it.Month), Code: it.Code, Descr: it.Description,
			Unity: it.Unit, Coefficient: it.Coefficient.String(),
			Missing: it.Missing, Items: analyticItems(it.Items),
		}
		if !it.Missing {
			a.Price, a.TotalPrice = price(it.UnitPrice), str(money(it.Partial))
		}
		if it.Kind == domain.KindResource {
			a.Type = str(strconv.Itoa(it.ResourceType))
		}
		out[i] = a
	}
	return out
}

// analyticRow is a row of the v1 analytic report: a synthetic row, the
// items of a composition line (empty for stages and resources), one unit
// of a line by category (unit_summary; null for stages and the footer),
// and on the footer only, the whole budget's direct cost by category
// (summary, from its resources, without BDI; null elsewhere).
type analyticRow struct {
	reportRow
	Items       []analyticItem `json:"items"`
	UnitSummary *summaryBody   `json:"unit_summary"`
	Summary     *summaryBody   `json:"summary"`
}

func legacySynthetic(w http.ResponseWriter, rep *domain.SyntheticReport) {
	if p := httpapi.FiguresProblem(rep); p != "" {
		httpapi.WriteJSON(w, mediaType, http.StatusConflict, map[string]string{"message": p})
		return
	}
	rows := make([]reportRow, 0, len(rep.Rows)+1)
	for _, row := range rep.Rows {
		rows = append(rows, syntheticRow(row))
	}
	httpapi.WriteJSON(w, mediaType, http.StatusOK, append(rows, incompleteFooter(footerRow(rep.BudgetTotals), rep.Missing)))
}

func legacyAnalytic(w http.ResponseWriter, rep *domain.AnalyticReport) {
	if p := httpapi.FiguresProblem(rep); p != "" {
		httpapi.WriteJSON(w, mediaType, http.StatusConflict, map[string]string{"message": p})
		return
	}
	rows := make([]analyticRow, 0, len(rep.Rows)+1)
	for _, row := range rep.Rows {
		a := analyticRow{reportRow: syntheticRow(row.SyntheticRow), Items: analyticItems(row.Items)}
		if row.Kind.IsLine() {
			a.UnitSummary = summaryOf(row.UnitSummary)
		}
		rows = append(rows, a)
	}
	rows = append(rows, analyticRow{reportRow: incompleteFooter(footerRow(rep.BudgetTotals), rep.Missing), Items: []analyticItem{}, Summary: summaryOf(rep.Summary)})
	httpapi.WriteJSON(w, mediaType, http.StatusOK, rows)
}
