package v2

import (
	"encoding/json"
	"net/http"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// budgetNodeDoc is one node of a budget with its figures: JSON:API type
// "budget-nodes", id "<budget id>:<node id>", served at
// …/budgets/{id}/nodes/{node}. The figures are those of the node's row in
// the synthetic report: a line's unit prices and totals, a stage's
// subtotals (the sums of the lines under it). Fields only a line has are
// null on a stage. A stage lists its children (`items`, each with its own
// figures but not its children: GET a child stage to open it); a line's
// `items` is null. parent_id is null at the top level; position counts
// from 0 among the siblings.
type budgetNodeDoc struct {
	ID               string          `jsonapi:"primary,budget-nodes"`
	NodeID           string          `jsonapi:"attr,node_id"`
	Number           string          `jsonapi:"attr,number"`
	Depth            int             `jsonapi:"attr,depth"`
	ParentID         *string         `jsonapi:"attr,parent_id"`
	Position         int             `jsonapi:"attr,position"`
	Kind             string          `jsonapi:"attr,kind"`
	Description      string          `jsonapi:"attr,description"`
	Bank             *string         `jsonapi:"attr,bank"`
	BaseVersion      *string         `jsonapi:"attr,base_version"`
	Code             *string         `jsonapi:"attr,code"`
	Unit             *string         `jsonapi:"attr,unit"`
	Quantity         *json.Number    `jsonapi:"attr,quantity"`
	UnitPrice        *json.Number    `jsonapi:"attr,unit_price"`
	UnitPriceWithBDI *json.Number    `jsonapi:"attr,unit_price_with_bdi"`
	Total            json.Number     `jsonapi:"attr,total"`
	TotalWithBDI     json.Number     `jsonapi:"attr,total_with_bdi"`
	Weight           json.Number     `jsonapi:"attr,weight"`
	Missing          bool            `jsonapi:"attr,missing"`
	Lines            int             `jsonapi:"attr,lines"`
	Items            *[]nodeChildDoc `jsonapi:"attr,items"`
}

// nodeChildDoc is a child of a stage in a budgetNodeDoc, or the stage that
// held a removed node: the node's figures, without its own children.
type nodeChildDoc struct {
	ID               string       `json:"id"`
	Number           string       `json:"number"`
	Kind             string       `json:"kind"`
	Description      string       `json:"description"`
	Bank             *string      `json:"bank"`
	BaseVersion      *string      `json:"base_version"`
	Code             *string      `json:"code"`
	Unit             *string      `json:"unit"`
	Quantity         *json.Number `json:"quantity"`
	UnitPrice        *json.Number `json:"unit_price"`
	UnitPriceWithBDI *json.Number `json:"unit_price_with_bdi"`
	Total            json.Number  `json:"total"`
	TotalWithBDI     json.Number  `json:"total_with_bdi"`
	Weight           json.Number  `json:"weight"`
	Missing          bool         `json:"missing"`
	Lines            int          `json:"lines"`
}

func nodeChild(row domain.SyntheticRow, lines int) nodeChildDoc {
	s := syntheticRow("", row)
	return nodeChildDoc{ID: row.NodeID, Number: row.Number, Kind: s.Kind, Description: s.Description,
		Bank: s.Bank, BaseVersion: s.BaseVersion, Code: s.Code, Unit: s.Unit, Quantity: s.Quantity,
		UnitPrice: s.UnitPrice, UnitPriceWithBDI: s.UnitPriceWithBDI, Total: s.Total, TotalWithBDI: s.TotalWithBDI,
		Weight: s.Weight, Missing: s.Missing, Lines: lines}
}

func budgetNode(n *domain.NodeReport) *budgetNodeDoc {
	s := syntheticRow(n.Budget.ID, n.SyntheticRow)
	d := &budgetNodeDoc{ID: s.ID, NodeID: s.NodeID, Number: s.Number, Depth: s.Depth, ParentID: strOrNil(n.ParentID),
		Position: n.Position, Kind: s.Kind, Description: s.Description, Bank: s.Bank, BaseVersion: s.BaseVersion,
		Code: s.Code, Unit: s.Unit, Quantity: s.Quantity, UnitPrice: s.UnitPrice, UnitPriceWithBDI: s.UnitPriceWithBDI,
		Total: s.Total, TotalWithBDI: s.TotalWithBDI, Weight: s.Weight, Missing: s.Missing, Lines: n.Lines}
	if n.Kind == domain.NodeStage {
		items := make([]nodeChildDoc, len(n.Children))
		for i, c := range n.Children {
			items[i] = nodeChild(c.SyntheticRow, c.Lines)
		}
		d.Items = &items
	}
	return d
}

// nodeBudgetMeta is the budget a node belongs to, in the meta of a node
// document: its id and code, how many lines it holds, and its totals and
// time of change, as they are after the request.
type nodeBudgetMeta struct {
	ID           string      `json:"id"`
	Code         string      `json:"code"`
	Lines        int         `json:"lines"`
	Total        json.Number `json:"total"`
	BDIValue     json.Number `json:"bdi_value"`
	TotalWithBDI json.Number `json:"total_with_bdi"`
	UpdatedAt    string      `json:"updated_at"`
}

func (h *handlers) nodeBudgetMeta(b *domain.Budget, t domain.BudgetTotals) nodeBudgetMeta {
	return nodeBudgetMeta{ID: b.ID, Code: b.Code, Lines: b.Lines(), Total: httpapi.Money(t.Total),
		BDIValue: httpapi.Money(t.BDIValue), TotalWithBDI: httpapi.Money(t.TotalWithBDI), UpdatedAt: h.env.FormatTime(b.UpdatedAt)}
}

// ancestors maps the stages that hold a node, top first.
func ancestors(n *domain.NodeReport) []nodeChildDoc {
	out := make([]nodeChildDoc, len(n.Ancestors))
	for i, a := range n.Ancestors {
		out[i] = nodeChild(a.SyntheticRow, a.Lines)
	}
	return out
}

// writeNodeReport answers one node: its document, and in meta the budget
// and the stages that hold the node (top first) with their totals.
func (h *handlers) writeNodeReport(w http.ResponseWriter, r *http.Request, st int, n *domain.NodeReport) {
	meta := jsonapi.Meta{"budget": h.nodeBudgetMeta(n.Budget, n.Totals), "ancestors": ancestors(n)}
	h.writeDocWith(w, r, st, budgetNode(n), nil, &meta)
}

// writeNode answers the node of a budget just changed.
func (h *handlers) writeNode(w http.ResponseWriter, r *http.Request, st int, pb *domain.PricedBudget, nodeID string) {
	n, ok := pb.NodeReport(nodeID)
	if !ok {
		h.writeError(w, r, domain.Errorf(domain.EINTERNAL, "node %s not in the budget after its change", nodeID))
		return
	}
	h.writeNodeReport(w, r, st, n)
}

// getNode handles GET /budgets/{id}/nodes/{node}: the node with its
// figures, and the budget's totals in meta.
func (h *handlers) getNode(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	n, err := h.env.App.BudgetNode(r.Context(), principal(r), chi.URLParam(r, "id"), chi.URLParam(r, "node"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeNodeReport(w, r, http.StatusOK, n)
}

// removedMeta is the meta of the answer to DELETE …/nodes/{node}: the node
// removed and the stage that held it (parent_id, null at the top level),
// the stages that held it (top first, the parent last) with their new
// totals, and the budget's new totals. Nothing else changes but the
// numbers of the node's later siblings (and what they hold), one less at
// its level.
func (h *handlers) removedMeta(pb *domain.PricedBudget, nodeID, parentID string) map[string]any {
	above := []nodeChildDoc{}
	if n, ok := pb.NodeReport(parentID); ok {
		above = append(ancestors(n), nodeChild(n.SyntheticRow, n.Lines))
	}
	return map[string]any{
		"removed":   map[string]any{"id": nodeID, "parent_id": strOrNil(parentID)},
		"ancestors": above,
		"budget":    h.nodeBudgetMeta(pb.Budget, pb.Totals),
	}
}

// writeMeta writes a JSON:API document with top-level meta only (JSON:API
// allows it as the answer to a DELETE that has something to say).
func (h *handlers) writeMeta(w http.ResponseWriter, r *http.Request, st int, meta map[string]any) {
	h.writeJSON(w, r, st, map[string]any{"meta": meta})
}
