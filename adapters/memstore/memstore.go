// Package memstore is an in-memory implementation of the storage port
// (app.Store and app.Tx). It is the reference implementation that the
// contract suite in adapters/storetest is checked against, and a store for
// tests and demos: nothing survives the process.
//
// Committed state is an immutable snapshot. View reads the snapshot current
// when it starts, without locks, so it always sees a consistent state. Update
// takes the writer mutex, works on a copy-on-write view of the snapshot (a
// table is copied the first time the transaction writes to it) and publishes
// that view as the new snapshot only when fn returns nil. When fn returns an
// error or panics, the view is dropped, which rolls everything back; a panic
// is re-raised after the rollback.
//
// Records are deep-copied on the way in and on the way out, so a caller never
// shares memory with the store.
package memstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Store is an in-memory app.Store. The zero value is not usable: call New.
type Store struct {
	mu     sync.Mutex // serialises writers
	gen    uint64     // generation of the last Update, guarded by mu
	cur    atomic.Pointer[state]
	closed atomic.Bool
}

var _ app.Store = (*Store)(nil)

// New returns an empty store.
func New() *Store {
	s := &Store{}
	s.cur.Store(&state{})
	return s
}

var errClosed = errors.New("memstore: store is closed")

// View runs fn in a read-only transaction over the snapshot committed when
// View starts. Writes inside fn return an error.
func (s *Store) View(ctx context.Context, fn func(app.Tx) error) error {
	if err := s.usable(ctx); err != nil {
		return err
	}
	t := &tx{st: s.cur.Load()}
	defer func() { t.done = true }()
	return fn(t)
}

// Update runs fn in a write transaction. Writers are serialised. The writes
// of fn are committed when it returns nil and dropped when it returns an
// error or panics (the panic is re-raised after the rollback).
func (s *Store) Update(ctx context.Context, fn func(app.Tx) error) error {
	if err := s.usable(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return errClosed
	}
	s.gen++
	next := *s.cur.Load() // tables are shared until the first write to each
	t := &tx{st: &next, gen: s.gen, writable: true}
	defer func() { t.done = true }()
	if err := fn(t); err != nil {
		return err
	}
	s.cur.Store(&next)
	return nil
}

// Ping reports whether the store answers: nil unless it is closed.
func (s *Store) Ping(ctx context.Context) error {
	return s.usable(ctx)
}

// Close marks the store closed; later transactions fail. It is safe to call
// more than once.
func (s *Store) Close() error {
	s.closed.Store(true)
	return nil
}

func (s *Store) usable(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return errClosed
	}
	return nil
}

// table is a copy-on-write map. The map of a committed snapshot is never
// written: a transaction copies it the first time it writes to it and marks
// the copy with its own generation.
type table[V any] struct {
	m   map[string]V
	gen uint64
}

func (t *table[V]) get(k string) (V, bool) {
	v, ok := t.m[k]
	return v, ok
}

func (t *table[V]) own(gen uint64) {
	if t.gen == gen && t.m != nil {
		return
	}
	m := make(map[string]V, len(t.m)+1)
	for k, v := range t.m {
		m[k] = v
	}
	t.m, t.gen = m, gen
}

func (t *table[V]) put(gen uint64, k string, v V) {
	t.own(gen)
	t.m[k] = v
}

func (t *table[V]) del(gen uint64, k string) {
	if _, ok := t.m[k]; !ok {
		return
	}
	t.own(gen)
	delete(t.m, k)
}

// state is one version of the whole store. Records in it are private copies
// that are never modified in place: a Put stores a new copy.
type state struct {
	settings          table[[]byte]
	companies         table[*domain.Company]
	companyByName     table[string] // name → id
	departments       table[*domain.Department]
	departmentByName  table[string] // companyID \x00 name → id
	users             table[*domain.User]
	userByEmail       table[string] // email → id
	groups            table[*domain.Group]
	resources         table[*domain.Resource]
	resourceByCode    table[string] // companyID \x00 code → id
	compositions      table[*domain.Composition]
	compositionByCode table[string] // companyID \x00 code \x00 state → id
	editions          table[*domain.Edition]
	bankResources     table[*domain.BankResource]    // editionKey \x00 code
	bankCompositions  table[*domain.BankComposition] // editionKey \x00 code
	budgets           table[*domain.Budget]
	budgetByCode      table[string] // companyID \x00 code → id
}

