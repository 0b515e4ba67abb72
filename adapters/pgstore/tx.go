package pgstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/costdb/costdb/adapters/internal/recordcache"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// tx is one PostgreSQL transaction seen through the app.Tx port.
type tx struct {
	ctx      context.Context
	ptx      pgtx
	writable bool
	done     bool
	// aborted is set when a statement failed with a serialization failure:
	// the whole transaction is then run again, whatever fn made of the
	// error.
	aborted bool
	bank    *bankBuffer
	// held are the records a batch holds (batch.go).
	held *heldRecords
	// records is the store's cache of decoded contract records, for a
	// read-only transaction (nil in a write one: its records may change).
	records *recordcache.Cache
	// own are the own resources read ahead with a composition, keepOwn
	// set while a write that cannot change them runs (ownprefetch.go).
	own     map[ownKey]*domain.Resource
	keepOwn bool
	// known are the records a write transaction read, with their company;
	// stamps the stamps of the compositions it put (writetrips.go).
	known  map[knownKey]string
	stamps map[string]int64
	// bases are the compositions this write transaction read as stored,
	// checked the stamps it knows are stored (compdelta.go).
	bases   map[string]*domain.Composition
	checked map[string]int64
	// stampPool, set in a group, lets a delta put be deferred with a stamp
	// drawn ahead (compdelta.go).
	stampPool *stampPool
	// hot are the settings the store's transactions of this kind read,
	// ahead those this one read with its first statement (settingsahead.go).
	hot   *hotSettings
	ahead map[string][]byte
	// guess lets CompositionStamped answer before its check is answered
	// (stampcheck.go).
	guess bool
	// terms are the changes of the vocabulary counts not written yet
	// (listterms.go).
	terms termDeltas
	// plans are the store's memory of the one-word pages' totals, which
	// choose their plans (wordplan.go); nil: planned for their values.
	plans *wordPlans
}

var _ app.Tx = (*tx)(nil)

func newTx(ctx context.Context, ptx pgtx, writable bool) *tx {
	t := &tx{ctx: ctx, ptx: ptx, writable: writable}
	if writable {
		t.bank = newBankBuffer()
	}
	return t
}

func (t *tx) readable() error {
	if t.done {
		return errors.New("pgstore: transaction used after it ended")
	}
	return nil
}

func (t *tx) canWrite() error {
	if err := t.readable(); err != nil {
		return err
	}
	if !t.writable {
		return errors.New("pgstore: write in a read-only transaction")
	}
	if !t.keepOwn {
		t.own = nil // a write may change what was read ahead (ownprefetch.go)
	}
	return nil
}

// fail notes a serialization failure and wraps err: a unique violation is
// ECONFLICT, a full disk or a server that cannot answer is a fault.
func (t *tx) fail(err error) error {
	if retryable(err) {
		t.aborted = true
		return err
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		// A unique index caught what the check before the write did not
		// see (it cannot happen under SERIALIZABLE without a concurrent
		// transaction, which would have failed with 40001 first).
		return domain.Errorf(domain.ECONFLICT, "%s is already used (%s)", pe.ConstraintName, pe.Detail)
	}
	if f := fault(err); f != nil {
		return f // a full disk, a server or connection gone
	}
	if errors.As(err, &pe) {
		return fmt.Errorf("pgstore: %s (SQLSTATE %s)", pe.Message, pe.Code)
	}
	return fmt.Errorf("pgstore: %w", err)
}

func (t *tx) exec(sql string, args ...any) error {
	if _, err := t.ptx.Exec(t.ctx, sql, args...); err != nil {
		return t.fail(err)
	}
	return nil
}

// query runs sql and calls scan for each row.
func (t *tx) query(sql string, args []any, scan func(pgx.Rows) error) error {
	rows, err := t.ptx.Query(t.ctx, sql, args...)
	if err != nil {
		return t.fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return t.fail(err)
		}
	}
	if err := rows.Err(); err != nil {
		return t.fail(err)
	}
	return nil
}

// one runs a query of at most one row; found says whether there was one.
func (t *tx) one(sql string, args []any, dest ...any) (found bool, err error) {
	err = t.ptx.QueryRow(t.ctx, sql, args...).Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, t.fail(err)
	}
	return true, nil
}

// holder returns the id of the record that a unique key names, or "".
func (t *tx) holder(sql string, args ...any) (string, error) {
	var id string
	if _, err := t.one(sql, args, &id); err != nil {
		return "", err
	}
	return id, nil
}

// checkParts rejects an empty value, or a NUL byte, in a field that is part
// of a key, as the bbolt store does.
func checkParts(kind string, fields ...string) error {
	for i := 0; i+1 < len(fields); i += 2 {
		field, v := fields[i], fields[i+1]
		if v == "" {
			return fmt.Errorf("pgstore: %s has no %s", kind, field)
		}
		if strings.IndexByte(v, 0) >= 0 {
			return fmt.Errorf("pgstore: %s %s contains a NUL byte", kind, field)
		}
	}
	return nil
}

// checkPut checks a put of v: a writable transaction, a record ("nil
// <kind>" otherwise) and its key fields (checkParts of the pairs parts
// gives).
func checkPut[T any](t *tx, kind string, v *T, parts func(*T) []string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if v == nil {
		return errors.New("pgstore: nil " + kind)
	}
	return checkParts(kind, parts(v)...)
}

// first is the first record list reads where s selects, ENOTFOUND
// (format, args) when there is none.
func first[T any](t *tx, list func(sel) ([]T, error), s sel, format string, args ...any) (T, error) {
	var zero T
	if err := t.readable(); err != nil {
		return zero, err
	}
	out, err := list(s)
	if err != nil {
		return zero, err
	}
	if len(out) == 0 {
		return zero, notFound(format, args...)
	}
	return out[0], nil
}

// budgetTrees reads the budgets s selects with their trees.
func (t *tx) budgetTrees(s sel) ([]*domain.Budget, error) { return t.budgets(true, s) }

