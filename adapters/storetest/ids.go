package storetest

import (
	"regexp"
	"testing"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// IDs as earlier versions made them (26 characters, ULID layout): a
// database written by them keeps them.
const (
	oldID1 = "01jd3v8k6q7w2x9y4z5a6b7c8d"
	oldID2 = "01jd3v8k6q7w2x9y4z5a6b7c8e"
)

// testMixedIDLayouts checks that a store holding records with IDs of both
// layouts, the old ULID-like ones and the ObjectId-like ones app.NewID makes
// now, finds each by its ID and lists them in creation order: every old ID
// sorts before every new one.
func testMixedIDLayouts(t *testing.T, s app.Store) {
	newIDs := []string{app.NewID(time.Now()), app.NewID(time.Now()), app.NewID(time.Now().Add(time.Hour))}
	objectID := regexp.MustCompile(`^[a-f\d]{24}$`)
	for _, id := range newIDs {
		if !objectID.MatchString(id) {
			t.Fatalf("app.NewID made %q, want 24 lower-case hex characters", id)
		}
	}
	created := []string{oldID1, oldID2, newIDs[0], newIDs[1], newIDs[2]} // creation order
	putOrder := []int{3, 0, 4, 2, 1}                                     // not in ID order
	var groups []*domain.Group
	var resources []*domain.Resource
	var compositions []*domain.Composition
	var budgets []*domain.Budget
	for i, id := range created {
		code := "M-" + string(rune('1'+i))
		groups = append(groups, newGroup(id, coA, "Grupo "+code))
		resources = append(resources, newResource(id, coA, code))
		compositions = append(compositions, newComposition(id, coA, code, "MG"))
		budgets = append(budgets, newBudget(id, coA, code))
	}
	update(t, s, func(tx app.Tx) error {
		for _, i := range putOrder {
			if err := tx.PutGroup(groups[i]); err != nil {
				return err
			}
			if err := tx.PutResource(resources[i]); err != nil {
				return err
			}
			if err := tx.PutComposition(compositions[i]); err != nil {
				return err
			}
			if err := tx.PutBudget(budgets[i]); err != nil {
				return err
			}
		}
		return nil
	})
	checkLookups(t, s, []lookup{
		{name: "Group(old id)", get: func(tx app.Tx) (any, error) { return tx.Group(oldID1) }, want: groups[0]},
		{name: "Resource(old id)", get: func(tx app.Tx) (any, error) { return tx.Resource(oldID2) }, want: resources[1]},
		{name: "Composition(old id)", get: func(tx app.Tx) (any, error) { return tx.Composition(oldID1) }, want: compositions[0]},
		{name: "Budget(old id)", get: func(tx app.Tx) (any, error) { return tx.Budget(oldID2) }, want: budgets[1]},
		{name: "Resource(new id)", get: func(tx app.Tx) (any, error) { return tx.Resource(newIDs[2]) }, want: resources[4]},
		{name: "Groups in creation order", get: func(tx app.Tx) (any, error) { return all(tx.Groups(coA, app.Query{})) }, want: groups},
		{name: "Resources in creation order", get: func(tx app.Tx) (any, error) { return all(tx.Resources(coA, app.Query{})) }, want: resources},
		{name: "Compositions in creation order", get: func(tx app.Tx) (any, error) { return all(tx.Compositions(coA, app.Query{})) }, want: compositions},
		{name: "Budgets in creation order", get: func(tx app.Tx) (any, error) { return all(tx.Budgets(coA, app.Query{})) }, want: headers(budgets...)},
	})
}
