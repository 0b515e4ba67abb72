package storetest

import (
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// testContracts checks app.ContractTx, for a store that offers it:
// contracts, measurements and amendments read back as written (decimals
// exactly), listed per company and by number, replaced whole; a missing
// contract is ENOTFOUND, also to LockContract; and writers that hold a
// contract (LockContract) run one after the other: each of them reads the
// measurements and writes the next number, and every number is written
// once.
func testContracts(t *testing.T, s app.Store) {
	var supported bool
	view(t, s, func(tx app.Tx) error { _, supported = tx.(app.ContractTx); return nil })
	if !supported {
		t.Skip("the store keeps no contracts")
	}
	ct := func(tx app.Tx) app.ContractTx { return tx.(app.ContractTx) }
	c1 := &domain.Contract{ID: "ct1", CompanyID: coA, BudgetID: buA1, VersionNumber: 2, VersionHash: "abc", Number: "CT-1/2026",
		Contractor: "Construtora", StartDate: "2026-09-01", BaseMonth: "2026-08", Retention: decimal.RequireFromString("5.00"),
		IndexName: "INCC", BDI: domain.BDIRule{Rate: decimal.RequireFromString("25.5"), Mode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate},
		Lines: []domain.ContractLine{{ID: "3", Number: "1.1", Stage: "1", StageName: "Serviços", Bank: "SINAPI", Month: "08/2026", Code: "88316",
			Description: "SERVENTE", Unit: "H", Quantity: decimal.RequireFromString("12.3456789"), UnitPrice: decimal.RequireFromString("24.88"),
			UnitPriceWithBDI: decimal.RequireFromString("31.22")}},
		CreatedAt: tBRT}
	c2 := &domain.Contract{ID: "ct2", CompanyID: coB, Number: "X", CreatedAt: tUTC}
	m2 := &domain.Measurement{ID: "m2", CompanyID: coA, ContractID: "ct1", Number: 2, PeriodStart: "2026-10-01", PeriodEnd: "2026-10-31",
		Quantities: map[string]decimal.Decimal{"3": decimal.RequireFromString("1.50")}, Status: domain.StatusDraft, RejectReason: "errado",
		CreatedAt: tUTC, UpdatedAt: tUTC}
	m1 := &domain.Measurement{ID: "m1", CompanyID: coA, ContractID: "ct1", Number: 1, Quantities: map[string]decimal.Decimal{},
		Status: domain.StatusApproved, CreatedAt: tBRT, UpdatedAt: tBRT}
	a1 := &domain.Amendment{ID: "a1", CompanyID: coA, ContractID: "ct1", Number: 1, Description: "Aditivo 1",
		Changes:  []domain.AmendmentChange{{LineID: "3", Quantity: decimal.RequireFromString("-2.5")}},
		NewLines: []domain.ContractLine{{ID: "A1.1", Number: "A1.1", Code: "X", Quantity: decimal.NewFromInt(3), Amendment: 1}},
		Status:   domain.StatusSubmitted, CreatedAt: tUTC, UpdatedAt: tUTC}
	update(t, s, func(tx app.Tx) error {
		for _, c := range []*domain.Contract{c1, c2} {
			if err := ct(tx).PutContract(c); err != nil {
				return err
			}
		}
		for _, m := range []*domain.Measurement{m2, m1} {
			if err := ct(tx).PutMeasurement(m); err != nil {
				return err
			}
		}
		return ct(tx).PutAmendment(a1)
	})
	checkLookups(t, s, []lookup{
		{name: "Contract", get: func(tx app.Tx) (any, error) { return ct(tx).Contract("ct1") }, want: c1},
		{name: "Contracts(A)", get: func(tx app.Tx) (any, error) { return ct(tx).Contracts(coA) }, want: []*domain.Contract{c1}},
		{name: "Contract(none)", get: func(tx app.Tx) (any, error) { return ct(tx).Contract("nope") }, code: notFound},
		{name: "Measurements", get: func(tx app.Tx) (any, error) { return ct(tx).Measurements("ct1") }, want: []*domain.Measurement{m1, m2}},
		{name: "Measurements(none)", get: func(tx app.Tx) (any, error) { return ct(tx).Measurements("ct2") }, want: []*domain.Measurement{}},
		{name: "Amendments", get: func(tx app.Tx) (any, error) { return ct(tx).Amendments("ct1") }, want: []*domain.Amendment{a1}},
	})
	err := s.Update(bg(), func(tx app.Tx) error { return ct(tx).LockContract("nope") })
	wantCode(t, "LockContract(none)", err, domain.ENOTFOUND)

	// Replaced whole: a read after the replace sees the new record (a store
	// that keeps decoded records keys them by their bytes).
	m2b := *m2
	m2b.Status, m2b.Quantities = domain.StatusSubmitted, map[string]decimal.Decimal{"3": decimal.RequireFromString("2")}
	update(t, s, func(tx app.Tx) error { return ct(tx).PutMeasurement(&m2b) })
	checkLookups(t, s, []lookup{
		{name: "Measurements after a replace", get: func(tx app.Tx) (any, error) { return ct(tx).Measurements("ct1") }, want: []*domain.Measurement{m1, &m2b}},
	})

	// Writers holding the contract run one after the other.
	const writers = 6
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.Update(bg(), func(tx app.Tx) error {
				if err := ct(tx).LockContract("ct2"); err != nil {
					return err
				}
				ms, err := ct(tx).Measurements("ct2")
				if err != nil {
					return err
				}
				return ct(tx).PutMeasurement(&domain.Measurement{ID: "x", CompanyID: coB, ContractID: "ct2", Number: len(ms) + 1,
					Quantities: map[string]decimal.Decimal{}, Status: domain.StatusDraft})
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent writer: %v", err)
		}
	}
	view(t, s, func(tx app.Tx) error {
		ms, err := ct(tx).Measurements("ct2")
		if err != nil {
			return err
		}
		if len(ms) != writers {
			t.Errorf("%d measurements after %d serialized writers; want %d (a writer read before another wrote)", len(ms), writers, writers)
		}
		return nil
	})
}
