package app

import (
	"context"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// Bulk pricing: many items of the reference banks or of the company's own
// base priced in one read transaction, each answered with its figures or
// its own error. Every figure comes from the use cases that read one item
// (BankItem for a bank item, CompositionByCode for an own composition,
// ResourceByCode for an own resource): this file only picks the edition
// and collects the answers.

// MaxBulkPrices is how many items one bulk request may price.
const MaxBulkPrices = 1000

// PriceQuery names one item to price: a reference bank's (Bank, Code,
// State, Month "MM/YYYY" or "" for the newest edition held of that bank and
// state) or one of the company's own base (Bank domain.BankMyBase, Code,
// State). Kind "" is the composition where the code is both, as BankItem
// and v1 items resolve a code. Regime picks Price.
type PriceQuery struct {
	Bank, Code, State, Month string
	Kind                     domain.ItemKind
	Regime                   domain.Regime
}

// Check returns the query normalized and checked: EINVALID naming /bank
// (none), /code (none), /state (not a UF; none for an own item), /month
// (not MM/YYYY, or given for an own item) and /kind. These are what the
// request says, found without reading the store.
func (q PriceQuery) Check() (PriceQuery, error) {
	q.Bank, q.Code = domain.NormalizeBank(q.Bank), strings.TrimSpace(q.Code)
	q.State, q.Month = strings.ToUpper(strings.TrimSpace(q.State)), strings.TrimSpace(q.Month)
	var v domain.Validation
	if q.Bank == "" {
		v.Add("/bank", "is required")
	}
	if q.Code == "" {
		v.Add("/code", "is required")
	}
	switch {
	case q.State != "" && !domain.ValidState(q.State):
		v.Add("/state", "is not a state code")
	case q.State == "" && q.Bank == domain.BankMyBase:
		v.Add("/state", "is required for an item of the own base")
	}
	switch {
	case q.Month != "" && q.Bank == domain.BankMyBase:
		v.Add("/month", "must not be given for an item of the own base")
	case q.Month != "" && !domain.ValidMonth(q.Month):
		v.Add("/month", "must be a month as MM/YYYY")
	}
	if q.Kind != "" && q.Kind != domain.KindResource && q.Kind != domain.KindComposition {
		v.Add("/kind", "must be resource or composition")
	}
	if q.Regime != domain.NaoDesonerado && q.Regime != domain.Desonerado {
		v.Add("/desonerado", "is not a regime")
	}
	return q, v.Err()
}

// BulkPrice is the answer to one PriceQuery: Err, or exactly one of Bank
// (a bank item as BankItem gives it, without its structure), Composition
// (an own composition priced as CompositionByCode prices it) and Resource
// (an own resource, with its prices in Query.State).
type BulkPrice struct {
	Query       PriceQuery // normalized
	Bank        *BankItem
	Composition *domain.PricedComposition
	Resource    *domain.Resource
	Err         error
}

// Description is the item's description.
func (b *BulkPrice) Description() string {
	switch {
	case b.Bank != nil:
		return b.Bank.Description
	case b.Composition != nil:
		return b.Composition.Description
	case b.Resource != nil:
		return b.Resource.Description
	}
	return ""
}

// Unit is the item's unit.
func (b *BulkPrice) Unit() string {
	switch {
	case b.Bank != nil:
		return b.Bank.Unit
	case b.Composition != nil:
		return b.Composition.Unit
	case b.Resource != nil:
		return b.Resource.Unit
	}
	return ""
}

// Kind is what the item turned out to be.
func (b *BulkPrice) Kind() domain.ItemKind {
	switch {
	case b.Bank != nil:
		return b.Bank.Kind
	case b.Composition != nil:
		return domain.KindComposition
	case b.Resource != nil:
		return domain.KindResource
	}
	return b.Query.Kind
}

// Price is the item's unit price in the query's regime (a resource's
// productive price, a composition's unit cost), as the single reads show
// it; false when there is none in that regime (shown as null, never 0).
func (b *BulkPrice) Price() (decimal.Decimal, bool) {
	g := b.Query.Regime
	switch {
	case b.Bank != nil:
		return b.Bank.Prices.Productive(g), !b.Bank.Unpriced[g]
	case b.Composition != nil:
		pr := &b.Composition.Prices
		return domain.UnitPrice{PND: pr.PND, PD: pr.PD}.In(g), !pr.Unpriced[g]
	case b.Resource != nil:
		return b.Resource.Locals[b.Query.State].Productive(g), true
	}
	return decimal.Decimal{}, false
}

// CheckPriceQueries checks every query (PriceQuery.Check) and the count:
// the queries normalized, or EINVALID naming every bad member of every
// query ("/3/state": the query's index, then its member), and "" for none
// or more than MaxBulkPrices.
func CheckPriceQueries(qs []PriceQuery) ([]PriceQuery, error) {
	var v domain.Validation
	switch {
	case len(qs) == 0:
		v.Add("", "must name at least one item")
	case len(qs) > MaxBulkPrices:
		v.Add("", "names %d items; at most %d are priced in one request", len(qs), MaxBulkPrices)
	}
	out := make([]PriceQuery, len(qs))
	for i, q := range qs {
		var err error
		out[i], err = q.Check()
		_ = v.Merge("/"+strconv.Itoa(i), err)
	}
	return out, v.Err()
}

// PriceItems prices every query, in order, in one read transaction, so that
// the answers are consistent with one another. A request that
// CheckPriceQueries refuses is refused whole (EINVALID), nothing read. A
// query's own problem found in the store (an edition or code not held, a
// bank held for several states and no state named, an own code of no
// record of the caller's company, an own resource without a price in the
// state) is its BulkPrice.Err, its field pointers relative to the query
// ("/state"); the error returned is then only the store's.
func (s *Service) PriceItems(ctx context.Context, p domain.Principal, qs []PriceQuery) ([]BulkPrice, error) {
	qs, err := CheckPriceQueries(qs)
	if err != nil {
		return nil, err
	}
	out := make([]BulkPrice, len(qs))
	err = s.store.View(ctx, func(tx Tx) error {
		eds := map[BankViewQuery]editionPick{}
		for i, q := range qs {
			b := &out[i]
			b.Query = q
			var err error
			if q.Bank == domain.BankMyBase {
				err = ownPrice(tx, p, b)
			} else {
				err = bankPrice(tx, eds, b)
			}
			if err != nil && !itemError(err) {
				return err // the store's: the request fails
			}
			b.Err = err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// editionPick is the edition a BankViewQuery picks, or why none.
type editionPick struct {
	ed  *domain.Edition
	err error
}

// bankPrice reads a bank item: the edition as the v1 bank views pick it
// (viewEdition: the newest of the state when no month is given), then the
// item as BankItem reads it. eds remembers the editions picked.
func bankPrice(tx Tx, eds map[BankViewQuery]editionPick, b *BulkPrice) error {
	q := b.Query
	vq := BankViewQuery{Bank: q.Bank, State: q.State, Version: q.Month}
	pick, ok := eds[vq]
	if !ok {
		pick.ed, pick.err = viewEdition(tx, vq)
		eds[vq] = pick
	}
	if pick.err != nil {
		return pick.err // its month and state were checked: not held, or several states
	}
	it, err := bankItemIn(tx, pick.ed, q.Code, q.Kind, false)
	if err != nil {
		return err
	}
	b.Bank = it
	b.Query.State, b.Query.Month = pick.ed.State, pick.ed.Month
	return nil
}

// ownPrice reads an item of the caller's own base: the composition with the
// code in the state, priced as CompositionByCode prices it, else (or, with
// kind resource, only) the resource with the code and its prices in the
// state.
func ownPrice(tx Tx, p domain.Principal, b *BulkPrice) error {
	q := b.Query
	if q.Kind != domain.KindResource {
		pc, err := compositionByCode(tx, p, q.Code, q.State)
		switch {
		case err == nil:
			b.Composition = pc
			return nil
		case !isNotFound(err):
			return err
		case q.Kind == domain.KindComposition:
			return domain.Errorf(domain.ENOTFOUND, "no own composition %s exists in %s", q.Code, q.State)
		}
	}
	r, err := tx.ResourceByCode(p.CompanyID, q.Code)
	switch {
	case isNotFound(err) && q.Kind == domain.KindResource:
		return domain.Errorf(domain.ENOTFOUND, "no own resource %s exists", q.Code)
	case isNotFound(err):
		return domain.Errorf(domain.ENOTFOUND, "no own composition %s exists in %s, nor an own resource %s", q.Code, q.State, q.Code)
	case err != nil:
		return err
	}
	if _, ok := r.Locals[q.State]; !ok {
		return domain.FieldErrorf("/state", "resource %s has no price for %s", q.Code, q.State)
	}
	b.Resource = r
	return nil
}

// itemError reports whether err is an item's own problem (what it names is
// not held, or is named badly), not the store's.
func itemError(err error) bool {
	switch domain.ErrorCode(err) {
	case domain.ENOTFOUND, domain.EINVALID:
		return true
	}
	return false
}