// tx is one transaction. A read-only tx points at a committed snapshot; a
// write tx at its private copy of the state struct.
type tx struct {
	st       *state
	gen      uint64
	writable bool
	done     bool
}

var _ app.Tx = (*tx)(nil)

func (t *tx) readable() error {
	if t.done {
		return errors.New("memstore: transaction used after it ended")
	}
	return nil
}

func (t *tx) canWrite() error {
	if err := t.readable(); err != nil {
		return err
	}
	if !t.writable {
		return errors.New("memstore: write in a read-only transaction")
	}
	return nil
}

func key(parts ...string) string { return strings.Join(parts, "\x00") }

// checkPart rejects an empty value or a NUL byte in a value that becomes
// part of a key, so that composite keys stay unambiguous.
func checkPart(kind, field, v string) error {
	if v == "" {
		return fmt.Errorf("memstore: %s has no %s", kind, field)
	}
	if strings.IndexByte(v, 0) >= 0 {
		return fmt.Errorf("memstore: %s %s contains a NUL byte", kind, field)
	}
	return nil
}

func checkParts(kind string, fields ...string) error {
	for i := 0; i+1 < len(fields); i += 2 {
		if err := checkPart(kind, fields[i], fields[i+1]); err != nil {
			return err
		}
	}
	return nil
}

func conflict(kind, what, holder string) error {
	return domain.Errorf(domain.ECONFLICT, "%s %s is already used by %s", kind, what, holder)
}

// reindex moves a unique index entry from oldKey to newKey, failing with
// ECONFLICT when newKey belongs to another record. An empty key means no
// entry: the record had none, or gets none.
func reindex(t *tx, idx *table[string], kind, what, id, oldKey, newKey string) error {
	if newKey != "" {
		if holder, ok := idx.get(newKey); ok && holder != id {
			return conflict(kind, what, holder)
		}
	}
	if oldKey != "" && oldKey != newKey {
		idx.del(t.gen, oldKey)
	}
	if newKey != "" {
		idx.put(t.gen, newKey, id)
	}
	return nil
}

// nameKey is the key of a department name index entry; empty names are not
// indexed.
func nameKey(companyID, name string) string {
	if name == "" {
		return ""
	}
	return key(companyID, name)
}

// sortedByID returns the records of m that keep returns true for, copied
// and in ID order.
func sortedByID[V any](m map[string]V, keep func(V) bool, clone func(V) V) []V {
	ids := make([]string, 0)
	for id, v := range m {
		if keep(v) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	out := make([]V, len(ids))
	for i, id := range ids {
		out[i] = clone(m[id])
	}
	return out
}

// Settings.

// Setting returns a copy of the value stored under key, or nil.
func (t *tx) Setting(k string) ([]byte, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	v, ok := t.st.settings.get(k)
	if !ok {
		return nil, nil
	}
	return append([]byte{}, v...), nil
}

// PutSetting stores a copy of value under key.
func (t *tx) PutSetting(k string, value []byte) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if k == "" {
		return errors.New("memstore: setting has no key")
	}
	t.st.settings.put(t.gen, k, append([]byte{}, value...))
	return nil
}

// Companies.

func cloneCompany(c *domain.Company) *domain.Company { d := *c; return &d }

func (t *tx) Company(id string) (*domain.Company, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	c, ok := t.st.companies.get(id)
	if !ok {
		return nil, domain.Errorf(domain.ENOTFOUND, "company %s not found", id)
	}
	return cloneCompany(c), nil
}

func (t *tx) CompanyByName(name string) (*domain.Company, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if id, ok := t.st.companyByName.get(name); ok && name != "" {
		return t.Company(id)
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "company %q not found", name)
}

func (t *tx) PutCompany(c *domain.Company) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if c == nil {
		return errors.New("memstore: nil company")
	}
	if err := checkParts("company", "id", c.ID); err != nil {
		return err
	}
	oldKey := ""
	if old, ok := t.st.companies.get(c.ID); ok {
		oldKey = old.Name
	}
	if err := reindex(t, &t.st.companyByName, "company name", fmt.Sprintf("%q", c.Name), c.ID, oldKey, c.Name); err != nil {
		return err
	}
	t.st.companies.put(t.gen, c.ID, cloneCompany(c))
	return nil
}

// Departments.

func cloneDepartment(d *domain.Department) *domain.Department { e := *d; return &e }

