// Package app holds costdb's use cases: one method of Service per operation,
// each running in a single storage transaction. It declares the ports it
// needs (Store, Tx, Tokens) and enforces the rules that span records: company
// scoping, unique codes, references between records.
package app

import (
	"context"
	"time"

	"github.com/costdb/costdb/domain"
)

// Store is the storage port: a unit of work over a transaction. Update runs
// fn in one write transaction that is committed (durably) if fn returns nil
// and rolled back entirely otherwise; writers are serialised. View runs fn in
// a read-only transaction that sees a consistent snapshot.
//
// Records handed to and returned by a Tx are copies: changing one changes
// nothing in the store until it is Put. Bank records (BankResource,
// BankComposition) are the exception: they are read only, and a decorator
// may hand the same one to several transactions (the bank memo of
// app/storecache).
//
// A store may run fn more than once (PostgreSQL runs a transaction again
// when the server aborts it with a serialization failure): fn must have no
// effect outside the transaction but on variables it sets afresh on each
// run, and the result of the last run is the one that counts.
type Store interface {
	View(ctx context.Context, fn func(Tx) error) error
	Update(ctx context.Context, fn func(Tx) error) error
	// Settings returns the values stored under keys (nil where there is
	// none; an empty, non-nil value for an empty one), in the order of
	// keys, read outside any other transaction in one snapshot that holds
	// every write committed before the call. It is the cheapest read a
	// store can make (on PostgreSQL one statement, one round trip): the
	// write generations of app/storecache are read with it on every
	// authorized request.
	Settings(ctx context.Context, keys []string) ([][]byte, error)
	// Ping reports whether the store answers.
	Ping(ctx context.Context) error
	Close() error
}

// PreparedUpdater is what a store may offer for a write that reads little
// (AddItems, RemoveItems: one composition and bank records). UpdatePrepared
// has exactly the effect of Update; the store may first run fn on a
// snapshot, outside its serialised writer, and then, in the write
// transaction, only check that what fn read is unchanged and put what fn
// wrote, running fn again there when something changed or fn read what it
// cannot check. The speed layer (app/storecache) offers it.
type PreparedUpdater interface {
	UpdatePrepared(ctx context.Context, fn func(Tx) error) error
}

// TxDecorator is a Tx that decorates another (a cache, the write
// generations of app/storecache): Unwrap returns the one it decorates, so
// that the optional parts of the store's own transaction stay reachable
// (Optional).
type TxDecorator interface {
	Unwrap() Tx
}

// Optional returns the optional part T (BudgetStreamer, VersionTx,
// CompositionStamper) of tx, or of the transaction tx decorates.
func Optional[T any](tx Tx) (T, bool) {
	for {
		if v, ok := tx.(T); ok {
			return v, true
		}
		d, ok := tx.(TxDecorator)
		if !ok {
			var zero T
			return zero, false
		}
		tx = d.Unwrap()
	}
}

// Tx is one storage transaction. Methods that look a record up return an
// ENOTFOUND *domain.Error when there is none. Put methods insert or replace
// by ID and keep every index of the record up to date. Methods that write
// return an error inside a read-only transaction.
//
// Lists are in ID order, which is creation order for IDs made by NewID. The
// company lists (Groups, Resources, Compositions, Budgets) answer a Query:
// they return one page, in the query's order, and the number of the
// company's records that match (see Query for the exact rules).
type Tx interface {
	// Setting returns the value stored under key, or nil when there is none.
	Setting(key string) ([]byte, error)
	// PutSetting stores a value under key.
	PutSetting(key string, value []byte) error

	Company(id string) (*domain.Company, error)
	CompanyByName(name string) (*domain.Company, error)
	PutCompany(c *domain.Company) error

	Department(id string) (*domain.Department, error)
	DepartmentByName(companyID, name string) (*domain.Department, error)
	PutDepartment(d *domain.Department) error

	User(id string) (*domain.User, error)
	UserByEmail(email string) (*domain.User, error)
	PutUser(u *domain.User) error
	CountUsers() (int, error)
	// Users lists the users of the company with the id, or every user when
	// companyID is empty, in ID order.
	Users(companyID string) ([]*domain.User, error)

	Group(id string) (*domain.Group, error)
	Groups(companyID string, q Query) ([]*domain.Group, int, error)
	PutGroup(g *domain.Group) error
	DeleteGroup(id string) error

	Resource(id string) (*domain.Resource, error)
	ResourceByCode(companyID, code string) (*domain.Resource, error)
	Resources(companyID string, q Query) ([]*domain.Resource, int, error)
	PutResource(r *domain.Resource) error
	DeleteResource(id string) error

	Composition(id string) (*domain.Composition, error)
	CompositionByCode(companyID, code, state string) (*domain.Composition, error)
	Compositions(companyID string, q Query) ([]*domain.Composition, int, error)
	PutComposition(c *domain.Composition) error
	DeleteComposition(id string) error

	// Edition returns the edition with the key (domain.EditionKey).
	Edition(key string) (*domain.Edition, error)
	// Editions lists every edition, in key order.
	Editions() ([]*domain.Edition, error)
	PutEdition(e *domain.Edition) error
	BankResource(editionKey, code string) (*domain.BankResource, error)
	PutBankResource(editionKey string, r *domain.BankResource) error
	BankComposition(editionKey, code string) (*domain.BankComposition, error)
	PutBankComposition(editionKey string, c *domain.BankComposition) error
	// BankResources lists the resources of the edition with the key, in
	// code order (byte order); empty for an edition that has none.
	BankResources(editionKey string) ([]*domain.BankResource, error)
	// BankCompositions lists the compositions of the edition with the key,
	// in code order (byte order); empty for an edition that has none.
	BankCompositions(editionKey string) ([]*domain.BankComposition, error)
	// DeleteBankRecords deletes every resource and composition of the
	// edition with the key (not the edition itself), for an import that
	// replaces the edition; nothing to delete is not an error.
	DeleteBankRecords(editionKey string) error

	// Budget returns the budget with the id, its tree of nodes included.
	Budget(id string) (*domain.Budget, error)
	// BudgetByCode returns the company's budget with the code.
	BudgetByCode(companyID, code string) (*domain.Budget, error)
	// Budgets lists the headers (no trees) of the company's budgets that
	// match q: read a budget with Budget to get its tree.
	Budgets(companyID string, q Query) ([]*domain.BudgetHeader, int, error)
	// PutBudget inserts or replaces a budget. Its code is unique within its
	// company: ECONFLICT when another budget of the company has it.
	PutBudget(b *domain.Budget) error
	// DeleteBudget deletes a budget; ENOTFOUND when there is none.
	DeleteBudget(id string) error
}

