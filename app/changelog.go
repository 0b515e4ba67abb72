package app

import "github.com/costdb/costdb/domain"

// ChangeLogTx is what a store's transaction offers to keep reference banks'
// change logs (Caixa's monthly manutenções): reference data, shared by every
// company like the bank editions. A store without it answers the change log
// use cases with an internal error.
type ChangeLogTx interface {
	// PutChanges replaces the change log of the bank for the month (MM/YYYY)
	// with changes, in their order; every change's Bank and Month must be
	// bank and month. An empty list deletes the month's log.
	PutChanges(bank, month string, changes []domain.BankChange) error
	// Changes lists the bank's changes of the month in the order they were
	// put; empty (not nil) when there are none.
	Changes(bank, month string) ([]domain.BankChange, error)
	// ChangeMonths lists the months (MM/YYYY) the bank has a change log for,
	// oldest first.
	ChangeMonths(bank string) ([]string, error)
}
