package pgstore

import (
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Own resources read ahead (issue 29, item 4). Pricing a composition reads
// each own resource its items name (ResourceByCode, through the domain's
// PriceSource): a round trip each. A composition read by its ID or its
// code therefore reads, in the same round trip, the own resources its items
// name, and the transaction keeps them: ResourceByCode answers a copy from
// there, or ENOTFOUND for a code that names none. It is the same snapshot,
// so the answer is exactly the one the statement would give; a write of
// the transaction (anything but a composition's put, which changes no
// resource) drops what was read ahead (canWrite).

// ownKey is a resource's company and code.
type ownKey struct{ company, code string }

// compositionsOwn is compositions, reading ahead the own resources.
func (t *tx) compositionsOwn(s sel) ([]*domain.Composition, error) {
	return t.compositionsWith(s, true)
}

// ownResourceCols is resourceCols on the alias o (the composition is r in
// the read-ahead's statement, as in the selection it is given).
var ownResourceCols = strings.ReplaceAll(resourceCols, "r.", "o.")

// queueOwnResources queues on b the read of the own resources that the
// items of the compositions s selects (a condition on r, a composition)
// name, with their prices. s has no order or limit (a composition read by
// its id or its code; compositionsWith reads ahead for no other).
//
// It is one statement of plain joins, a row for each own resource item
// (the resource's prices are in its row: migration 0018): composition, its
// items (by their primary key), the resource (by company and code). It
// used to be two statements, the resources and their prices, each
// selecting the items' codes with nested IN subqueries (the prices' nested
// twice): the database spent 70–230 µs more CPU per rendered GET on them
// (docs/performance.md, issue 29: the rendered GET on PostgreSQL); then
// one statement that also joined the prices' own table, a row per price.
func queueOwnResources(b *pgx.Batch, s sel) *queuedResources {
	q := &queuedResources{out: []*domain.Resource{}, byID: map[string]*domain.Resource{}}
	batchRows(b, `SELECT `+ownResourceCols+`
		FROM compositions r
		JOIN composition_items x ON x.company_id = r.company_id AND x.composition_id = r.id
		JOIN resources o ON o.company_id = x.company_id AND o.code = x.code
		WHERE (`+s.where+`) AND x.bank = '`+domain.BankMyBase+`' AND x.kind = '`+string(domain.KindResource)+`'`, s.args,
		func(rows pgx.Rows) error {
			v, err := scanResource(rows, &q.d)
			if err != nil {
				return err
			}
			// A resource named by several items comes on several rows:
			// the first is kept.
			if q.byID[v.ID] == nil {
				q.out = append(q.out, v)
				q.byID[v.ID] = v
			}
			return nil
		})
	return q
}

// keepOwnResources keeps the own resources read with the compositions cs:
// each own resource item's code, with its resource or nil when there is
// none.
func (t *tx) keepOwnResources(cs []*domain.Composition, q *queuedResources) {
	if q.d.err != nil {
		return
	}
	if t.own == nil {
		t.own = map[ownKey]*domain.Resource{}
	}
	for _, r := range q.out {
		t.own[ownKey{r.CompanyID, r.Code}] = r
	}
	for _, c := range cs {
		for _, code := range c.OwnResourceCodes() {
			if _, ok := t.own[ownKey{c.CompanyID, code}]; !ok {
				t.own[ownKey{c.CompanyID, code}] = nil
			}
		}
	}
}

// prefetchedResource answers ResourceByCode from what was read ahead: ok
// says whether it could.
func (t *tx) prefetchedResource(companyID, code string) (*domain.Resource, bool, error) {
	if t.own == nil || t.done {
		return nil, false, nil
	}
	r, ok := t.own[ownKey{companyID, code}]
	if !ok {
		return nil, false, nil
	}
	if r == nil {
		return nil, true, notFound("resource %s not found", code)
	}
	return r.Clone(), true, nil
}

var _ app.ResourcePrefetcher = (*tx)(nil)

// PrefetchResources is app.ResourcePrefetcher: the company's resources with
// the codes, read in one round trip and kept as those read with a
// composition are (a code that names none is kept as none).
func (t *tx) PrefetchResources(companyID string, codes []string) error {
	var want []string
	for _, c := range codes {
		if _, ok := t.own[ownKey{companyID, c}]; !ok {
			want = append(want, c)
		}
	}
	if len(want) == 0 || t.done {
		return nil
	}
	if err := t.writeHeld(); err != nil {
		return err
	}
	b := &pgx.Batch{}
	q := queueResources(b, byWhere(`r.company_id = $1 AND r.code = ANY($2)`, companyID, want))
	if err := t.send(b); err != nil {
		return err
	}
	if q.d.err != nil {
		return q.d.err
	}
	if t.own == nil {
		t.own = map[ownKey]*domain.Resource{}
	}
	for _, c := range want {
		t.own[ownKey{companyID, c}] = nil
	}
	for _, r := range q.out {
		t.own[ownKey{r.CompanyID, r.Code}] = r
	}
	return nil
}
