package storetest

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// testLabourCharges checks the stored fields of own labour charges: a
// composition's own charges percentage (absent and 0 differ, the scale is
// kept) and a bank resource's price without charges (absent and 0 differ),
// read back as put, also after a replace that drops them.
func testLabourCharges(t *testing.T, s app.Store) {
	const ed = "SINAPI/MG/2026-08/"
	withCharges := newComposition("01HZXCP0000000000000000LC1", coA, "LC-1", "MG")
	withCharges.LabourCharges = decimal.NewNullDecimal(dec("68.5000"))
	zero := newComposition("01HZXCP0000000000000000LC2", coA, "LC-2", "MG")
	zero.LabourCharges = decimal.NewNullDecimal(dec("0"))
	none := newComposition("01HZXCP0000000000000000LC3", coA, "LC-3", "MG")
	labour := newBankResource("88309", "37.28")
	labour.Type, labour.Base = domain.TypeLabor, decimal.NewNullDecimal(dec("18.3700"))
	free := newBankResource("88310", "1")
	free.Base = decimal.NewNullDecimal(dec("0"))
	plain := newBankResource("88311", "2")
	update(t, s, func(tx app.Tx) error {
		for _, c := range []*domain.Composition{withCharges, zero, none} {
			if err := tx.PutComposition(c); err != nil {
				return err
			}
		}
		for _, r := range []*domain.BankResource{labour, free, plain} {
			if err := tx.PutBankResource(ed, r); err != nil {
				return err
			}
		}
		return nil
	})
	checkLookups(t, s, []lookup{
		{name: "Composition(with charges)", get: func(tx app.Tx) (any, error) { return tx.Composition(withCharges.ID) }, want: withCharges},
		{name: "Composition(0 charges)", get: func(tx app.Tx) (any, error) { return tx.Composition(zero.ID) }, want: zero},
		{name: "Composition(no charges)", get: func(tx app.Tx) (any, error) { return tx.Composition(none.ID) }, want: none},
		{name: "BankResource(base)", get: func(tx app.Tx) (any, error) { return tx.BankResource(ed, "88309") }, want: labour},
		{name: "BankResource(base 0)", get: func(tx app.Tx) (any, error) { return tx.BankResource(ed, "88310") }, want: free},
		{name: "BankResource(no base)", get: func(tx app.Tx) (any, error) { return tx.BankResource(ed, "88311") }, want: plain},
		{name: "BankResources", get: func(tx app.Tx) (any, error) { return tx.BankResources(ed) }, want: []*domain.BankResource{labour, free, plain}},
	})
	cleared := withCharges.Clone()
	cleared.LabourCharges = decimal.NullDecimal{}
	noBase := *labour
	noBase.Base = decimal.NullDecimal{}
	update(t, s, func(tx app.Tx) error {
		if err := tx.PutComposition(cleared); err != nil {
			return err
		}
		return tx.PutBankResource(ed, &noBase)
	})
	checkLookups(t, s, []lookup{
		{name: "Composition(cleared)", get: func(tx app.Tx) (any, error) { return tx.Composition(withCharges.ID) }, want: cleared},
		{name: "BankResource(base dropped)", get: func(tx app.Tx) (any, error) { return tx.BankResource(ed, "88309") }, want: &noBase},
	})

	// A budget's own charges: absent and 0 differ, the scale is kept, a
	// replace drops them.
	var budgets []*domain.Budget
	for i, c := range []string{"84.2700", "0", ""} {
		b := newBudget("01HZXBU0000000000000000LC"+string(rune('1'+i)), coA, "ORC-LC-"+string(rune('1'+i)))
		if c != "" {
			b.LabourCharges = decimal.NewNullDecimal(dec(c))
		}
		budgets = append(budgets, b)
	}
	update(t, s, func(tx app.Tx) error {
		for _, b := range budgets {
			if err := tx.PutBudget(b); err != nil {
				return err
			}
		}
		return nil
	})
	var looks []lookup
	for _, b := range budgets {
		looks = append(looks, lookup{name: "Budget(" + b.Code + ")", get: func(tx app.Tx) (any, error) { return tx.Budget(b.ID) }, want: b})
	}
	checkLookups(t, s, looks)
	budgetCleared := *budgets[0]
	budgetCleared.LabourCharges = decimal.NullDecimal{}
	update(t, s, func(tx app.Tx) error { return tx.PutBudget(&budgetCleared) })
	checkLookups(t, s, []lookup{
		{name: "Budget(cleared)", get: func(tx app.Tx) (any, error) { return tx.Budget(budgetCleared.ID) }, want: &budgetCleared},
	})
}