func (t *tx) Department(id string) (*domain.Department, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	d, ok := t.st.departments.get(id)
	if !ok {
		return nil, domain.Errorf(domain.ENOTFOUND, "department %s not found", id)
	}
	return cloneDepartment(d), nil
}

func (t *tx) DepartmentByName(companyID, name string) (*domain.Department, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if id, ok := t.st.departmentByName.get(nameKey(companyID, name)); ok && name != "" {
		return t.Department(id)
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "department %q not found", name)
}

func (t *tx) PutDepartment(d *domain.Department) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if d == nil {
		return errors.New("memstore: nil department")
	}
	if err := checkParts("department", "id", d.ID, "company id", d.CompanyID); err != nil {
		return err
	}
	oldKey := ""
	if old, ok := t.st.departments.get(d.ID); ok {
		oldKey = nameKey(old.CompanyID, old.Name)
	}
	if err := reindex(t, &t.st.departmentByName, "department name", fmt.Sprintf("%q", d.Name), d.ID, oldKey, nameKey(d.CompanyID, d.Name)); err != nil {
		return err
	}
	t.st.departments.put(t.gen, d.ID, cloneDepartment(d))
	return nil
}

// Users.

func cloneUser(u *domain.User) *domain.User {
	v := *u
	v.SecretHash = bytes.Clone(u.SecretHash)
	return &v
}

func (t *tx) User(id string) (*domain.User, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	u, ok := t.st.users.get(id)
	if !ok {
		return nil, domain.Errorf(domain.ENOTFOUND, "user %s not found", id)
	}
	return cloneUser(u), nil
}

func (t *tx) UserByEmail(email string) (*domain.User, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if id, ok := t.st.userByEmail.get(email); ok && email != "" {
		return t.User(id)
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "user %q not found", email)
}

func (t *tx) PutUser(u *domain.User) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if u == nil {
		return errors.New("memstore: nil user")
	}
	if err := checkParts("user", "id", u.ID); err != nil {
		return err
	}
	oldKey := ""
	if old, ok := t.st.users.get(u.ID); ok {
		oldKey = old.Email
	}
	if err := reindex(t, &t.st.userByEmail, "e-mail", fmt.Sprintf("%q", u.Email), u.ID, oldKey, u.Email); err != nil {
		return err
	}
	t.st.users.put(t.gen, u.ID, cloneUser(u))
	return nil
}

func (t *tx) CountUsers() (int, error) {
	if err := t.readable(); err != nil {
		return 0, err
	}
	return len(t.st.users.m), nil
}

// Groups.

func cloneGroup(g *domain.Group) *domain.Group { h := *g; return &h }

func (t *tx) Group(id string) (*domain.Group, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	g, ok := t.st.groups.get(id)
	if !ok {
		return nil, domain.Errorf(domain.ENOTFOUND, "group %s not found", id)
	}
	return cloneGroup(g), nil
}

func (t *tx) Groups(companyID string) ([]*domain.Group, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	return sortedByID(t.st.groups.m, func(g *domain.Group) bool { return g.CompanyID == companyID }, cloneGroup), nil
}

func (t *tx) PutGroup(g *domain.Group) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if g == nil {
		return errors.New("memstore: nil group")
	}
	if err := checkParts("group", "id", g.ID, "company id", g.CompanyID); err != nil {
		return err
	}
	t.st.groups.put(t.gen, g.ID, cloneGroup(g))
	return nil
}

func (t *tx) DeleteGroup(id string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if _, ok := t.st.groups.get(id); !ok {
		return domain.Errorf(domain.ENOTFOUND, "group %s not found", id)
	}
	t.st.groups.del(t.gen, id)
	return nil
}

// Resources.

func (t *tx) Resource(id string) (*domain.Resource, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	r, ok := t.st.resources.get(id)
	if !ok {
		return nil, domain.Errorf(domain.ENOTFOUND, "resource %s not found", id)
	}
	return r.Clone(), nil
}

func (t *tx) ResourceByCode(companyID, code string) (*domain.Resource, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if id, ok := t.st.resourceByCode.get(key(companyID, code)); ok {
		return t.Resource(id)
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "resource %s not found", code)
}

func (t *tx) Resources(companyID string) ([]*domain.Resource, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	return sortedByID(t.st.resources.m, func(r *domain.Resource) bool { return r.CompanyID == companyID }, (*domain.Resource).Clone), nil
}

