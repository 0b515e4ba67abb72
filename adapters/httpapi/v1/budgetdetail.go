package v1

import (
	"net/http"

	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// The detail of a budget and of one of its nodes, under /bud as the list
// and the reports: plain JSON, snake_case, every amount, percentage and
// quantity a decimal string. A node is written as its row of the synthetic
// report (itemization, kind, base, base_version, code, descr, unity, qty,
// price, price_plus_bdi, total_price, total_price_plus_bdi, weight), with
// its id.

// budgetNode is a node of the tree of a budget's detail: its row of the
// synthetic report (a stage's totals are the sums of the lines under it)
// and, for a stage, its children (empty for a line).
type budgetNode struct {
	ID string `json:"id"`
	reportRow
	Items []budgetNode `json:"items"`
}

// budgetDetail is GET /bud/budgets/{id}: the budget as the list shows it,
// and its tree.
type budgetDetail struct {
	budgetRecord
	Items []budgetNode `json:"items"`
}

// tree maps nodes ns from rows, the synthetic report's rows in tree order,
// *i the index of the row of ns[0].
func tree(rows []domain.SyntheticRow, ns []domain.BudgetNode, i *int) []budgetNode {
	out := make([]budgetNode, len(ns))
	for k := range ns {
		row := rows[*i]
		*i++
		out[k] = budgetNode{ID: row.NodeID, reportRow: syntheticRow(row)}
		out[k].Items = tree(rows, ns[k].Items, i)
	}
	return out
}

// getBudget handles GET /bud/budgets/{id}: the budget's header (the list's
// record) and its whole tree with every node's figures.
func (h *handler) getBudget(w http.ResponseWriter, r *http.Request) {
	pb, err := h.env.App.Budget(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	i := 0
	out := budgetDetail{budgetRecord: h.budgetRecord(pb), Items: tree(pb.Synthetic.Rows, pb.Items, &i)}
	h.write(w, http.StatusOK, out)
}

// nodeChild is a child of a stage in a node's detail: its id, its row and
// the lines it is or holds, without its own children.
type nodeChild struct {
	ID    string `json:"id"`
	Lines int    `json:"lines"`
	reportRow
}

// nodeBudget is the budget a node belongs to, in a node's detail.
type nodeBudget struct {
	ID           string `json:"id"`
	Code         string `json:"code"`
	Lines        int    `json:"lines"`
	Total        string `json:"total"`
	BDIValue     string `json:"bdi_value"`
	TotalWithBDI string `json:"total_with_bdi"`
	UpdatedAt    string `json:"updated_at"`
}

// nodeDetail is GET /bud/budgets/{id}/nodes/{node}: the node's row, where
// it sits (parent_id null at the top level; position from 0 among its
// siblings; depth 1 at the top), the lines it is or holds, a stage's
// children (empty for a line), the stages that hold it (ancestors, top
// first, with their totals) and the budget's totals.
type nodeDetail struct {
	ID       string  `json:"id"`
	ParentID *string `json:"parent_id"`
	Position int     `json:"position"`
	Depth    int     `json:"depth"`
	Lines    int     `json:"lines"`
	reportRow
	Items     []nodeChild `json:"items"`
	Ancestors []nodeChild `json:"ancestors"`
	Budget    nodeBudget  `json:"budget"`
}

// getNode handles GET /bud/budgets/{id}/nodes/{node}.
func (h *handler) getNode(w http.ResponseWriter, r *http.Request) {
	n, err := h.env.App.BudgetNode(r.Context(), principal(r), chi.URLParam(r, "id"), chi.URLParam(r, "node"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	out := nodeDetail{ID: n.NodeID, ParentID: optStr(n.ParentID), Position: n.Position, Depth: n.Depth, Lines: n.Lines,
		reportRow: syntheticRow(n.SyntheticRow), Items: make([]nodeChild, len(n.Children)), Ancestors: make([]nodeChild, len(n.Ancestors)),
		Budget: nodeBudget{ID: n.Budget.ID, Code: n.Budget.Code, Lines: n.Budget.Lines(), Total: money(n.Totals.Total),
			BDIValue: money(n.Totals.BDIValue), TotalWithBDI: money(n.Totals.TotalWithBDI), UpdatedAt: h.env.FormatTime(n.Budget.UpdatedAt)}}
	for i, c := range n.Children {
		out.Items[i] = nodeChild{ID: c.NodeID, Lines: c.Lines, reportRow: syntheticRow(c.SyntheticRow)}
	}
	for i, a := range n.Ancestors {
		out.Ancestors[i] = nodeChild{ID: a.NodeID, Lines: a.Lines, reportRow: syntheticRow(a.SyntheticRow)}
	}
	h.write(w, http.StatusOK, out)
}