// free is ECONFLICT naming what when the query (SELECT id … AND id <> the
// record's) finds another record holding a unique key.
func (t *tx) free(what, sql string, args ...any) error {
	h, err := t.holder(sql, args...)
	if err != nil {
		return err
	}
	if h != "" {
		return conflict(what, h)
	}
	return nil
}

func notFound(format string, args ...any) error {
	return domain.Errorf(domain.ENOTFOUND, format, args...)
}

func conflict(what, holder string) error {
	return domain.Errorf(domain.ECONFLICT, "%s is already used by %s", what, holder)
}

// Scalars.

// num encodes a decimal exactly, keeping its scale.
func num(d decimal.Decimal) pgtype.Numeric {
	return pgtype.Numeric{Int: d.Coefficient(), Exp: d.Exponent(), Valid: true}
}

// optNum is num, or NULL for an invalid NullDecimal.
func optNum(d decimal.NullDecimal) pgtype.Numeric {
	if !d.Valid {
		return pgtype.Numeric{}
	}
	return num(d.Decimal)
}

// ts splits a time into what timestamptz keeps (microseconds) and the
// nanoseconds below.
func ts(v time.Time) (time.Time, int32) {
	v = v.UTC()
	return v, int32(v.Nanosecond() % 1000)
}

// fromTS joins what ts split.
func fromTS(v time.Time, ns int32) time.Time {
	v = v.UTC().Add(time.Duration(ns))
	if v.Equal(time.Time{}) {
		return time.Time{}
	}
	return v
}

// decoder turns text columns back into decimals and remembers the first
// malformed one.
type decoder struct{ err error }

func (d *decoder) dec(s string) decimal.Decimal {
	if s == "" {
		return decimal.Decimal{}
	}
	v, err := decimal.NewFromString(s)
	if err != nil && d.err == nil {
		d.err = fmt.Errorf("pgstore: bad decimal %q: %w", s, err)
	}
	return v
}

func (d *decoder) optDec(s *string) decimal.Decimal {
	if s == nil {
		return decimal.Decimal{}
	}
	return d.dec(*s)
}

// Settings.

func (t *tx) Setting(k string) ([]byte, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if k == "" {
		return nil, nil
	}
	if v, ok := t.settingAhead(k); ok {
		return v, nil
	}
	var v []byte
	found, err := t.one(`SELECT value FROM settings WHERE key = $1`, []any{[]byte(k)}, &v)
	if err != nil || !found {
		return nil, err
	}
	if v == nil {
		v = []byte{}
	}
	return v, nil
}

func (t *tx) PutSetting(k string, value []byte) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if k == "" {
		return errors.New("pgstore: setting has no key")
	}
	if value == nil {
		value = []byte{}
	}
	// Sent later (writetrips.go): the caller may change value meanwhile.
	value = bytes.Clone(value)
	t.putAhead(k, value)
	return t.later(`INSERT INTO settings (key, value) VALUES ($1, $2)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, []byte(k), value)
}

// Companies.

const companyCols = `c.id, c.name, c.created_at, c.created_at_ns`

func scanCompany(r pgx.Row) (*domain.Company, error) {
	var c domain.Company
	var at time.Time
	var ns int32
	if err := r.Scan(&c.ID, &c.Name, &at, &ns); err != nil {
		return nil, err
	}
	c.CreatedAt = fromTS(at, ns)
	return &c, nil
}

func (t *tx) company(where string, args []any, what string) (*domain.Company, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	c, err := scanCompany(t.ptx.QueryRow(t.ctx, `SELECT `+companyCols+` FROM companies c WHERE `+where, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notFound("company %s not found", what)
	}
	if err != nil {
		return nil, t.fail(err)
	}
	return c, nil
}

func (t *tx) Company(id string) (*domain.Company, error) {
	return t.company(`c.id = $1`, []any{id}, id)
}

func (t *tx) CompanyByName(name string) (*domain.Company, error) {
	if name == "" {
		return nil, notFound("company %q not found", name)
	}
	return t.company(`c.name = $1`, []any{name}, fmt.Sprintf("%q", name))
}

func (t *tx) PutCompany(c *domain.Company) error {
	if err := checkPut(t, "company", c, func(c *domain.Company) []string { return []string{"id", c.ID} }); err != nil {
		return err
	}
	if c.Name != "" {
		if err := t.free(fmt.Sprintf("company name %q", c.Name), `SELECT id FROM companies WHERE name = $1 AND id <> $2`, c.Name, c.ID); err != nil {
			return err
		}
	}
	at, ns := ts(c.CreatedAt)
	return t.exec(`INSERT INTO companies (id, name, created_at, created_at_ns) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, created_at = excluded.created_at, created_at_ns = excluded.created_at_ns`,
		c.ID, c.Name, at, ns)
}

// Departments.

const departmentCols = `d.id, d.company_id, d.name, d.created_at, d.created_at_ns`

func (t *tx) department(where string, args []any, what string) (*domain.Department, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	var d domain.Department
	var at time.Time
	var ns int32
	found, err := t.one(`SELECT `+departmentCols+` FROM departments d WHERE `+where, args, &d.ID, &d.CompanyID, &d.Name, &at, &ns)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, notFound("department %s not found", what)
	}
	d.CreatedAt = fromTS(at, ns)
	return &d, nil
}

func (t *tx) Department(id string) (*domain.Department, error) {
	return t.department(`d.id = $1`, []any{id}, id)
}

func (t *tx) DepartmentByName(companyID, name string) (*domain.Department, error) {
	if name == "" {
		return nil, notFound("department %q not found", name)
	}
	return t.department(`d.company_id = $1 AND d.name = $2`, []any{companyID, name}, fmt.Sprintf("%q", name))
}

func (t *tx) PutDepartment(v *domain.Department) error {
	if err := checkPut(t, "department", v, func(v *domain.Department) []string { return []string{"id", v.ID, "company id", v.CompanyID} }); err != nil {
		return err
	}
	if v.Name != "" {
		if err := t.free(fmt.Sprintf("department name %q", v.Name), `SELECT id FROM departments WHERE company_id = $1 AND name = $2 AND id <> $3`, v.CompanyID, v.Name, v.ID); err != nil {
			return err
		}
	}
	if err := t.exec(`DELETE FROM departments WHERE id = $1`, v.ID); err != nil {
		return err
	}
	at, ns := ts(v.CreatedAt)
	return t.exec(`INSERT INTO departments (company_id, id, name, created_at, created_at_ns) VALUES ($1, $2, $3, $4, $5)`,
		v.CompanyID, v.ID, v.Name, at, ns)
}

// Users.

const userCols = `u.id, u.company_id, u.department_id, u.email, u.name, u.secret_hash, u.disabled, u.created_at, u.created_at_ns,
	u.tokens_revoked_at, u.tokens_revoked_at_ns`

// users reads the users the condition (on u, with its ORDER BY) selects.
func (t *tx) users(where string, args ...any) ([]*domain.User, error) {
	out := []*domain.User{}
	err := t.query(`SELECT `+userCols+` FROM users u WHERE `+where, args, func(r pgx.Rows) error {
		var u domain.User
		var at, rev time.Time
		var ns, revNS int32
		if err := r.Scan(&u.ID, &u.CompanyID, &u.DepartmentID, &u.Email, &u.Name, &u.SecretHash, &u.Disabled, &at, &ns, &rev, &revNS); err != nil {
			return err
		}
		u.CreatedAt, u.TokensRevokedAt = fromTS(at, ns), fromTS(rev, revNS)
		out = append(out, &u)
		return nil
	})
	return out, err
}

func (t *tx) user(where string, args []any, what string) (*domain.User, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	us, err := t.users(where, args...)
	if err != nil {
		return nil, err
	}
	if len(us) == 0 {
		return nil, notFound("user %s not found", what)
	}
	return us[0], nil
}

func (t *tx) Users(companyID string) ([]*domain.User, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if companyID == "" {
		return t.users(`true ORDER BY u.id`)
	}
	return t.users(`u.company_id = $1 ORDER BY u.id`, companyID)
}

func (t *tx) User(id string) (*domain.User, error) {
	return t.user(`u.id = $1`, []any{id}, id)
}

func (t *tx) UserByEmail(email string) (*domain.User, error) {
	if email == "" {
		return nil, notFound("user %q not found", email)
	}
	return t.user(`u.email = $1`, []any{email}, fmt.Sprintf("%q", email))
}

func (t *tx) PutUser(u *domain.User) error {
	if err := checkPut(t, "user", u, func(u *domain.User) []string { return []string{"id", u.ID} }); err != nil {
		return err
	}
	if u.Email != "" {
		if err := t.free(fmt.Sprintf("e-mail %q", u.Email), `SELECT id FROM users WHERE email = $1 AND id <> $2`, u.Email, u.ID); err != nil {
			return err
		}
	}
	if err := t.exec(`DELETE FROM users WHERE id = $1`, u.ID); err != nil {
		return err
	}
	at, ns := ts(u.CreatedAt)
	rev, revNS := ts(u.TokensRevokedAt)
	return t.exec(`INSERT INTO users (company_id, id, department_id, email, name, secret_hash, disabled, created_at, created_at_ns,
			tokens_revoked_at, tokens_revoked_at_ns)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		u.CompanyID, u.ID, u.DepartmentID, u.Email, u.Name, u.SecretHash, u.Disabled, at, ns, rev, revNS)
}

