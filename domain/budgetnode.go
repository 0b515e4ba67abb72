package domain

import "strings"

// BudgetLimits are the caps on a budget's tree. They are settings of the
// service (its defaults DefaultMaxBudgetDepth and DefaultMaxBudgetLines),
// not rules of what a budget is, so the domain's operations (AddNode,
// MoveNode, Validate) do not apply them: the use cases check the result of
// a change with Check before saving it.
type BudgetLimits struct {
	// Depth is how many levels the tree may have, lines included: 1 is a
	// flat list of lines.
	Depth int
	// Lines is the most lines (compositions and resources) one budget holds.
	Lines int
}

// DefaultBudgetLimits returns the default caps.
func DefaultBudgetLimits() BudgetLimits {
	return BudgetLimits{Depth: DefaultMaxBudgetDepth, Lines: DefaultMaxBudgetLines}
}

// Check checks b's tree against the caps. Within the subtree whose JSON
// pointer is under ("" for the whole tree), every node that sits one level
// deeper than l.Depth is named by its pointer relative to under ("/items/0/
// items/3"; "" for the node at under itself): it and what it holds are too
// deep. When the whole budget holds more than l.Lines lines, the error names
// linesField, or is a plain EINVALID error when linesField is "". A zero
// cap is no cap.
func (l BudgetLimits) Check(b *Budget, under, linesField string) error {
	var v Validation
	lines := 0
	for _, e := range b.Outline() {
		if e.Node.Kind.IsLine() {
			lines++
		}
		if l.Depth > 0 && e.Depth == l.Depth+1 && (under == "" || e.Pointer == under || strings.HasPrefix(e.Pointer, under+"/")) {
			v.Add(strings.TrimPrefix(e.Pointer, under), "is nested %d levels deep; a budget's tree has at most %d levels, lines included", e.Depth, l.Depth)
		}
	}
	if l.Lines > 0 && lines > l.Lines {
		msg := "the budget would hold %d lines; a budget holds at most %d"
		if linesField == "" {
			return Errorf(EINVALID, msg, lines, l.Lines)
		}
		v.Add(linesField, msg, lines, l.Lines)
	}
	return v.Err()
}

// NodeReport is one node of a budget with its figures: its synthetic row
// (a line's unit prices and totals; a stage's subtotals), where it sits,
// the lines it holds, and for a stage the rows of its children (not of
// their children: a stage inside is a row with its subtotals). Budget and
// Totals are the budget's, priced with it.
type NodeReport struct {
	SyntheticRow
	Budget *Budget
	Totals BudgetTotals
	// ParentID is the stage that holds the node; "" at the top level.
	ParentID string
	// Position is the node's index among its siblings, from 0.
	Position int
	// Lines is how many lines the node is or holds (1 for a line).
	Lines int
	// Children are a stage's nodes, in order; nil for a line.
	Children []NodeChild
	// Ancestors are the stages that hold the node, from the top level
	// down to its parent, with their subtotals: what else a change of the
	// node changes in the tree, besides the budget's totals.
	Ancestors []NodeChild
}

// NodeChild is a child of a stage in a NodeReport: its row and the lines
// it is or holds.
type NodeChild struct {
	SyntheticRow
	Lines int
}

// Node returns the report of the node with the ID, from the rows of the
// synthetic report; false when the budget has no such node.
func (r *SyntheticReport) Node(id string) (*NodeReport, bool) {
	outline := r.Budget.Outline()
	at := -1
	for i, e := range outline {
		if e.Node.ID == id {
			at = i
			break
		}
	}
	if at < 0 || len(r.Rows) != len(outline) {
		return nil, false
	}
	// Lines per node, bottom up: children come after their stage.
	lines := make([]int, len(outline))
	for i := len(outline) - 1; i >= 0; i-- {
		if outline[i].Node.Kind.IsLine() {
			lines[i]++
		}
		if p := outline[i].Parent; p >= 0 {
			lines[p] += lines[i]
		}
	}
	e := outline[at]
	out := &NodeReport{SyntheticRow: r.Rows[at], Budget: r.Budget, Totals: r.BudgetTotals, Lines: lines[at]}
	if e.Parent >= 0 {
		out.ParentID = outline[e.Parent].Node.ID
	}
	for p := e.Parent; p >= 0; p = outline[p].Parent {
		out.Ancestors = append([]NodeChild{{SyntheticRow: r.Rows[p], Lines: lines[p]}}, out.Ancestors...)
	}
	for i := range outline {
		if i < at && outline[i].Parent == e.Parent && outline[i].Depth == e.Depth {
			out.Position++
		}
	}
	if e.Node.Kind == NodeStage {
		out.Children = make([]NodeChild, 0, len(e.Node.Items))
		for i := at + 1; i < len(outline) && outline[i].Depth > e.Depth; i++ {
			if outline[i].Parent == at {
				out.Children = append(out.Children, NodeChild{SyntheticRow: r.Rows[i], Lines: lines[i]})
			}
		}
	}
	return out, true
}

// NodeReport returns the report of one node of the priced budget (see
// SyntheticReport.Node). (Budget.Node, promoted, is the node itself.)
func (pb *PricedBudget) NodeReport(id string) (*NodeReport, bool) {
	if pb.Synthetic == nil {
		return nil, false
	}
	return pb.Synthetic.Node(id)
}
