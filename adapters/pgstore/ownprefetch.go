package pgstore

import (
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

// queueOwnResources queues on b the reads of the own resources that the
// items of the compositions sub selects (a subquery of (company_id, id),
// over args) name.
func queueOwnResources(b *pgx.Batch, sub string, args []any) *queuedResources {
	return queueResources(b, sel{
		where: `(r.company_id, r.code) IN (SELECT x.company_id, x.code FROM composition_items x
			WHERE (x.company_id, x.composition_id) IN ` + sub + ` AND x.bank = '` + domain.BankMyBase + `' AND x.kind = '` + string(domain.KindResource) + `')`,
		args: args,
	})
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
