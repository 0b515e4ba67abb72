package app

import "github.com/costdb/costdb/domain"

// replaceItems replaces a budget's tree with in. A node sent with the id of
// a node the budget has now keeps that id (so that a budget fetched and sent
// back unchanged keeps its node ids); any other id sent, or one sent twice,
// is ignored and the node gets a new id.
func replaceItems(b *domain.Budget, in []NodeInput) {
	known := map[string]bool{}
	for _, e := range b.Outline() {
		known[e.Node.ID] = true
	}
	b.Items = nodes(in)
	var keep func(ns []domain.BudgetNode, in []NodeInput)
	keep = func(ns []domain.BudgetNode, in []NodeInput) {
		for i := range ns {
			if id := in[i].ID; known[id] {
				ns[i].ID = id
				delete(known, id) // an id sent twice is kept once
			}
			keep(ns[i].Items, in[i].Items)
		}
	}
	keep(b.Items, in)
	b.AssignIDs()
}