func (t *tx) PutResource(r *domain.Resource) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if r == nil {
		return errors.New("memstore: nil resource")
	}
	if err := checkParts("resource", "id", r.ID, "company id", r.CompanyID, "code", r.Code); err != nil {
		return err
	}
	oldKey := ""
	if old, ok := t.st.resources.get(r.ID); ok {
		oldKey = key(old.CompanyID, old.Code)
	}
	if err := reindex(t, &t.st.resourceByCode, "resource code", r.Code, r.ID, oldKey, key(r.CompanyID, r.Code)); err != nil {
		return err
	}
	t.st.resources.put(t.gen, r.ID, r.Clone())
	return nil
}

func (t *tx) DeleteResource(id string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	old, ok := t.st.resources.get(id)
	if !ok {
		return domain.Errorf(domain.ENOTFOUND, "resource %s not found", id)
	}
	t.st.resourceByCode.del(t.gen, key(old.CompanyID, old.Code))
	t.st.resources.del(t.gen, id)
	return nil
}

// Compositions.

func (t *tx) Composition(id string) (*domain.Composition, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	c, ok := t.st.compositions.get(id)
	if !ok {
		return nil, domain.Errorf(domain.ENOTFOUND, "composition %s not found", id)
	}
	return c.Clone(), nil
}

func (t *tx) CompositionByCode(companyID, code, st string) (*domain.Composition, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if id, ok := t.st.compositionByCode.get(key(companyID, code, st)); ok {
		return t.Composition(id)
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "composition %s (%s) not found", code, st)
}

func (t *tx) Compositions(companyID string) ([]*domain.Composition, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	return sortedByID(t.st.compositions.m, func(c *domain.Composition) bool { return c.CompanyID == companyID }, (*domain.Composition).Clone), nil
}

func (t *tx) PutComposition(c *domain.Composition) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if c == nil {
		return errors.New("memstore: nil composition")
	}
	if err := checkParts("composition", "id", c.ID, "company id", c.CompanyID, "code", c.Code, "state", c.State); err != nil {
		return err
	}
	oldKey := ""
	if old, ok := t.st.compositions.get(c.ID); ok {
		oldKey = key(old.CompanyID, old.Code, old.State)
	}
	what := fmt.Sprintf("%s (%s)", c.Code, c.State)
	if err := reindex(t, &t.st.compositionByCode, "composition code", what, c.ID, oldKey, key(c.CompanyID, c.Code, c.State)); err != nil {
		return err
	}
	t.st.compositions.put(t.gen, c.ID, c.Clone())
	return nil
}

func (t *tx) DeleteComposition(id string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	old, ok := t.st.compositions.get(id)
	if !ok {
		return domain.Errorf(domain.ENOTFOUND, "composition %s not found", id)
	}
	t.st.compositionByCode.del(t.gen, key(old.CompanyID, old.Code, old.State))
	t.st.compositions.del(t.gen, id)
	return nil
}

// Editions and bank records.

func cloneEdition(e *domain.Edition) *domain.Edition {
	f := *e
	f.Regimes = slices.Clone(e.Regimes)
	return &f
}

func cloneBankResource(r *domain.BankResource) *domain.BankResource {
	s := *r
	s.Regimes = slices.Clone(r.Regimes)
	return &s
}

func cloneBankComposition(c *domain.BankComposition) *domain.BankComposition {
	d := *c
	d.Items = slices.Clone(c.Items)
	d.Regimes = slices.Clone(c.Regimes)
	return &d
}

func (t *tx) Edition(k string) (*domain.Edition, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	e, ok := t.st.editions.get(k)
	if !ok {
		return nil, domain.Errorf(domain.ENOTFOUND, "edition %s not found", k)
	}
	return cloneEdition(e), nil
}

func (t *tx) Editions() ([]*domain.Edition, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	return sortedByID(t.st.editions.m, func(*domain.Edition) bool { return true }, cloneEdition), nil
}

func (t *tx) PutEdition(e *domain.Edition) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if e == nil {
		return errors.New("memstore: nil edition")
	}
	k := e.Key()
	if err := checkParts("edition", "key", k); err != nil {
		return err
	}
	t.st.editions.put(t.gen, k, cloneEdition(e))
	return nil
}

