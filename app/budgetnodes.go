package app

import (
	"context"

	"github.com/costdb/costdb/domain"
)

// NodeChange is everything one request may change of a node of a budget:
// its own fields (a stage's description, a line's quantity) and, when Move
// is set, its place. ParentID nil keeps the node under the stage that holds
// it now (or at the top level); "" is the top level. Position counts from 0
// among the new siblings, once the node has left its old place; nil is
// after the last.
type NodeChange struct {
	NodePatch
	Move     bool
	ParentID *string
	Position *int
}

// ChangeBudgetNode changes a node's fields and moves it, in one
// transaction: either both happen or, on an error, neither. Errors are
// those of UpdateBudgetNode and MoveBudgetNode.
func (s *Service) ChangeBudgetNode(ctx context.Context, p domain.Principal, budgetID, nodeID string, ch NodeChange) (*domain.PricedBudget, error) {
	return s.editBudget(ctx, p, budgetID, func(_ Tx, b *domain.Budget) error {
		if err := patchNode(b, nodeID, ch.NodePatch); err != nil {
			return err
		}
		if !ch.Move {
			return nil
		}
		to := NodePlace{Position: ch.Position}
		if ch.ParentID != nil {
			to.ParentID = *ch.ParentID
		} else {
			to.ParentID = parentOf(b, nodeID)
		}
		return moveNode(b, nodeID, to, s.budgetLimits())
	})
}

// parentOf returns the ID of the stage that holds the node, "" for the top
// level (or an unknown node, which the caller reports).
func parentOf(b *domain.Budget, nodeID string) string {
	outline := b.Outline()
	for _, e := range outline {
		if e.Node.ID == nodeID && e.Parent >= 0 {
			return outline[e.Parent].Node.ID
		}
	}
	return ""
}
