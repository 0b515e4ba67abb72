package v2

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/google/jsonapi"
)

// A reference bank's labour charges tables (encargos sociais, JSON:API type
// "labour_charges"), read only: what a company reads to decide its own
// charges. GET /banks/{bank}/labour-charges?state=AL&month=01/2024&regime=…
// lists the bank's tables (bank: SICRO3, SINAPI; state, month and regime
// each optional), an empty list when none was imported. A table's id is
// its key with "-" for "/": SICRO3-AL-2024-01-nao-desonerado. The
// percentages are served as stored, but for the digits past the 10th
// decimal place that the cells' binary doubles carry (DNIT's item cells
// hold up to 18: 0.000828255042352629), rounded half up to 10 as every
// answer's numbers are (httpapi.Num).
const labourChargesType = "labour_charges"

// chargesRowDoc is one labour code (or category) of a table: items are the
// percentages of the table's items, in the same order.
type chargesRowDoc struct {
	Code        string        `json:"code"`
	Description string        `json:"description"`
	Unit        string        `json:"unit"`
	Kind        string        `json:"kind"` // horista or mensalista
	Items       []json.Number `json:"items"`
	Total       json.Number   `json:"total"`
}

// listLabourCharges handles GET /banks/{id}/labour-charges.
func (h *handlers) listLabourCharges(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "state", "month", "regime")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	tabs, err := h.env.App.ChargesTables(r.Context(), app.ChargesQuery{
		Bank: pathParam(r, "id"), State: q.Get("state"), Month: q.Get("month"), Regime: q.Get("regime")})
	if err != nil {
		h.writeError(w, r, invalidAsParams(err))
		return
	}
	nodes := make([]*jsonapi.Node, len(tabs))
	for i, t := range tabs {
		rows := make([]chargesRowDoc, len(t.Rows))
		for j, row := range t.Rows {
			kind := "horista"
			if row.Monthly {
				kind = "mensalista"
			}
			items := make([]json.Number, len(row.Items))
			for k, p := range row.Items {
				items[k] = httpapi.Num(p)
			}
			rows[j] = chargesRowDoc{Code: row.Code, Description: row.Description, Unit: row.Unit, Kind: kind,
				Items: items, Total: httpapi.Num(row.Total)}
		}
		itemNames := t.Items
		if itemNames == nil {
			itemNames = []string{}
		}
		nodes[i] = &jsonapi.Node{
			Type: labourChargesType,
			ID:   strings.ReplaceAll(t.Key(), "/", "-"),
			Attributes: map[string]any{
				"bank": t.Bank, "state": t.State, "month": t.Month, "regime": t.Regime.String(),
				"items": itemNames, "rows": rows,
			},
		}
	}
	h.writeNodes(w, r, &jsonapi.ManyPayload{Data: nodes, Meta: totalMeta(len(nodes))})
}
