package pgstore

import (
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/domain"
)

// Bank rows are bulk-loaded. An import writes tens of thousands of them in
// one transaction, each after reading the one it replaces; sending each as
// its own INSERT would cost a round trip per row. So a write transaction
// keeps the bank rows it puts in a buffer, answers reads of them from it,
// and writes them with COPY (after deleting the rows they replace) before
// any statement that reads bank rows in bulk and before commit. Point reads
// of an edition that the transaction reads many times are served from one
// read of the whole edition.

// flushAt is how many buffered rows a transaction keeps before it writes
// them, so that a very large import does not hold them all in memory.
const flushAt = 20000

// loadAfter is how many point reads of one edition's rows a write
// transaction makes before it reads the whole edition at once.
const loadAfter = 64

type bankKey struct{ edition, code string }

type bankBuffer struct {
	resources    map[bankKey]*domain.BankResource
	resOrder     []bankKey
	compositions map[bankKey]*domain.BankComposition
	compOrder    []bankKey
	// reads counts point reads per edition; loaded holds the editions
	// read whole (what the database had before this transaction's puts).
	resReads, compReads map[string]int
	resLoaded           map[string]map[string]*domain.BankResource
	compsLoaded         map[string]map[string]*domain.BankComposition
}

// loadedOnly keeps the editions read whole to the one named: an import
// goes edition by edition, and the maps of the editions it left would keep
// every record put into them until commit (123 MB of compositions in a
// national import). A dropped edition is read from the database again,
// which holds what this transaction flushed.
func (b *bankBuffer) loadedOnly(editionKey string) {
	for k := range b.resLoaded {
		if k != editionKey {
			delete(b.resLoaded, k)
			delete(b.resReads, k)
		}
	}
	for k := range b.compsLoaded {
		if k != editionKey {
			delete(b.compsLoaded, k)
			delete(b.compReads, k)
		}
	}
}

func newBankBuffer() *bankBuffer {
	return &bankBuffer{
		resources: map[bankKey]*domain.BankResource{}, compositions: map[bankKey]*domain.BankComposition{},
		resReads: map[string]int{}, compReads: map[string]int{},
		resLoaded: map[string]map[string]*domain.BankResource{}, compsLoaded: map[string]map[string]*domain.BankComposition{},
	}
}

func copyBankComposition(c *domain.BankComposition) *domain.BankComposition {
	v := *c
	if c.Items != nil {
		v.Items = slices.Clone(c.Items)
	}
	if c.Regimes != nil {
		v.Regimes = slices.Clone(c.Regimes)
	}
	return &v
}

func copyBankResource(r *domain.BankResource) *domain.BankResource {
	v := *r
	if r.Regimes != nil {
		v.Regimes = slices.Clone(r.Regimes)
	}
	return &v
}

// toRegimes and fromRegimes keep nil (NULL: every regime) apart from empty.
func toRegimes(rs []domain.Regime) []int32 {
	if rs == nil {
		return nil
	}
	out := make([]int32, len(rs))
	for i, g := range rs {
		out[i] = int32(g)
	}
	return out
}

func fromRegimes(rs []int32) []domain.Regime {
	if rs == nil {
		return nil
	}
	out := make([]domain.Regime, len(rs))
	for i, g := range rs {
		out[i] = domain.Regime(g)
	}
	return out
}