func (t *tx) CountUsers() (int, error) {
	if err := t.readable(); err != nil {
		return 0, err
	}
	var n int
	_, err := t.one(`SELECT count(*) FROM users`, nil, &n)
	return n, err
}

// Groups.

const groupCols = `r.id, r.company_id, r.user_id, r.department_id, r.description, r.created_at, r.created_at_ns`

func (t *tx) groups(s sel) ([]*domain.Group, error) {
	out := []*domain.Group{}
	b := &pgx.Batch{}
	s.queuePlanEach(b)
	batchRows(b, `SELECT `+groupCols+` FROM groups r WHERE `+s.where+s.tail, s.args, func(r pgx.Rows) error {
		var g domain.Group
		var at time.Time
		var ns int32
		if err := r.Scan(&g.ID, &g.CompanyID, &g.UserID, &g.DepartmentID, &g.Description, &at, &ns); err != nil {
			return err
		}
		g.CreatedAt = fromTS(at, ns)
		out = append(out, &g)
		return nil
	})
	s.queueCount(b, "groups")
	return out, t.send(b)
}

func (t *tx) Group(id string) (*domain.Group, error) {
	return first(t, t.groups, byWhere(`r.id = $1`, id), "group %s not found", id)
}

func (t *tx) PutGroup(g *domain.Group) error {
	if err := checkPut(t, "group", g, func(g *domain.Group) []string { return []string{"id", g.ID, "company id", g.CompanyID} }); err != nil {
		return err
	}
	at, ns := ts(g.CreatedAt)
	return t.put("groups", g.ID, g.CompanyID, nil, "", func(b *pgx.Batch) {
		b.Queue(`INSERT INTO groups (company_id, id, user_id, department_id, description, description_fold, description_ci, created_at, created_at_ns)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			g.CompanyID, g.ID, g.UserID, g.DepartmentID, g.Description, app.Fold(g.Description), ciFold(g.Description), at, ns)
	})
}

func (t *tx) DeleteGroup(id string) error {
	return t.deleteByID("groups", "group", id)
}

// put writes a record of a company list (groups, resources, compositions,
// budgets) that fill queues (its row and its children's). A new record,
// the common case, is inserted at once, inside a savepoint: no read of the
// id or code indexes first, so that concurrent creators of one company do
// not read the index pages the others write (which serializable isolation
// would count against them). When a unique key refuses the row, the
// savepoint is rolled back and the record is either replaced (its id
// exists: the old row and its children are deleted, then written anew) or
// refused with ECONFLICT naming the holder of its key (what and holder; a
// nil holder means the list has no key but the id).
func (t *tx) put(table, id, companyID string, holder func() (string, error), what string, fill func(b *pgx.Batch)) error {
	if done, err := t.replaceKnown(table, id, companyID, fill); done || err != nil {
		return err
	}
	b := &pgx.Batch{}
	b.Queue(`SAVEPOINT pgstore_put`)
	fill(b)
	t.recount(b, table, "", false, companyID)
	b.Queue(`RELEASE SAVEPOINT pgstore_put`)
	err := t.ptx.SendBatch(t.ctx, b).Close()
	if err == nil {
		return nil
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23505" {
		return t.fail(err)
	}
	if err := t.exec(`ROLLBACK TO SAVEPOINT pgstore_put`); err != nil {
		return err
	}
	if err := t.exec(`RELEASE SAVEPOINT pgstore_put`); err != nil {
		return err
	}
	if holder != nil {
		h, err := holder()
		if err != nil {
			return err
		}
		if h != "" {
			return conflict(what, h)
		}
	}
	oldCompany, existed, err := t.removed(table, id)
	if err != nil {
		return err
	}
	if !existed {
		// The key is held by a row this transaction cannot see: a
		// concurrent writer's. Run the transaction again.
		t.aborted = true
		return &pgconn.PgError{Code: "40001", Message: "pgstore: " + pe.ConstraintName + " is held by a concurrent transaction"}
	}
	b = &pgx.Batch{}
	fill(b)
	t.recount(b, table, oldCompany, true, companyID)
	return t.send(b)
}

// deleteByID deletes the record with the id from table (its children go
// with it), ENOTFOUND when there is none.
func (t *tx) deleteByID(table, kind, id string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if err := t.writeHeld(); err != nil {
		return err
	}
	company, existed, err := t.removed(table, id)
	if err != nil {
		return err
	}
	if !existed {
		return notFound("%s %s not found", kind, id)
	}
	b := &pgx.Batch{}
	t.recount(b, table, company, true, "")
	return t.send(b)
}

// batchRows queues a query on b whose rows scan calls for.
func batchRows(b *pgx.Batch, sql string, args []any, scan func(pgx.Rows) error) {
	b.Queue(sql, args...).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			if err := scan(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}

// send sends a batch and waits for all its queries.
func (t *tx) send(b *pgx.Batch) error {
	if err := t.ptx.SendBatch(t.ctx, b).Close(); err != nil {
		return t.fail(err)
	}
	return nil
}

// Resources.

const resourceCols = `r.id, r.company_id, r.user_id, r.department_id, r.group_id, r.code, r.second_code, r.description,
	r.type, r.unit, r.is_sicro, r.status, r.note, r.created_at, r.created_at_ns, r.tags,
	r.price_states, r.price_pnd, r.price_pd, r.price_pndi, r.price_pdi`

// priceColumns are the columns of resources that hold its prices
// (migration 0018): five arrays of the same length, a place per state in
// the states' order, the prices as the text numeric gives them (decText).
var priceColumns = []string{"price_states", "price_pnd", "price_pd", "price_pndi", "price_pdi"}

// priceRow is the values of priceColumns for v's prices: the put and the
// import's COPY write them.
func priceRow(v *domain.Resource) []any {
	states := make([]string, 0, len(v.Locals))
	for st := range v.Locals {
		states = append(states, st)
	}
	slices.Sort(states)
	n := len(states)
	pnd, pd, pndi, pdi := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	for i, st := range states {
		p := v.Locals[st]
		pnd[i], pd[i], pndi[i], pdi[i] = decText(p.PND), decText(p.PD), decText(p.PNDI), decText(p.PDI)
	}
	return []any{states, pnd, pd, pndi, pdi}
}

// decText is a decimal as PostgreSQL's numeric prints it (num's value
// cast to text): its digits to its scale, trailing zeros kept, and no
// fractional digits for a positive exponent.
func decText(d decimal.Decimal) string {
	if e := d.Exponent(); e < 0 {
		return d.StringFixed(-e)
	}
	return d.StringFixed(0)
}

// resources loads the resources that the clause (a WHERE condition on r,
// with ORDER BY and LIMIT when needed) selects, their prices included, in
// one round trip.
func (t *tx) resources(s sel) ([]*domain.Resource, error) {
	if err := t.writeHeld(); err != nil {
		return nil, err
	}
	b := &pgx.Batch{}
	var q *queuedResources
	var seen wordSeen
	if s.terms != "" && s.total != nil {
		// One word: the plans are the store's (wordplan.go).
		company := s.args[0].(string)
		known, ok := t.plans.get(company, s.word)
		s.seen = &seen
		q = queueWordPage(b, s, known, ok)
	} else {
		s.queuePlanEach(b)
		q = queueResources(b, s)
		s.queueCount(b, "resources")
	}
	if err := t.send(b); err != nil {
		return nil, err
	}
	if s.seen != nil && q.d.err == nil {
		t.plans.note(s.args[0].(string), s.word, seen)
	}
	return q.out, q.d.err
}

// queuedResources are the resources a batch reads (queueResources), once
// it is sent.
type queuedResources struct {
	out  []*domain.Resource
	byID map[string]*domain.Resource
	d    decoder
}

// scanResource scans a row of resourceCols, the resource's prices
// included; a bad decimal is d's error.
func scanResource(rows pgx.Rows, d *decoder) (*domain.Resource, error) {
	var v domain.Resource
	var at time.Time
	var ns int32
	var states, pnd, pd, pndi, pdi []string
	if err := rows.Scan(&v.ID, &v.CompanyID, &v.UserID, &v.DepartmentID, &v.GroupID, &v.Code, &v.SecondCode, &v.Description,
		&v.Type, &v.Unit, &v.IsSicro, &v.Status, &v.Note, &at, &ns, &v.Tags,
		&states, &pnd, &pd, &pndi, &pdi); err != nil {
		return nil, err
	}
	v.CreatedAt, v.Tags = fromTS(at, ns), app.Tags(v.Tags)
	n := len(states)
	if len(pnd) != n || len(pd) != n || len(pndi) != n || len(pdi) != n {
		return nil, fmt.Errorf("pgstore: resource %s: %d price states but %d, %d, %d, %d prices", v.ID, n, len(pnd), len(pd), len(pndi), len(pdi))
	}
	v.Locals = make(map[string]domain.PriceLine, n)
	for i, st := range states {
		v.Locals[st] = domain.PriceLine{PND: d.dec(pnd[i]), PD: d.dec(pd[i]), PNDI: d.dec(pndi[i]), PDI: d.dec(pdi[i])}
	}
	return &v, nil
}

// queueResources queues on b the read of the resources s selects, their
// prices included (their own row's arrays: migration 0018).
func queueResources(b *pgx.Batch, s sel) *queuedResources {
	q := &queuedResources{out: []*domain.Resource{}, byID: map[string]*domain.Resource{}}
	batchRows(b, `SELECT `+resourceCols+` FROM resources r WHERE `+s.where+s.tail, s.args, func(rows pgx.Rows) error {
		v, err := scanResource(rows, &q.d)
		if err != nil {
			return err
		}
		q.out = append(q.out, v)
		q.byID[v.ID] = v
		return nil
	})
	return q
}

func (t *tx) Resource(id string) (*domain.Resource, error) {
	return first(t, t.resources, byWhere(`r.id = $1`, id), "resource %s not found", id)
}

func (t *tx) ResourceByCode(companyID, code string) (*domain.Resource, error) {
	if r, ok, err := t.prefetchedResource(companyID, code); ok {
		return r, err
	}
	return first(t, t.resources, byWhere(`r.company_id = $1 AND r.code = $2`, companyID, code), "resource %s not found", code)
}

func (t *tx) PutResource(v *domain.Resource) error {
	if err := checkPut(t, "resource", v, func(v *domain.Resource) []string {
		return []string{"id", v.ID, "company id", v.CompanyID, "code", v.Code}
	}); err != nil {
		return err
	}
	if t.held != nil {
		return t.holdResource(v)
	}
	at, ns := ts(v.CreatedAt)
	fold := app.Fold(v.Description)
	err := t.put("resources", v.ID, v.CompanyID, func() (string, error) {
		return t.holder(`SELECT id FROM resources WHERE company_id = $1 AND code = $2 AND id <> $3`, v.CompanyID, v.Code, v.ID)
	}, "resource code "+v.Code, func(b *pgx.Batch) {
		b.Queue(`INSERT INTO resources (company_id, id, user_id, department_id, group_id, code, second_code, description,
			type, unit, is_sicro, status, note, code_fold, code_key, description_fold, description_ci, unit_fold, unit_ci,
			created_at, created_at_ns, tags, `+strings.Join(priceColumns, ", ")+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
			$23, $24, $25, $26, $27)`,
			append([]any{v.CompanyID, v.ID, v.UserID, v.DepartmentID, v.GroupID, v.Code, v.SecondCode, v.Description,
				v.Type, v.Unit, v.IsSicro, v.Status, v.Note, app.Fold(v.Code), app.CodeKey(app.Fold(v.Code)),
				fold, ciFold(v.Description), app.Fold(v.Unit), ciFold(v.Unit), at, ns, tagsArg(v.Tags)}, priceRow(v)...)...)
	})
	if err == nil {
		t.noteTerms(resourceTerms, v.CompanyID, fold, 1)
	}
	return err
}

func (t *tx) DeleteResource(id string) error {
	return t.deleteByID("resources", "resource", id)
}

// Compositions.

const compositionCols = `r.id, r.company_id, r.user_id, r.department_id, r.group_id, r.code, r.second_code, r.description,
	r.type, r.unit, r.state, r.is_sicro, r.labor, r.rounding, r.note, r.team_production::text, r.fic::text, r.labor_addition::text,
	r.has_banks, r.has_items, r.created_at, r.created_at_ns, r.tags, r.labour_charges::text`

// compositions loads the compositions that the clause (on r) selects, with
// their banks and items, in one round trip.
func (t *tx) compositions(s sel) ([]*domain.Composition, error) { return t.compositionsWith(s, false) }

// compositionsWith is compositions; with own, the same round trip also
// reads the own resources the compositions' items name (ownprefetch.go).
func (t *tx) compositionsWith(s sel, own bool) ([]*domain.Composition, error) {
	if err := t.writeHeld(); err != nil {
		return nil, err
	}
	out := []*domain.Composition{}
	byID := map[string]*domain.Composition{}
	var d decoder
	b := &pgx.Batch{}
	s.queuePlanEach(b)
	batchRows(b, `SELECT `+compositionCols+` FROM compositions r WHERE `+s.where+s.tail, s.args, func(rows pgx.Rows) error {
		var c domain.Composition
		var at time.Time
		var ns int32
		var rounding int
		var tp, fic, la string
		var lc *string
		var hasBanks, hasItems bool
		if err := rows.Scan(&c.ID, &c.CompanyID, &c.UserID, &c.DepartmentID, &c.GroupID, &c.Code, &c.SecondCode, &c.Description,
			&c.Type, &c.Unit, &c.State, &c.IsSicro, &c.Labor, &rounding, &c.Note, &tp, &fic, &la,
			&hasBanks, &hasItems, &at, &ns, &c.Tags, &lc); err != nil {
			return err
		}
		if lc != nil {
			c.LabourCharges = decimal.NewNullDecimal(d.dec(*lc))
		}
		c.Rounding, c.Tags = domain.RoundingMethod(rounding), app.Tags(c.Tags)
		c.TeamProduction, c.FIC, c.LaborAddition = d.dec(tp), d.dec(fic), d.dec(la)
		c.CreatedAt = fromTS(at, ns)
		if hasBanks {
			c.Banks = []domain.BankRef{}
		}
		if hasItems {
			c.Items = []domain.Item{}
		}
		out = append(out, &c)
		byID[c.ID] = &c
		return nil
	})
	sub := `(SELECT r.company_id, r.id FROM compositions r WHERE ` + s.where + s.tail + `)`
	args := s.args
	batchRows(b, `SELECT x.composition_id, x.name, x.state, x.month, x.region, x.report, x.asked_region, x.with_labor_charges
		FROM composition_banks x WHERE (x.company_id, x.composition_id) IN `+sub+` ORDER BY x.composition_id, x.pos`, args,
		func(rows pgx.Rows) error {
			var id string
			var br domain.BankRef
			if err := rows.Scan(&id, &br.Name, &br.State, &br.Month, &br.Region, &br.Report, &br.AskedRegion, &br.WithLaborCharges); err != nil {
				return err
			}
			if c := byID[id]; c != nil {
				c.Banks = append(c.Banks, br)
			}
			return nil
		})
	batchRows(b, `SELECT x.composition_id, x.bank, x.code, x.kind, x.quantity::text, x.utilization::text
		FROM composition_items x WHERE (x.company_id, x.composition_id) IN `+sub+` ORDER BY x.composition_id, x.pos`, args,
		func(rows pgx.Rows) error {
			var id, kind, qty string
			var util *string
			var it domain.Item
			if err := rows.Scan(&id, &it.Bank, &it.Code, &kind, &qty, &util); err != nil {
				return err
			}
			it.Kind, it.Quantity = domain.ItemKind(kind), d.dec(qty)
			if util != nil {
				it.Utilization = decimal.NewNullDecimal(d.dec(*util))
			}
			if c := byID[id]; c != nil {
				c.Items = append(c.Items, it)
			}
			return nil
		})
	var owned *queuedResources
	if own && s.tail == "" {
		owned = queueOwnResources(b, s)
	}
	s.queueCount(b, "compositions")
	if err := t.send(b); err != nil {
		return nil, err
	}
	if owned != nil {
		t.keepOwnResources(out, owned)
	}
	for _, c := range out {
		t.noteKnown("compositions", c.ID, c.CompanyID)
	}
	if len(out) == 1 && d.err == nil {
		t.noteBase(out[0])
	}
	return out, d.err
}

func (t *tx) Composition(id string) (*domain.Composition, error) {
	return first(t, t.compositionsOwn, byWhere(`r.id = $1`, id), "composition %s not found", id)
}

func (t *tx) CompositionByCode(companyID, code, state string) (*domain.Composition, error) {
	return first(t, t.compositionsOwn, byWhere(`r.company_id = $1 AND r.code = $2 AND r.state = $3`, companyID, code, state), "composition %s (%s) not found", code, state)
}

var _ app.CompositionStamper = (*tx)(nil)

// CompositionStamp is app.CompositionStamper: the composition row's stamp
// (eight bytes, big-endian), which every put draws afresh from the sequence
// composition_stamps; nil when there is no such composition.
func (t *tx) CompositionStamp(id string) ([]byte, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if err := t.writeHeld(); err != nil {
		return nil, err
	}
	n, found := t.stamps[id]
	var err error
	if !found {
		var company string
		found, err = t.one(`SELECT stamp, company_id FROM compositions WHERE id = $1`, []any{id}, &n, &company)
		if found {
			t.noteKnown("compositions", id, company)
			t.noteChecked(id, n)
		}
	}
	if err != nil || !found {
		return nil, err
	}
	return binary.BigEndian.AppendUint64(nil, uint64(n)), nil
}

// CompositionStamped is app.CompositionStamper: whether the composition's
// stamp is stamp.
func (t *tx) CompositionStamped(id string, stamp []byte) (bool, error) {
	if err := t.readable(); err != nil {
		return false, err
	}
	if t.guessStamped(id, stamp) {
		return true, nil
	}
	got, err := t.CompositionStamp(id)
	return got != nil && bytes.Equal(got, stamp), err
}

func (t *tx) PutComposition(c *domain.Composition) error {
	var base *domain.Composition
	if c != nil {
		base = t.bases[c.ID]
	}
	return t.putComposition(c, base)
}

// putComposition puts c; base, when not nil, is the composition as this
// transaction knows it stored, over which only what changed is written
// (compdelta.go).
func (t *tx) putComposition(c, base *domain.Composition) (err error) {
	t.keepOwn = true // a composition's put changes no resource
	err = checkPut(t, "composition", c, func(c *domain.Composition) []string {
		return []string{"id", c.ID, "company id", c.CompanyID, "code", c.Code, "state", c.State}
	})
	t.keepOwn = false
	if err != nil {
		return err
	}
	t.forgetStamp(c.ID)
	t.forgetBase(c.ID)
	if t.held != nil {
		return t.holdComposition(c)
	}
	defer func() {
		if err != nil {
			t.forgetStamp(c.ID) // drawn by an insert that was undone
		}
	}()
	if deltaFits(base, c) {
		return t.putDelta(base, c)
	}
	return t.put("compositions", c.ID, c.CompanyID, func() (string, error) {
		return t.holder(`SELECT id FROM compositions WHERE company_id = $1 AND code = $2 AND state = $3 AND id <> $4`,
			c.CompanyID, c.Code, c.State, c.ID)
	}, fmt.Sprintf("composition code %s (%s)", c.Code, c.State), func(b *pgx.Batch) {
		b.Queue(`INSERT INTO compositions (company_id, id, user_id, department_id, group_id, code, second_code, description,
			type, unit, state, is_sicro, labor, rounding, note, team_production, fic, labor_addition, has_banks, has_items,
			code_fold, code_key, description_fold, description_ci, unit_fold, unit_ci, state_fold, state_ci, type_fold, type_ci,
			created_at, created_at_ns, tags, labour_charges)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
				$21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34)
			RETURNING stamp`, compositionRow(c)...).
			QueryRow(func(row pgx.Row) error {
				var stamp int64
				if err := row.Scan(&stamp); err != nil {
					return err
				}
				t.noteStamp(c.ID, stamp)
				return nil
			})
		for i, br := range c.Banks {
			b.Queue(`INSERT INTO composition_banks (company_id, composition_id, pos, name, state, month, region, report, asked_region, with_labor_charges)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
				c.CompanyID, c.ID, i, br.Name, br.State, br.Month, br.Region, br.Report, br.AskedRegion, br.WithLaborCharges)
		}
		for i, it := range c.Items {
			b.Queue(`INSERT INTO composition_items (company_id, composition_id, pos, bank, code, kind, quantity, utilization)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
				c.CompanyID, c.ID, i, it.Bank, it.Code, string(it.Kind), num(it.Quantity), optNum(it.Utilization))
		}
	})
}

func (t *tx) DeleteComposition(id string) error {
	t.forgetStamp(id)
	t.forgetBase(id)
	return t.deleteByID("compositions", "composition", id)
}

// Editions.

const editionCols = `e.bank, e.state, e.month, e.region, e.regimes, e.resources, e.compositions, e.structures, e.source, e.imported_at, e.imported_at_ns, e.files`

func scanEdition(r pgx.Row) (*domain.Edition, error) {
	var e domain.Edition
	var regimes []int32
	var at time.Time
	var ns int32
	var files []byte
	if err := r.Scan(&e.Bank, &e.State, &e.Month, &e.Region, &regimes, &e.Resources, &e.Compositions, &e.Structures, &e.Source, &at, &ns, &files); err != nil {
		return nil, err
	}
	if files != nil {
		if err := json.Unmarshal(files, &e.Files); err != nil {
			return nil, fmt.Errorf("edition %s: files: %w", e.Key(), err)
		}
	}
	if regimes != nil {
		e.Regimes = make([]domain.Regime, len(regimes))
		for i, g := range regimes {
			e.Regimes[i] = domain.Regime(g)
		}
	}
	e.ImportedAt = fromTS(at, ns)
	return &e, nil
}

func (t *tx) Edition(k string) (*domain.Edition, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	e, err := scanEdition(t.ptx.QueryRow(t.ctx, `SELECT `+editionCols+` FROM editions e WHERE e.key = $1`, k))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notFound("edition %s not found", k)
	}
	if err != nil {
		return nil, t.fail(err)
	}
	return e, nil
}

