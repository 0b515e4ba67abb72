package storetest

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// testQueryTagged checks the Tagged condition of the three lists that take
// it (resources, compositions, budgets): a record matches when the tag is
// among its tags, byte for byte; another company's record never does; tags
// read back as they were put, a replace that removes a tag takes the
// record out of the filter, and Tagged goes with the other conditions.
func testQueryTagged(t *testing.T, s app.Store) {
	tagged := func(tag string) app.Cond { return app.Cond{Op: app.Tagged, Text: tag} }
	rs := []*domain.Resource{
		queryResource(1, coA, "R-1", "Areia", domain.TypeMaterial, "M3", "", nil, true, false, hours(1)),
		queryResource(2, coA, "R-2", "Brita", domain.TypeMaterial, "M3", "", nil, true, false, hours(2)),
		queryResource(3, coA, "R-3", "Cimento", domain.TypeMaterial, "SC", "", nil, true, false, hours(3)),
		queryResource(4, coB, "R-1", "Areia", domain.TypeMaterial, "M3", "", nil, true, false, hours(1)),
	}
	rs[0].Tags = []string{"obra 12", "Fundação"}
	rs[1].Tags = []string{"obra 12"}
	rs[2].Tags = []string{"fundação"} // another tag: case counts
	rs[3].Tags = []string{"obra 12"}
	cs := []*domain.Composition{
		queryComposition(1, coA, "C-1", "Concreto", "ESTR", "M3", "MG", "", false, hours(1)),
		queryComposition(2, coA, "C-2", "Forma", "ESTR", "M2", "MG", "", false, hours(2)),
		queryComposition(3, coB, "C-1", "Concreto", "ESTR", "M3", "MG", "", false, hours(1)),
	}
	cs[1].Tags = []string{"obra 12"}
	cs[2].Tags = []string{"obra 12"}
	bs := []*domain.Budget{
		queryBudget(1, coA, "ORC-1", "Casa", "Maria", "MG", hours(1), hours(1)),
		queryBudget(2, coA, "ORC-2", "Galpão", "João", "SP", hours(2), hours(2)),
		queryBudget(3, coB, "ORC-1", "Casa", "Maria", "MG", hours(1), hours(1)),
	}
	bs[0].Tags = []string{"licitação", "obra 12"}
	bs[2].Tags = []string{"obra 12"}
	update(t, s, func(tx app.Tx) error {
		for _, r := range rs {
			if err := tx.PutResource(r); err != nil {
				return err
			}
		}
		for _, c := range cs {
			if err := tx.PutComposition(c); err != nil {
				return err
			}
		}
		for _, b := range bs {
			if err := tx.PutBudget(b); err != nil {
				return err
			}
		}
		return nil
	})
	runQueries(t, s, "RE", listResources, resourceID, []queryCase{
		{"tagged", app.Query{Where: where(tagged("obra 12"))}, []int{1, 2}, 2},
		{"tagged is exact", app.Query{Where: where(tagged("fundação"))}, []int{3}, 1},
		{"tagged with another condition", app.Query{Where: where(tagged("obra 12"), contains("brita", app.FieldDescription))}, []int{2}, 1},
		{"tagged, none", app.Query{Where: where(tagged("obra"))}, nil, 0},
		{"tagged, a page", app.Query{Where: where(tagged("obra 12")), Offset: 1, Limit: 1}, []int{2}, 2},
	})
	runQueries(t, s, "CP", listCompositions, compositionID, []queryCase{
		{"tagged", app.Query{Where: where(tagged("obra 12"))}, []int{2}, 1},
	})
	runQueries(t, s, "BU", listBudgetHeaders, budgetHeaderID, []queryCase{
		{"tagged", app.Query{Where: where(tagged("obra 12"))}, []int{1}, 1},
		{"tagged, the other tag", app.Query{Where: where(tagged("licitação"))}, []int{1}, 1},
	})
	view(t, s, func(tx app.Tx) error {
		r, err := tx.Resource(rs[0].ID)
		if err != nil {
			return err
		}
		diff(t, "resource tags read back", rs[0].Tags, r.Tags)
		c, err := tx.Composition(cs[1].ID)
		if err != nil {
			return err
		}
		diff(t, "composition tags read back", cs[1].Tags, c.Tags)
		b, err := tx.Budget(bs[0].ID)
		if err != nil {
			return err
		}
		diff(t, "budget tags read back", bs[0].Tags, b.Tags)
		hs, _, err := tx.Budgets(coA, app.Query{Where: where(tagged("licitação"))})
		if err != nil {
			return err
		}
		if len(hs) == 1 {
			diff(t, "budget header tags", bs[0].Tags, hs[0].Tags)
		}
		return nil
	})
	// Replaced without the tag: out of the filter.
	rs[0].Tags = nil
	bs[0].Tags = []string{"licitação"}
	update(t, s, func(tx app.Tx) error {
		if err := tx.PutResource(rs[0]); err != nil {
			return err
		}
		return tx.PutBudget(bs[0])
	})
	runQueries(t, s, "RE", listResources, resourceID, []queryCase{
		{"tag removed", app.Query{Where: where(tagged("obra 12"))}, []int{2}, 1},
	})
	runQueries(t, s, "BU", listBudgetHeaders, budgetHeaderID, []queryCase{
		{"tag removed", app.Query{Where: where(tagged("obra 12"))}, nil, 0},
	})
}