func (t *tx) BankResource(editionKey, code string) (*domain.BankResource, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if b := t.bank; b != nil {
		k := bankKey{editionKey, code}
		if v, ok := b.resources[k]; ok {
			return copyBankResource(v), nil
		}
		if m, ok := b.resLoaded[editionKey]; ok {
			if v, ok := m[code]; ok {
				return copyBankResource(v), nil
			}
			return nil, notFound("resource %s not found in edition %s", code, editionKey)
		}
		if b.resReads[editionKey]++; b.resReads[editionKey] > loadAfter {
			all, err := t.bankResources(`edition_key = $1`, editionKey)
			if err != nil {
				return nil, err
			}
			m := make(map[string]*domain.BankResource, len(all))
			for _, v := range all {
				m[v.Code] = v
			}
			b.loadedOnly(editionKey)
			b.resLoaded[editionKey] = m
			return t.BankResource(editionKey, code)
		}
	}
	rs, err := t.bankResources(`edition_key = $1 AND code = $2`, editionKey, code)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, notFound("resource %s not found in edition %s", code, editionKey)
	}
	return rs[0], nil
}

func (t *tx) bankResources(where string, args ...any) ([]*domain.BankResource, error) {
	out := []*domain.BankResource{}
	var d decoder
	err := t.query(`SELECT code, description, unit, type, pnd::text, pd::text, pndi::text, pdi::text, regimes, base::text FROM bank_resources
		WHERE `+where+` ORDER BY code`, args, func(r pgx.Rows) error {
		var v domain.BankResource
		var pnd, pd, pndi, pdi string
		var base *string
		var regimes []int32
		if err := r.Scan(&v.Code, &v.Description, &v.Unit, &v.Type, &pnd, &pd, &pndi, &pdi, &regimes, &base); err != nil {
			return err
		}
		if base != nil {
			v.Base = decimal.NewNullDecimal(d.dec(*base))
		}
		v.Regimes = fromRegimes(regimes)
		v.Prices = domain.PriceLine{PND: d.dec(pnd), PD: d.dec(pd), PNDI: d.dec(pndi), PDI: d.dec(pdi)}
		out = append(out, &v)
		return nil
	})
	if err == nil {
		err = d.err
	}
	return out, err
}

func (t *tx) PutBankResource(editionKey string, v *domain.BankResource) error {
	if err := checkPut(t, "bank resource", v, func(v *domain.BankResource) []string { return []string{"edition key", editionKey, "code", v.Code} }); err != nil {
		return err
	}
	return buffer(t, t.bank.resources, &t.bank.resOrder, bankKey{editionKey, v.Code}, copyBankResource(v))
}

// buffer puts x under k in the bank write buffer m (order: its keys in the
// order first put) and flushes the buffer once it holds flushAt records.
func buffer[T any](t *tx, m map[bankKey]T, order *[]bankKey, k bankKey, x T) error {
	if _, ok := m[k]; !ok {
		*order = append(*order, k)
	}
	m[k] = x
	if len(*order) >= flushAt {
		return t.flush()
	}
	return nil
}

// editionRecords reads, with read where (a condition on the edition key,
// $1), every record of an edition, once the write buffer is flushed.
func editionRecords[T any](t *tx, editionKey string, read func(where string, args ...any) ([]T, error), where string) ([]T, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if editionKey == "" {
		return []T{}, nil
	}
	if err := t.flush(); err != nil {
		return nil, err
	}
	return read(where, editionKey)
}

func (t *tx) BankResources(editionKey string) ([]*domain.BankResource, error) {
	return editionRecords(t, editionKey, t.bankResources, `edition_key = $1`)
}

func (t *tx) BankComposition(editionKey, code string) (*domain.BankComposition, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if b := t.bank; b != nil {
		k := bankKey{editionKey, code}
		if v, ok := b.compositions[k]; ok {
			return copyBankComposition(v), nil
		}
		if m, ok := b.compsLoaded[editionKey]; ok {
			if v, ok := m[code]; ok {
				return copyBankComposition(v), nil
			}
			return nil, notFound("composition %s not found in edition %s", code, editionKey)
		}
		if b.compReads[editionKey]++; b.compReads[editionKey] > loadAfter {
			all, err := t.bankCompositions(`r.edition_key = $1`, editionKey)
			if err != nil {
				return nil, err
			}
			m := make(map[string]*domain.BankComposition, len(all))
			for _, v := range all {
				m[v.Code] = v
			}
			b.loadedOnly(editionKey)
			b.compsLoaded[editionKey] = m
			return t.BankComposition(editionKey, code)
		}
	}
	cs, err := t.bankCompositions(`r.edition_key = $1 AND r.code = $2`, editionKey, code)
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, notFound("composition %s not found in edition %s", code, editionKey)
	}
	return cs[0], nil
}