// Claims are what an access token says about its bearer.
type Claims struct {
	UserID    string
	CompanyID string
	TokenID   string
	IssuedAt  time.Time
	ExpiresAt time.Time
}

// Tokens is the port that issues and verifies signed access tokens. Verify
// returns an EUNAUTHORIZED error for a malformed, forged or expired token.
type Tokens interface {
	Issue(c Claims) (string, error)
	Verify(token string) (Claims, error)
}

// BudgetStreamer is what a store's transaction may offer to read a budget's
// tree node by node instead of whole (the streamed reports,
// docs/decisions.md "Streamed reports"): the budget without its tree
// (Items nil), and a walk over the tree, valid until the transaction ends.
// A store without it is read through Budget.
type BudgetStreamer interface {
	BudgetStream(id string) (*domain.Budget, domain.NodeWalk, error)
}

// VersionTx is what a store's transaction offers to keep frozen budget
// versions (domain.BudgetVersion); a store without it answers the version
// use cases with an internal error. A version is never replaced
// (PutBudgetVersion of a number already there is ECONFLICT); deleting a
// budget deletes its versions.
type VersionTx interface {
	PutBudgetVersion(v *domain.BudgetVersion) error
	// BudgetVersion returns version n of the budget; ENOTFOUND when none.
	BudgetVersion(budgetID string, n int) (*domain.BudgetVersion, error)
	// BudgetVersions lists the budget's versions by number.
	BudgetVersions(budgetID string) ([]*domain.BudgetVersion, error)
}

// CompositionStamper is what a store's transaction may offer to tell
// whether a composition changed between transactions (both stores offer
// it): a stamp of the stored record, which every write of it changes.
type CompositionStamper interface {
	// CompositionStamp returns the composition's stamp (on bbolt its
	// stored bytes, on PostgreSQL a number drawn for each write), or nil
	// when there is none. It stays as it is after the transaction: nothing
	// changes it. Equal stamps are the same stored record.
	CompositionStamp(id string) ([]byte, error)
	// CompositionStamped reports whether the composition's stamp is stamp
	// (false when there is none), without a copy.
	CompositionStamped(id string, stamp []byte) (bool, error)
}

// CompositionBasePutter is what a store's write transaction may offer to
// put a composition whose stored version the caller knows: base, the
// composition as stored under stamp. Its effect is exactly
// PutComposition(c)'s; the store may write only what differs from base, and
// does so only when it knows in this transaction that the stored stamp is
// stamp (CompositionStamped answered yes for it, checked before anything
// is written), so a stale base is never written over. A decorator that
// keeps its own account of PutComposition offers it too (Optional finds
// the outermost). base is only read.
type CompositionBasePutter interface {
	PutCompositionOver(base *domain.Composition, stamp []byte, c *domain.Composition) error
}

// ChargesTx is what a store's transaction offers to keep reference banks'
// labour charges tables (domain.ChargesTable): shared reference data like
// bank editions, one per bank, state, month and regime (its Key). Both
// stores offer it; a store without it answers the charges use cases with an
// internal error.
type ChargesTx interface {
	// PutChargesTable stores the table, replacing the one of the same key.
	PutChargesTable(t *domain.ChargesTable) error
	// ChargesTable returns the table with the key (domain.ChargesKey);
	// ENOTFOUND when none.
	ChargesTable(key string) (*domain.ChargesTable, error)
	// ChargesTables lists the bank's tables in key order (state, month,
	// regime), rows included.
	ChargesTables(bank string) ([]*domain.ChargesTable, error)
}

// ResourcePrefetcher is what a store's transaction may offer to read a
// company's resources with several codes in one go, ahead of the
// ResourceByCode calls that will ask for them one by one (pricing a
// composition whose decoded record was kept, so that its own resources
// were not read with it). It changes nothing the transaction answers.
type ResourcePrefetcher interface {
	PrefetchResources(companyID string, codes []string) error
}
