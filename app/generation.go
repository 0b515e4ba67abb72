package app

import (
	"context"
	"encoding/binary"
	"sort"
	"strings"

	"github.com/costdb/costdb/domain"
)

// Write generations (issue 11). Every write transaction of the Service
// bumps, in that same transaction, a counter of each company whose records
// it changed, and a global counter when it changed anything not owned by
// one company (a bank edition, a setting). A read that reads both counters
// in its transaction knows, exactly, whether anything it could show has
// changed since: the counters live in the store, so every server sharing
// the store sees the same ones, and a write that is acknowledged has
// bumped them. HTTP uses them for ETags and for its response cache.
//
// The counters are settings: "gen/global" and "gen/company/<id>", eight
// bytes big-endian. Writers are serialised (Store), so reading a counter
// and writing it plus one in the same transaction never loses a bump.

const (
	genGlobalKey  = "gen/global"
	genCompanyKey = "gen/company/"
	// genUsersKey counts the writes of users (any company's): the user
	// cache of authorization is kept under it (genread.go), so that the
	// writes of a company's data, which bump its generation, do not make
	// every request read its user again.
	genUsersKey = "gen/users"
)

// Generation is where the data a company's reads show stands: two counters
// that only grow.
type Generation struct {
	Global  uint64
	Company uint64
	// Users is the generation of the users (genUsersKey); not part of what
	// an answer is tagged with.
	Users uint64
}

// Generation returns the write generation of a company, read in one
// transaction.
func (s *Service) Generation(ctx context.Context, companyID string) (Generation, error) {
	var g Generation
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		g, err = readGeneration(tx, companyID)
		return err
	})
	return g, err
}

func readGeneration(tx Tx, companyID string) (Generation, error) {
	gl, err := readCounter(tx, genGlobalKey)
	if err != nil {
		return Generation{}, err
	}
	co, err := readCounter(tx, genCompanyKey+companyID)
	if err != nil {
		return Generation{}, err
	}
	us, err := readCounter(tx, genUsersKey)
	return Generation{Global: gl, Company: co, Users: us}, err
}

func readCounter(tx Tx, key string) (uint64, error) {
	b, err := tx.Setting(key)
	if err != nil || len(b) != 8 {
		return 0, err
	}
	return binary.BigEndian.Uint64(b), nil
}

func bumpCounter(tx Tx, key string) error {
	n, err := readCounter(tx, key)
	if err != nil {
		return err
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n+1)
	return tx.PutSetting(key, b[:])
}

// genTx is a Tx that notes what its writes change, for bump.
type genTx struct {
	Tx
	companies map[string]bool
	global    bool
	users     bool // a user was written

	// The bank memo (bankmemo.go), used until the transaction writes bank
	// records.
	memo    *bankMemo
	gen     uint64
	genErr  error
	genRead bool
}

func newGenTx(tx Tx, memo *bankMemo) *genTx {
	return &genTx{Tx: tx, companies: map[string]bool{}, memo: memo}
}

// bump writes the counters of what the transaction changed.
func (t *genTx) bump() error {
	if t.users {
		if err := bumpCounter(t.Tx, genUsersKey); err != nil {
			return err
		}
	}
	if t.global {
		if err := bumpCounter(t.Tx, genGlobalKey); err != nil {
			return err
		}
	}
	ids := make([]string, 0, len(t.companies))
	for id := range t.companies {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if err := bumpCounter(t.Tx, genCompanyKey+id); err != nil {
			return err
		}
	}
	return nil
}

func (t *genTx) company(id string) {
	if id == "" {
		t.global = true
		return
	}
	t.companies[id] = true
}

func (t *genTx) PutSetting(key string, value []byte) error {
	if !strings.HasPrefix(key, "gen/") {
		t.global = true
	}
	return t.Tx.PutSetting(key, value)
}

func (t *genTx) PutCompany(c *domain.Company) error {
	t.company(c.ID)
	return t.Tx.PutCompany(c)
}

func (t *genTx) PutDepartment(d *domain.Department) error {
	t.company(d.CompanyID)
	return t.Tx.PutDepartment(d)
}

func (t *genTx) PutUser(u *domain.User) error {
	t.users = true
	if old, err := t.Tx.User(u.ID); err == nil {
		t.company(old.CompanyID)
	}
	t.company(u.CompanyID)
	return t.Tx.PutUser(u)
}

func (t *genTx) PutGroup(g *domain.Group) error {
	t.company(g.CompanyID)
	return t.Tx.PutGroup(g)
}

func (t *genTx) DeleteGroup(id string) error {
	if g, err := t.Tx.Group(id); err == nil {
		t.company(g.CompanyID)
	}
	return t.Tx.DeleteGroup(id)
}

func (t *genTx) PutResource(r *domain.Resource) error {
	t.company(r.CompanyID)
	return t.Tx.PutResource(r)
}

func (t *genTx) DeleteResource(id string) error {
	if r, err := t.Tx.Resource(id); err == nil {
		t.company(r.CompanyID)
	}
	return t.Tx.DeleteResource(id)
}

func (t *genTx) PutComposition(c *domain.Composition) error {
	t.company(c.CompanyID)
	return t.Tx.PutComposition(c)
}

func (t *genTx) DeleteComposition(id string) error {
	if c, err := t.Tx.Composition(id); err == nil {
		t.company(c.CompanyID)
	}
	return t.Tx.DeleteComposition(id)
}

func (t *genTx) PutEdition(e *domain.Edition) error {
	t.global = true
	return t.Tx.PutEdition(e)
}

func (t *genTx) PutBankResource(editionKey string, r *domain.BankResource) error {
	t.global = true
	return t.Tx.PutBankResource(editionKey, r)
}

func (t *genTx) PutBankComposition(editionKey string, c *domain.BankComposition) error {
	t.global = true
	return t.Tx.PutBankComposition(editionKey, c)
}

func (t *genTx) PutBudget(b *domain.Budget) error {
	t.company(b.CompanyID)
	return t.Tx.PutBudget(b)
}

func (t *genTx) DeleteBudget(id string) error {
	if b, err := t.Tx.Budget(id); err == nil {
		t.company(b.CompanyID)
	}
	return t.Tx.DeleteBudget(id)
}

func (t *genTx) DeleteBankRecords(editionKey string) error {
	t.global = true
	return t.Tx.DeleteBankRecords(editionKey)
}

// genVersionTx is the store's VersionTx inside a write of the Service: a
// version written bumps its company's generation.
type genVersionTx struct {
	VersionTx
	t *genTx
}

func (v genVersionTx) PutBudgetVersion(bv *domain.BudgetVersion) error {
	v.t.company(bv.CompanyID)
	return v.VersionTx.PutBudgetVersion(bv)
}
