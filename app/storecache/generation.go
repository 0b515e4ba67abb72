package storecache

import (
	"encoding/binary"
	"maps"
	"slices"
	"strings"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Write generations (issue 11). Every write transaction through the Store
// bumps, in that same transaction, a counter of each company whose records
// it changed, and a global counter when it changed anything not owned by
// one company (a bank edition, a setting). A read that reads both counters
// in its transaction knows, exactly, whether anything it could show has
// changed since: the counters live in the store, so every server sharing
// the store sees the same ones, and a write that is acknowledged has
// bumped them. HTTP uses them for ETags and for its response cache.
//
// The counters are settings, eight bytes big-endian: "gen/global",
// "gen/company/<id>" (the company's records but its compositions),
// "gen/comps/<id>" (its compositions) and "gen/comp/<composition id>". Writers
// are serialised (Store), so reading a counter and writing it plus one in
// the same transaction never loses a bump.
//
// Compositions have counters of their own so that a write of one
// composition (adding items to it, the commonest write) leaves the cached
// answers of the company's other compositions valid (issue 29). A
// transaction that writes compositions and nothing else of the company
// bumps "gen/comps/<company>" and sets "gen/comp/<id>" of each composition
// it wrote to the new value; one that writes other records of the company
// bumps "gen/company/<company>", and then "gen/comps/<company>" too when
// it wrote compositions, without setting their own counters: an answer
// tagged with a composition's counter is also tagged with the company's,
// which then has moved. So an answer that shows the company's records
// except its compositions, plus the composition with the id and nothing
// else of the company's compositions, is exactly tagged by (global,
// company, that composition's counter); any other answer by (global,
// company, comps). A composition's counter takes the value of the
// company's comps counter, which only grows, so it never takes a value it
// had before, even after the composition is deleted and its counter read
// as zero.

const (
	genGlobalKey  = "gen/global"
	genCompanyKey = "gen/company/"
	genCompsKey   = "gen/comps/"
	genCompKey    = "gen/comp/"
	// genUsersKey counts the writes of users (any company's): the user
	// cache of authorization is kept under it (genread.go), so that the
	// writes of a company's data, which bump its generation, do not make
	// every request read its user again.
	genUsersKey = "gen/users"
)

// Generation is where the data a company's reads show stands: counters
// that only grow (a composition's counter is set, never lowered, but for
// reading zero once the composition is gone).
type Generation struct {
	Global  uint64
	Company uint64 // the company's records but its compositions
	Comps   uint64 // the company's compositions
	// CompositionID is the composition whose counter Comp is, when the
	// read named one (Store.Authorize, Store.Generation).
	CompositionID string
	Comp          uint64
	// Users is the generation of the users (genUsersKey); not part of what
	// an answer is tagged with.
	Users uint64
}

func readGeneration(tx app.Tx, companyID, compositionID string) (Generation, error) {
	g := Generation{CompositionID: compositionID}
	for _, c := range []struct {
		key string
		v   *uint64
	}{{genGlobalKey, &g.Global}, {genCompanyKey + companyID, &g.Company}, {genCompsKey + companyID, &g.Comps}, {genUsersKey, &g.Users}} {
		n, err := readCounter(tx, c.key)
		if err != nil {
			return Generation{}, err
		}
		*c.v = n
	}
	if compositionID != "" {
		n, err := readCounter(tx, genCompKey+compositionID)
		if err != nil {
			return Generation{}, err
		}
		g.Comp = n
	}
	return g, nil
}

func readCounter(tx app.Tx, key string) (uint64, error) {
	b, err := tx.Setting(key)
	if err != nil || len(b) != 8 {
		return 0, err
	}
	return binary.BigEndian.Uint64(b), nil
}

// bumpCounter writes the counter plus one and returns the new value.
func bumpCounter(tx app.Tx, key string) (uint64, error) {
	n, err := readCounter(tx, key)
	if err != nil {
		return 0, err
	}
	return n + 1, putCounter(tx, key, n+1)
}

func putCounter(tx app.Tx, key string, n uint64) error {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return tx.PutSetting(key, b[:])
}

// writeTx is a write transaction that notes what its writes change, for
// bump, and reads bank records through the memo (bankmemo.go) until it
// writes some itself.
type writeTx struct {
	app.Tx
	companies map[string]bool // companies whose records but compositions changed
	// comps are the compositions written, by company.
	comps  map[string]map[string]bool
	global bool
	users  bool // a user was written

	memo    *bankMemo
	gen     uint64
	genErr  error
	genRead bool
}

var (
	_ app.TxDecorator = (*writeTx)(nil)
	_ app.VersionTx   = (*writeTx)(nil)
)

func newWriteTx(tx app.Tx, memo *bankMemo) *writeTx {
	return &writeTx{Tx: tx, companies: map[string]bool{}, comps: map[string]map[string]bool{}, memo: memo}
}

// Unwrap is app.TxDecorator: the store's transaction.
func (t *writeTx) Unwrap() app.Tx { return t.Tx }

// bump writes the counters of what the transaction changed.
func (t *writeTx) bump() error {
	if t.users {
		if _, err := bumpCounter(t.Tx, genUsersKey); err != nil {
			return err
		}
	}
	if t.global {
		if _, err := bumpCounter(t.Tx, genGlobalKey); err != nil {
			return err
		}
	}
	for _, id := range slices.Sorted(maps.Keys(t.companies)) {
		if _, err := bumpCounter(t.Tx, genCompanyKey+id); err != nil {
			return err
		}
	}
	for _, id := range slices.Sorted(maps.Keys(t.comps)) {
		n, err := bumpCounter(t.Tx, genCompsKey+id)
		if err != nil {
			return err
		}
		if t.companies[id] {
			continue // the company's counter moved: it tags every answer
		}
		for _, c := range slices.Sorted(maps.Keys(t.comps[id])) {
			if err := putCounter(t.Tx, genCompKey+c, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// composition notes a write of the company's composition with the id.
func (t *writeTx) composition(companyID, id string) {
	if companyID == "" {
		t.global = true
		return
	}
	m := t.comps[companyID]
	if m == nil {
		m = map[string]bool{}
		t.comps[companyID] = m
	}
	m[id] = true
}

func (t *writeTx) company(id string) {
	if id == "" {
		t.global = true
		return
	}
	t.companies[id] = true
}

func (t *writeTx) PutSetting(key string, value []byte) error {
	if id, ok := app.SettingCompany(key); ok {
		t.company(id) // a company's own setting (its profile)
	} else if !strings.HasPrefix(key, "gen/") {
		t.global = true
	}
	return t.Tx.PutSetting(key, value)
}

func (t *writeTx) PutCompany(c *domain.Company) error {
	t.company(c.ID)
	return t.Tx.PutCompany(c)
}

func (t *writeTx) PutDepartment(d *domain.Department) error {
	t.company(d.CompanyID)
	return t.Tx.PutDepartment(d)
}

func (t *writeTx) PutUser(u *domain.User) error {
	t.users = true
	if old, err := t.Tx.User(u.ID); err == nil {
		t.company(old.CompanyID)
	}
	t.company(u.CompanyID)
	return t.Tx.PutUser(u)
}

func (t *writeTx) PutGroup(g *domain.Group) error {
	t.company(g.CompanyID)
	return t.Tx.PutGroup(g)
}

func (t *writeTx) DeleteGroup(id string) error {
	if g, err := t.Tx.Group(id); err == nil {
		t.company(g.CompanyID)
	}
	return t.Tx.DeleteGroup(id)
}

func (t *writeTx) PutResource(r *domain.Resource) error {
	t.company(r.CompanyID)
	return t.Tx.PutResource(r)
}

func (t *writeTx) DeleteResource(id string) error {
	if r, err := t.Tx.Resource(id); err == nil {
		t.company(r.CompanyID)
	}
	return t.Tx.DeleteResource(id)
}

func (t *writeTx) PutComposition(c *domain.Composition) error {
	t.composition(c.CompanyID, c.ID)
	return t.Tx.PutComposition(c)
}

// PutCompositionOver is app.CompositionBasePutter: PutComposition, over
// the version base the caller read under stamp when the store offers it.
func (t *writeTx) PutCompositionOver(base *domain.Composition, stamp []byte, c *domain.Composition) error {
	t.composition(c.CompanyID, c.ID)
	if bp, ok := app.Optional[app.CompositionBasePutter](t.Tx); ok && base != nil && stamp != nil {
		return bp.PutCompositionOver(base, stamp, c)
	}
	return t.Tx.PutComposition(c)
}

func (t *writeTx) DeleteComposition(id string) error {
	if c, err := t.Tx.Composition(id); err == nil {
		t.composition(c.CompanyID, c.ID)
	}
	return t.Tx.DeleteComposition(id)
}

func (t *writeTx) PutEdition(e *domain.Edition) error {
	t.global = true
	return t.Tx.PutEdition(e)
}

func (t *writeTx) PutBankResource(editionKey string, r *domain.BankResource) error {
	t.global = true
	return t.Tx.PutBankResource(editionKey, r)
}

func (t *writeTx) PutBankComposition(editionKey string, c *domain.BankComposition) error {
	t.global = true
	return t.Tx.PutBankComposition(editionKey, c)
}

func (t *writeTx) PutBudget(b *domain.Budget) error {
	t.company(b.CompanyID)
	return t.Tx.PutBudget(b)
}

func (t *writeTx) DeleteBudget(id string) error {
	if b, err := t.Tx.Budget(id); err == nil {
		t.company(b.CompanyID)
	}
	return t.Tx.DeleteBudget(id)
}

func (t *writeTx) DeleteBankRecords(editionKey string) error {
	t.global = true
	return t.Tx.DeleteBankRecords(editionKey)
}

// The store's app.VersionTx, for app.Optional: a version written bumps
// its company's generation.

func (t *writeTx) versions() (app.VersionTx, error) {
	v, ok := app.Optional[app.VersionTx](t.Tx)
	if !ok {
		return nil, domain.Errorf(domain.EINTERNAL, "this store keeps no budget versions")
	}
	return v, nil
}

func (t *writeTx) PutBudgetVersion(bv *domain.BudgetVersion) error {
	v, err := t.versions()
	if err != nil {
		return err
	}
	t.company(bv.CompanyID)
	return v.PutBudgetVersion(bv)
}

func (t *writeTx) BudgetVersion(budgetID string, n int) (*domain.BudgetVersion, error) {
	v, err := t.versions()
	if err != nil {
		return nil, err
	}
	return v.BudgetVersion(budgetID, n)
}

func (t *writeTx) BudgetVersions(budgetID string) ([]*domain.BudgetVersion, error) {
	v, err := t.versions()
	if err != nil {
		return nil, err
	}
	return v.BudgetVersions(budgetID)
}
