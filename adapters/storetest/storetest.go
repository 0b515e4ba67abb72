// Package storetest is the contract suite of the storage port: every
// implementation of app.Store runs it from its own tests, so that all of
// them behave the same way (the bbolt store, the PostgreSQL store and any
// later one). The list methods answer app.Query as its documentation says;
// query.go checks every filter, sort key and paging rule.
//
//	func TestContract(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) app.Store { return open(t) })
//	}
//
// A persistent store also runs RunReopen, which checks that everything
// written is still there, exactly, after the store is closed and opened
// again.
package storetest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Run runs the contract suite against the stores open makes. Each subtest
// calls open once and expects a new, empty store; Run closes that store when
// the subtest ends, after the subtest may already have closed it itself, so
// Close must be safe to call twice.
func Run(t *testing.T, open func(t *testing.T) app.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s app.Store)
	}{
		{"Settings", testSettings},
		{"SettingsRead", testSettingsRead},
		{"Companies", testCompanies},
		{"Departments", testDepartments},
		{"Users", testUsers},
		{"Groups", testGroups},
		{"Resources", testResources},
		{"Compositions", testCompositions},
		{"Editions", testEditions},
		{"BankResources", testBankResources},
		{"BankCompositions", testBankCompositions},
		{"LabourCharges", testLabourCharges},
		{"ChargesTables", testChargesTables},
		{"DeleteBankRecords", testDeleteBankRecords},
		{"Budgets", testBudgets},
		{"EmptyStore", testEmptyStore},
		{"World", testWorld},
		{"BadKeys", testBadKeys},
		{"MixedIDLayouts", testMixedIDLayouts},
		{"ReadYourWrites", testReadYourWrites},
		{"RollbackOnError", testRollbackOnError},
		{"RollbackOnPanic", testRollbackOnPanic},
		{"WritesInsideViewFail", testWritesInsideViewFail},
		{"Copies", testCopies},
		{"ViewSnapshot", testViewSnapshot},
		{"ConcurrentWriters", testConcurrentWriters},
		{"ConcurrentFailingWriters", testConcurrentFailingWriters},
		{"TxAfterEnd", testTxAfterEnd},
		{"CanceledContext", testCanceledContext},
		{"PingAndClose", testPingAndClose},
		{"QueryResources", testQueryResources},
		{"QueryCompositions", testQueryCompositions},
		{"QueryGroups", testQueryGroups},
		{"QueryBudgets", testQueryBudgets},
		{"QueryTagged", testQueryTagged},
		{"QueryConcurrentWriters", testQueryConcurrentWriters},
		{"QueryRefusesOtherFields", testQueryRefusesOtherFields},
		{"BudgetVersions", testBudgetVersions},
		{"ChangeLog", testChangeLog},
		{"ChangeLogWhereUsed", testChangeLogWhereUsed},
		{"BudgetStream", testBudgetStream},
		{"CompositionStamps", testCompositionStamps},
		{"Batch", testBatch},
		{"CompanyProfiles", testCompanyProfiles},
		{"Contracts", testContracts},
		{"Webhooks", testWebhooks},
		{"Search", testSearch},
		{"QueryText", testQueryText},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() { _ = s.Close() })
			tc.fn(t, s)
		})
	}
}

// RunReopen runs the persistence part of the contract: what is written,
// committed and then read back after the store is closed and opened again at
// the same path is exactly what was written (decimals to the last digit,
// times to the nanosecond), and what was rolled back never appears. open
// opens the store at path, creating it when it does not exist; RunReopen
// closes every store it opens.
func RunReopen(t *testing.T, open func(t *testing.T, path string) app.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, reopen func() app.Store)
	}{
		{"Everything", testReopenEverything},
		{"ExactValues", testReopenExactValues},
		{"ChangesAndDeletes", testReopenChanges},
		{"RolledBackNotPersisted", testReopenRollback},
		{"WritesAfterReopen", testReopenWrites},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "costdb.db")
			reopen := func() app.Store {
				s := open(t, path)
				t.Cleanup(func() { _ = s.Close() })
				return s
			}
			tc.fn(t, reopen)
		})
	}
}

// cmpOpts compare domain values: decimals and times by value, nil and empty
// slices and maps alike.
var cmpOpts = []cmp.Option{
	cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) }),
	cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) }),
	cmpopts.EquateEmpty(),
}

func bg() context.Context { return context.Background() }

// update runs fn in a write transaction and fails the test on an error.
func update(t *testing.T, s app.Store, fn func(tx app.Tx) error) {
	t.Helper()
	if err := s.Update(bg(), fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

// view runs fn in a read transaction and fails the test on an error.
func view(t *testing.T, s app.Store, fn func(tx app.Tx) error) {
	t.Helper()
	if err := s.View(bg(), fn); err != nil {
		t.Fatalf("View: %v", err)
	}
}

// diff reports a difference between want and got.
func diff(t *testing.T, what string, want, got any) {
	t.Helper()
	if d := cmp.Diff(want, got, cmpOpts...); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", what, d)
	}
}

// wantCode reports an error whose domain code is not code.
func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := domain.ErrorCode(err); got != code {
		t.Errorf("%s: error %v has code %q, want %q", what, err, got, code)
	}
}

// lookup is one read to check: its result must be want, or, when code is
// set, an error with that code.
type lookup struct {
	name string
	get  func(tx app.Tx) (any, error)
	want any
	code string
}

// checkLookups runs every lookup in one read transaction.
func checkLookups(t *testing.T, s app.Store, lookups []lookup) {
	t.Helper()
	view(t, s, func(tx app.Tx) error {
		for _, l := range lookups {
			got, err := l.get(tx)
			if l.code != "" {
				wantCode(t, l.name, err, l.code)
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", l.name, err)
				continue
			}
			diff(t, l.name, l.want, got)
		}
		return nil
	})
}

// all returns the page of a list method asked for everything (an empty
// Query), failing when its total is not the number of records listed.
func all[T any](items []T, total int, err error) ([]T, error) {
	if err != nil {
		return nil, err
	}
	if total != len(items) {
		return nil, fmt.Errorf("total %d for a list of %d records, asked for all", total, len(items))
	}
	return items, nil
}

// headers returns the headers of the budgets, as Budgets lists them.
func headers(bs ...*domain.Budget) []*domain.BudgetHeader {
	out := make([]*domain.BudgetHeader, len(bs))
	for i, b := range bs {
		out[i] = b.Header()
	}
	return out
}