func (t *tx) Editions() ([]*domain.Edition, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	var out []*domain.Edition
	err := t.query(`SELECT `+editionCols+` FROM editions e ORDER BY e.key`, nil, func(r pgx.Rows) error {
		e, err := scanEdition(r)
		if err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

func (t *tx) PutEdition(e *domain.Edition) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if e == nil {
		return errors.New("pgstore: nil edition")
	}
	k := e.Key()
	if err := checkParts("edition", "key", k); err != nil {
		return err
	}
	var regimes []int32
	if e.Regimes != nil {
		regimes = make([]int32, len(e.Regimes))
		for i, g := range e.Regimes {
			regimes[i] = int32(g)
		}
	}
	at, ns := ts(e.ImportedAt)
	var files []byte // NULL for none
	if len(e.Files) > 0 {
		var err error
		if files, err = json.Marshal(e.Files); err != nil {
			return err
		}
	}
	return t.exec(`INSERT INTO editions (key, bank, state, month, region, regimes, resources, compositions, structures, source, imported_at, imported_at_ns, files)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
		ON CONFLICT (key) DO UPDATE SET bank = excluded.bank, state = excluded.state, month = excluded.month, region = excluded.region,
			regimes = excluded.regimes, resources = excluded.resources, compositions = excluded.compositions,
			structures = excluded.structures, source = excluded.source, imported_at = excluded.imported_at,
			imported_at_ns = excluded.imported_at_ns, files = excluded.files`,
		k, e.Bank, e.State, e.Month, e.Region, regimes, e.Resources, e.Compositions, e.Structures, e.Source, at, ns, files)
}

// Budgets.

const budgetCols = `r.id, r.company_id, r.user_id, r.department_id, r.code, r.description, r.client, r.state, r.desonerado,
	r.bdi::text, r.bdi_mode, r.rounding, r.node_seq, r.has_banks, r.has_items, r.created_at, r.created_at_ns, r.updated_at, r.updated_at_ns,
	r.tcu_bdi, r.tags, r.art, r.issue_date, r.labour_charges::text`

// budgets loads the budgets that the clause (on r) selects, with their
// banks and, when trees is set, their trees, in one round trip.
func (t *tx) budgets(trees bool, s sel) ([]*domain.Budget, error) {
	out := []*domain.Budget{}
	byID := map[string]*domain.Budget{}
	nodes := map[string][]nodeRow{}
	var d decoder
	b := &pgx.Batch{}
	s.queuePlanEach(b)
	batchRows(b, `SELECT `+budgetCols+` FROM budgets r WHERE `+s.where+s.tail, s.args, func(rows pgx.Rows) error {
		var v domain.Budget
		var bdi, mode, rounding string
		var hasBanks, hasItems bool
		var at, up time.Time
		var ns, upNS int32
		var tcu, lc *string
		if err := rows.Scan(&v.ID, &v.CompanyID, &v.UserID, &v.DepartmentID, &v.Code, &v.Description, &v.Client, &v.State, &v.Desonerado,
			&bdi, &mode, &rounding, &v.NodeSeq, &hasBanks, &hasItems, &at, &ns, &up, &upNS, &tcu, &v.Tags, &v.ART, &v.IssueDate, &lc); err != nil {
			return err
		}
		if lc != nil {
			v.LabourCharges = decimal.NewNullDecimal(d.dec(*lc))
		}
		v.Tags = app.Tags(v.Tags)
		d.decodeTCU(&v, tcu)
		v.BDI, v.BDIMode, v.Rounding = d.dec(bdi), domain.BDIMode(mode), domain.BudgetRounding(rounding)
		v.CreatedAt, v.UpdatedAt = fromTS(at, ns), fromTS(up, upNS)
		if hasBanks {
			v.Banks = []domain.BankRef{}
		}
		if hasItems {
			v.Items = []domain.BudgetNode{}
		}
		out = append(out, &v)
		byID[v.ID] = &v
		return nil
	})
	sub := `(SELECT r.company_id, r.id FROM budgets r WHERE ` + s.where + s.tail + `)`
	args := s.args
	batchRows(b, `SELECT x.budget_id, x.name, x.state, x.month, x.region, x.report
		FROM budget_banks x WHERE (x.company_id, x.budget_id) IN `+sub+` ORDER BY x.budget_id, x.pos`, args,
		func(rows pgx.Rows) error {
			var id string
			var br domain.BankRef
			if err := rows.Scan(&id, &br.Name, &br.State, &br.Month, &br.Region, &br.Report); err != nil {
				return err
			}
			if v := byID[id]; v != nil {
				v.Banks = append(v.Banks, br)
			}
			return nil
		})
	if trees {
		batchRows(b, `SELECT x.budget_id, x.parent, x.id, x.kind, x.description, x.bank, x.code, x.quantity::text
			FROM budget_nodes x WHERE (x.company_id, x.budget_id) IN `+sub+` ORDER BY x.budget_id, x.pos`, args,
			func(rows pgx.Rows) error {
				var id, kind string
				var n nodeRow
				var qty *string
				if err := rows.Scan(&id, &n.parent, &n.node.ID, &kind, &n.node.Description, &n.node.Bank, &n.node.Code, &qty); err != nil {
					return err
				}
				n.node.Kind, n.node.Quantity = domain.NodeKind(kind), d.optDec(qty)
				nodes[id] = append(nodes[id], n)
				return nil
			})
	}
	s.queueCount(b, "budgets")
	if err := t.send(b); err != nil {
		return nil, err
	}
	for id, rows := range nodes {
		if v := byID[id]; v != nil {
			v.Items = buildTree(rows)
		}
	}
	return out, d.err
}

// nodeRow is one row of budget_nodes: a node and the position of its
// parent (-1 at the top), in depth-first order.
type nodeRow struct {
	parent int
	node   domain.BudgetNode
}

// flattenTree lists a tree depth first, each node with its parent's
// position.
func flattenTree(ns []domain.BudgetNode, parent int, out []nodeRow) []nodeRow {
	for _, n := range ns {
		pos := len(out)
		row := n
		row.Items = nil
		out = append(out, nodeRow{parent: parent, node: row})
		out = flattenTree(n.Items, pos, out)
	}
	return out
}

// buildTree rebuilds the tree that flattenTree listed.
func buildTree(rows []nodeRow) []domain.BudgetNode {
	children := make([][]int, len(rows))
	var top []int
	for i, r := range rows {
		if r.parent < 0 || r.parent >= i {
			top = append(top, i)
		} else {
			children[r.parent] = append(children[r.parent], i)
		}
	}
	var build func(idx []int) []domain.BudgetNode
	build = func(idx []int) []domain.BudgetNode {
		if len(idx) == 0 {
			return nil
		}
		out := make([]domain.BudgetNode, len(idx))
		for i, j := range idx {
			out[i] = rows[j].node
			out[i].Items = build(children[j])
		}
		return out
	}
	return build(top)
}

func (t *tx) Budget(id string) (*domain.Budget, error) {
	return first(t, t.budgetTrees, byWhere(`r.id = $1`, id), "budget %s not found", id)
}

func (t *tx) BudgetByCode(companyID, code string) (*domain.Budget, error) {
	return first(t, t.budgetTrees, byWhere(`r.company_id = $1 AND r.code = $2`, companyID, code), "budget %s not found", code)
}

func (t *tx) PutBudget(v *domain.Budget) error {
	if err := checkPut(t, "budget", v, func(v *domain.Budget) []string {
		return []string{"id", v.ID, "company id", v.CompanyID, "code", v.Code}
	}); err != nil {
		return err
	}
	at, ns := ts(v.CreatedAt)
	up, upNS := ts(v.UpdatedAt)
	tcu, err := encodeTCU(v)
	if err != nil {
		return err
	}
	err = t.put("budgets", v.ID, v.CompanyID, func() (string, error) {
		return t.holder(`SELECT id FROM budgets WHERE company_id = $1 AND code = $2 AND id <> $3`, v.CompanyID, v.Code, v.ID)
	}, "budget code "+v.Code, func(b *pgx.Batch) {
		b.Queue(`INSERT INTO budgets (company_id, id, user_id, department_id, code, description, client, state, desonerado,
			bdi, bdi_mode, rounding, node_seq, has_banks, has_items,
			code_fold, code_key, description_fold, description_ci, client_fold, client_ci, state_fold, state_ci,
			created_at, created_at_ns, updated_at, updated_at_ns, tcu_bdi, tags, art, issue_date, labour_charges)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
				$16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32)`,
			v.CompanyID, v.ID, v.UserID, v.DepartmentID, v.Code, v.Description, v.Client, v.State, v.Desonerado,
			num(v.BDI), string(v.BDIMode), string(v.Rounding), v.NodeSeq, v.Banks != nil, v.Items != nil,
			app.Fold(v.Code), app.CodeKey(app.Fold(v.Code)), app.Fold(v.Description), ciFold(v.Description),
			app.Fold(v.Client), ciFold(v.Client), app.Fold(v.State), ciFold(v.State), at, ns, up, upNS, tcu, tagsArg(v.Tags), v.ART, v.IssueDate, optNum(v.LabourCharges))
		for i, br := range v.Banks {
			b.Queue(`INSERT INTO budget_banks (company_id, budget_id, pos, name, state, month, region, report)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
				v.CompanyID, v.ID, i, br.Name, br.State, br.Month, br.Region, br.Report)
		}
	})
	if err != nil {
		return err
	}
	rows := flattenTree(v.Items, -1, nil)
	if len(rows) == 0 {
		return nil
	}
	_, err = t.ptx.CopyFrom(t.ctx, pgx.Identifier{"budget_nodes"},
		[]string{"company_id", "budget_id", "pos", "parent", "id", "kind", "description", "bank", "code", "quantity"},
		pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
			n := rows[i].node
			q := pgtype.Numeric{}
			if !n.Quantity.IsZero() {
				q = num(n.Quantity)
			}
			return []any{v.CompanyID, v.ID, int32(i), int32(rows[i].parent), n.ID, string(n.Kind), n.Description, n.Bank, n.Code, q}, nil
		}))
	if err != nil {
		return t.fail(err)
	}
	return nil
}

func (t *tx) DeleteBudget(id string) error {
	if err := t.deleteByID("budgets", "budget", id); err != nil {
		return err
	}
	return t.exec(`DELETE FROM budget_versions WHERE budget_id = $1`, id)
}

// tagsArg is a record's tags as the column holds them: empty, not NULL,
// for none.
func tagsArg(tags []string) []string {
	if tags == nil {
		return []string{}
	}
	return tags
}