func (t *tx) BankResource(editionKey, code string) (*domain.BankResource, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	r, ok := t.st.bankResources.get(key(editionKey, code))
	if !ok {
		return nil, domain.Errorf(domain.ENOTFOUND, "resource %s not found in edition %s", code, editionKey)
	}
	return cloneBankResource(r), nil
}

func (t *tx) PutBankResource(editionKey string, r *domain.BankResource) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if r == nil {
		return errors.New("memstore: nil bank resource")
	}
	if err := checkParts("bank resource", "edition key", editionKey, "code", r.Code); err != nil {
		return err
	}
	t.st.bankResources.put(t.gen, key(editionKey, r.Code), cloneBankResource(r))
	return nil
}

func (t *tx) BankComposition(editionKey, code string) (*domain.BankComposition, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	c, ok := t.st.bankCompositions.get(key(editionKey, code))
	if !ok {
		return nil, domain.Errorf(domain.ENOTFOUND, "composition %s not found in edition %s", code, editionKey)
	}
	return cloneBankComposition(c), nil
}

func (t *tx) PutBankComposition(editionKey string, c *domain.BankComposition) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if c == nil {
		return errors.New("memstore: nil bank composition")
	}
	if err := checkParts("bank composition", "edition key", editionKey, "code", c.Code); err != nil {
		return err
	}
	t.st.bankCompositions.put(t.gen, key(editionKey, c.Code), cloneBankComposition(c))
	return nil
}

func (t *tx) BankResources(editionKey string) ([]*domain.BankResource, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	return inEdition(t.st.bankResources.m, editionKey, cloneBankResource), nil
}

func (t *tx) BankCompositions(editionKey string) ([]*domain.BankComposition, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	return inEdition(t.st.bankCompositions.m, editionKey, cloneBankComposition), nil
}

// inEdition returns copies of the records of m keyed "<editionKey>\x00<code>",
// in code order (byte order, as boltstore's keys).
func (t *tx) DeleteBankRecords(editionKey string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if err := checkParts("edition", "key", editionKey); err != nil {
		return err
	}
	prefix := key(editionKey, "")
	for k := range t.st.bankResources.m {
		if strings.HasPrefix(k, prefix) {
			t.st.bankResources.del(t.gen, k)
		}
	}
	for k := range t.st.bankCompositions.m {
		if strings.HasPrefix(k, prefix) {
			t.st.bankCompositions.del(t.gen, k)
		}
	}
	return nil
}

func inEdition[V any](m map[string]V, editionKey string, clone func(V) V) []V {
	out := []V{}
	if editionKey == "" {
		return out
	}
	prefix := key(editionKey, "")
	var keys []string
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, clone(m[k]))
	}
	return out
}

// Budgets.

func (t *tx) Budget(id string) (*domain.Budget, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	b, ok := t.st.budgets.get(id)
	if !ok {
		return nil, domain.Errorf(domain.ENOTFOUND, "budget %s not found", id)
	}
	return b.Clone(), nil
}

func (t *tx) BudgetByCode(companyID, code string) (*domain.Budget, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if id, ok := t.st.budgetByCode.get(key(companyID, code)); ok {
		return t.Budget(id)
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "budget %s not found", code)
}

func (t *tx) Budgets(companyID string) ([]*domain.Budget, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	return sortedByID(t.st.budgets.m, func(b *domain.Budget) bool { return b.CompanyID == companyID }, (*domain.Budget).Clone), nil
}

func (t *tx) PutBudget(b *domain.Budget) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if b == nil {
		return errors.New("memstore: nil budget")
	}
	if err := checkParts("budget", "id", b.ID, "company id", b.CompanyID, "code", b.Code); err != nil {
		return err
	}
	oldKey := ""
	if old, ok := t.st.budgets.get(b.ID); ok {
		oldKey = key(old.CompanyID, old.Code)
	}
	if err := reindex(t, &t.st.budgetByCode, "budget code", b.Code, b.ID, oldKey, key(b.CompanyID, b.Code)); err != nil {
		return err
	}
	t.st.budgets.put(t.gen, b.ID, b.Clone())
	return nil
}

func (t *tx) DeleteBudget(id string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	old, ok := t.st.budgets.get(id)
	if !ok {
		return domain.Errorf(domain.ENOTFOUND, "budget %s not found", id)
	}
	t.st.budgetByCode.del(t.gen, key(old.CompanyID, old.Code))
	t.st.budgets.del(t.gen, id)
	return nil
}
