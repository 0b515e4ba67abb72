package storetest

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// testBudgetVersions checks app.VersionTx, for a store that offers it:
// versions are kept byte for byte, listed by number, never replaced, and
// deleted with their budget.
func testBudgetVersions(t *testing.T, s app.Store) {
	var supported bool
	view(t, s, func(tx app.Tx) error { _, supported = tx.(app.VersionTx); return nil })
	if !supported {
		t.Skip("the store keeps no budget versions")
	}
	b := newBudget(buA1, coA, "ORC-1")
	content := []byte("{\"Format\": 1,  \"x\":\"ação \\u00e7\"}\n")
	v1 := &domain.BudgetVersion{CompanyID: coA, BudgetID: buA1, Number: 1, FrozenAt: tBRT, Hash: domain.ContentHash(content), Content: content}
	v2 := &domain.BudgetVersion{CompanyID: coA, BudgetID: buA1, Number: 2, FrozenAt: tUTC, Hash: "h2", Content: []byte(`{}`)}
	update(t, s, func(tx app.Tx) error {
		if err := tx.PutBudget(b); err != nil {
			return err
		}
		for _, v := range []*domain.BudgetVersion{v2, v1} {
			if err := tx.(app.VersionTx).PutBudgetVersion(v); err != nil {
				return err
			}
		}
		return nil
	})
	checkLookups(t, s, []lookup{
		{name: "BudgetVersion(1)", get: func(tx app.Tx) (any, error) { return tx.(app.VersionTx).BudgetVersion(buA1, 1) }, want: v1},
		{name: "BudgetVersions", get: func(tx app.Tx) (any, error) { return tx.(app.VersionTx).BudgetVersions(buA1) }, want: []*domain.BudgetVersion{v1, v2}},
		{name: "BudgetVersions(none)", get: func(tx app.Tx) (any, error) { return tx.(app.VersionTx).BudgetVersions(buA2) }, want: []*domain.BudgetVersion{}},
		{name: "BudgetVersion(3)", get: func(tx app.Tx) (any, error) { return tx.(app.VersionTx).BudgetVersion(buA1, 3) }, code: notFound},
	})
	err := s.Update(bg(), func(tx app.Tx) error { return tx.(app.VersionTx).PutBudgetVersion(v1) })
	wantCode(t, "PutBudgetVersion again", err, domain.ECONFLICT)
	update(t, s, func(tx app.Tx) error { return tx.DeleteBudget(buA1) })
	checkLookups(t, s, []lookup{
		{name: "BudgetVersions after the budget's deletion", get: func(tx app.Tx) (any, error) { return tx.(app.VersionTx).BudgetVersions(buA1) }, want: []*domain.BudgetVersion{}},
	})
}