// bankCompositions loads the bank compositions the condition (on r) selects,
// in code order, with their structures (the arrays of their row).
func (t *tx) bankCompositions(where string, args ...any) ([]*domain.BankComposition, error) {
	out := []*domain.BankComposition{}
	var d decoder
	err := t.query(`SELECT r.code, r.description, r.unit, r.class, r.cost_pnd::text, r.cost_pd::text, r.has_items, r.regimes,
		r.item_kinds, r.item_codes, r.item_coefs::text[]
		FROM bank_compositions r WHERE `+where+` ORDER BY r.code`, args, func(rows pgx.Rows) error {
		var c domain.BankComposition
		var pnd, pd string
		var hasItems bool
		var regimes []int32
		var kinds, codes, coefs []string
		if err := rows.Scan(&c.Code, &c.Description, &c.Unit, &c.Class, &pnd, &pd, &hasItems, &regimes, &kinds, &codes, &coefs); err != nil {
			return err
		}
		c.Regimes = fromRegimes(regimes)
		c.Cost = domain.UnitPrice{PND: d.dec(pnd), PD: d.dec(pd)}
		if hasItems {
			if len(kinds) != len(codes) || len(kinds) != len(coefs) {
				return fmt.Errorf("pgstore: bank composition %s: %d kinds, %d codes, %d coefficients", c.Code, len(kinds), len(codes), len(coefs))
			}
			c.Items = make([]domain.StructureItem, len(kinds))
			for i := range kinds {
				c.Items[i] = domain.StructureItem{Kind: domain.ItemKind(kinds[i]), Code: codes[i], Coefficient: d.dec(coefs[i])}
			}
		}
		out = append(out, &c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, d.err
}

func (t *tx) PutBankComposition(editionKey string, c *domain.BankComposition) error {
	if err := checkPut(t, "bank composition", c, func(c *domain.BankComposition) []string { return []string{"edition key", editionKey, "code", c.Code} }); err != nil {
		return err
	}
	return buffer(t, t.bank.compositions, &t.bank.compOrder, bankKey{editionKey, c.Code}, copyBankComposition(c))
}

func (t *tx) BankCompositions(editionKey string) ([]*domain.BankComposition, error) {
	return editionRecords(t, editionKey, t.bankCompositions, `r.edition_key = $1`)
}

// byEdition groups buffered keys by edition, keeping their order.
func byEdition(keys []bankKey) (editions []string, codes map[string][]string) {
	codes = map[string][]string{}
	for _, k := range keys {
		if _, ok := codes[k.edition]; !ok {
			editions = append(editions, k.edition)
		}
		codes[k.edition] = append(codes[k.edition], k.code)
	}
	return editions, codes
}

// flush writes the buffered bank rows: the rows they replace are deleted,
// then the new ones are copied in with COPY.
func (t *tx) flush() error {
	if err := t.writeTerms(); err != nil { // listterms.go
		return err
	}
	b := t.bank
	if b == nil || (len(b.resOrder) == 0 && len(b.compOrder) == 0) {
		return nil
	}
	if len(b.resOrder) > 0 {
		eds, codes := byEdition(b.resOrder)
		for _, e := range eds {
			if err := t.exec(`DELETE FROM bank_resources WHERE edition_key = $1 AND code = ANY($2)`, e, codes[e]); err != nil {
				return err
			}
		}
		keys := b.resOrder
		_, err := t.ptx.CopyFrom(t.ctx, pgx.Identifier{"bank_resources"},
			[]string{"edition_key", "code", "description", "unit", "type", "pnd", "pd", "pndi", "pdi", "regimes", "base", "words"},
			pgx.CopyFromSlice(len(keys), func(i int) ([]any, error) {
				v := b.resources[keys[i]]
				p := v.Prices
				return []any{keys[i].edition, v.Code, v.Description, v.Unit, int32(v.Type), num(p.PND), num(p.PD), num(p.PNDI), num(p.PDI),
					toRegimes(v.Regimes), optNum(v.Base), searchWords(v.Description)}, nil
			}))
		if err != nil {
			return t.fail(err)
		}
		for _, k := range keys {
			if m, ok := b.resLoaded[k.edition]; ok {
				m[k.code] = b.resources[k]
			}
		}
		b.resources, b.resOrder = map[bankKey]*domain.BankResource{}, nil
	}
	if len(b.compOrder) > 0 {
		eds, codes := byEdition(b.compOrder)
		for _, e := range eds {
			if err := t.exec(`DELETE FROM bank_compositions WHERE edition_key = $1 AND code = ANY($2)`, e, codes[e]); err != nil {
				return err
			}
		}
		keys := b.compOrder
		_, err := t.ptx.CopyFrom(t.ctx, pgx.Identifier{"bank_compositions"},
			[]string{"edition_key", "code", "description", "unit", "class", "cost_pnd", "cost_pd", "has_items", "regimes",
				"item_kinds", "item_codes", "item_coefs", "words"},
			pgx.CopyFromSlice(len(keys), func(i int) ([]any, error) {
				c := b.compositions[keys[i]]
				// The structure's arrays are made row by row, as COPY
				// asks for them: never all at once.
				var kinds, codes []string
				var coefs []pgtype.Numeric
				if len(c.Items) > 0 {
					kinds, codes, coefs = make([]string, len(c.Items)), make([]string, len(c.Items)), make([]pgtype.Numeric, len(c.Items))
					for j, it := range c.Items {
						kinds[j], codes[j], coefs[j] = string(it.Kind), it.Code, num(it.Coefficient)
					}
				}
				return []any{keys[i].edition, c.Code, c.Description, c.Unit, c.Class, num(c.Cost.PND), num(c.Cost.PD), c.Items != nil,
					toRegimes(c.Regimes), kinds, codes, coefs, searchWords(c.Description)}, nil
			}))
		if err != nil {
			return t.fail(err)
		}
		for _, k := range keys {
			if m, ok := b.compsLoaded[k.edition]; ok {
				m[k.code] = b.compositions[k]
			}
		}
		b.compositions, b.compOrder = map[bankKey]*domain.BankComposition{}, nil
	}
	return nil
}

func (t *tx) DeleteBankRecords(editionKey string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if err := checkParts("edition", "key", editionKey); err != nil {
		return err
	}
	// The rows this transaction put and not yet wrote go too; what it puts
	// next goes into an edition now known to be empty.
	b := t.bank
	keep := func(keys []bankKey) []bankKey {
		out := keys[:0]
		for _, k := range keys {
			if k.edition != editionKey {
				out = append(out, k)
			}
		}
		return out
	}
	for k := range b.resources {
		if k.edition == editionKey {
			delete(b.resources, k)
		}
	}
	for k := range b.compositions {
		if k.edition == editionKey {
			delete(b.compositions, k)
		}
	}
	b.resOrder, b.compOrder = keep(b.resOrder), keep(b.compOrder)
	b.loadedOnly(editionKey)
	b.resLoaded[editionKey] = map[string]*domain.BankResource{}
	b.compsLoaded[editionKey] = map[string]*domain.BankComposition{}
	if err := t.exec(`DELETE FROM bank_resources WHERE edition_key = $1`, editionKey); err != nil {
		return err
	}
	return t.exec(`DELETE FROM bank_compositions WHERE edition_key = $1`, editionKey)
}
