package pgstore

import (
	"fmt"

	"github.com/costdb/costdb/domain"
	"github.com/jackc/pgx/v5"
)

// budgetStreamChunk is how many nodes of a budget's tree one query of a
// streamed report reads.
const budgetStreamChunk = 2000

// BudgetStream reads a budget for a streamed report (app.BudgetStreamer):
// its fields and banks, not its tree, which the walk returned reads in
// chunks of budgetStreamChunk nodes in tree order (pos), each read whole
// before its nodes are visited (a visit may query the transaction: pgx
// reads one result at a time on a connection). What a walk holds of the
// tree is one chunk and the depth of each stage, whatever the lines.
// Valid until the transaction ends.
func (t *tx) BudgetStream(id string) (*domain.Budget, domain.NodeWalk, error) {
	if err := t.readable(); err != nil {
		return nil, nil, err
	}
	bs, err := t.budgets(false, byWhere(`r.id = $1`, id))
	if err != nil {
		return nil, nil, err
	}
	if len(bs) == 0 {
		return nil, nil, notFound("budget %s not found", id)
	}
	b := bs[0]
	b.Items = nil
	walk := func(visit func(*domain.BudgetNode, int) error) error {
		depth := map[int]int{-1: 0} // the depth of each stage, by position
		type row struct {
			pos, parent int
			node        domain.BudgetNode
		}
		chunk := make([]row, 0, budgetStreamChunk)
		for from := 0; ; {
			chunk = chunk[:0]
			var d decoder
			batch := &pgx.Batch{}
			batchRows(batch, `SELECT x.pos, x.parent, x.id, x.kind, x.description, x.bank, x.code, x.quantity::text
				FROM budget_nodes x WHERE x.company_id = $1 AND x.budget_id = $2 AND x.pos >= $3 ORDER BY x.pos LIMIT $4`,
				[]any{b.CompanyID, b.ID, from, budgetStreamChunk}, func(rows pgx.Rows) error {
					var r row
					var kind string
					var qty *string
					if err := rows.Scan(&r.pos, &r.parent, &r.node.ID, &kind, &r.node.Description, &r.node.Bank, &r.node.Code, &qty); err != nil {
						return err
					}
					r.node.Kind, r.node.Quantity = domain.NodeKind(kind), d.optDec(qty)
					chunk = append(chunk, r)
					return nil
				})
			if err := t.send(batch); err != nil {
				return err
			}
			if d.err != nil {
				return d.err
			}
			for i := range chunk {
				r := &chunk[i]
				pd, ok := depth[r.parent]
				if !ok {
					return fmt.Errorf("pgstore: budget %s: node at %d has no parent at %d", id, r.pos, r.parent)
				}
				if r.node.Kind == domain.NodeStage {
					depth[r.pos] = pd + 1
				}
				if err := visit(&r.node, pd+1); err != nil {
					return err
				}
			}
			if len(chunk) < budgetStreamChunk {
				return nil
			}
			from = chunk[len(chunk)-1].pos + 1
		}
	}
	return b, walk, nil
}
