package app

import (
	"context"
	"sort"
	"strings"

	"github.com/costdb/costdb/domain"
)

// The read-only views of a reference bank that v1 serves under
// /base/{bank}/… in the shapes of the company's own base: its compositions
// (domain.BankCompositionView) and resources (BankResourceView) in one
// imported edition of the bank, picked by BankViewQuery.

// BankViewQuery picks the edition a view reads: Bank (any case), State (a
// UF; may be left out when the bank was imported for one state only),
// Version (MM/YYYY; default the newest edition of that state) and Region
// (default: the edition without a region, else the first by name).
type BankViewQuery struct {
	Bank, State, Version, Region string
}

// BankResourceView is a reference-bank resource shown as a resource of the
// company's base: ID is its code, Locals holds the edition's state only,
// Status is true; Unpriced says which regimes (by domain.Regime) the bank
// published no price in (shown as null, never 0).
type BankResourceView struct {
	*domain.Resource
	Edition  domain.BankRef
	Unpriced [2]bool
}

// viewEdition returns the edition q picks. EINVALID for a state that is not
// a UF or a version not MM/YYYY, and for a missing state when the bank has
// editions of several states (naming them); ENOTFOUND for a bank never
// imported (naming those that were), or no edition of that state, version
// or region.
func viewEdition(tx Tx, q BankViewQuery) (*domain.Edition, error) {
	bank := domain.NormalizeBank(q.Bank)
	state := strings.ToUpper(strings.TrimSpace(q.State))
	version, region := strings.TrimSpace(q.Version), strings.TrimSpace(q.Region)
	var v domain.Validation
	if state != "" && !domain.ValidState(state) {
		v.Add("/state", "is not a state code")
	}
	if version != "" && !domain.ValidMonth(version) {
		v.Add("/version", "must be a month as MM/YYYY")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	all, err := tx.Editions()
	if err != nil {
		return nil, err
	}
	var ofBank []*domain.Edition
	banks := map[string]bool{}
	states := map[string]bool{}
	for _, e := range all {
		banks[e.Bank] = true
		if e.Bank == bank {
			ofBank = append(ofBank, e)
			states[e.State] = true
		}
	}
	if len(ofBank) == 0 {
		return nil, domain.Errorf(domain.ENOTFOUND, "bank %s has not been imported (imported banks: %s)", bank, listOrNone(banks))
	}
	if state == "" {
		if len(states) > 1 {
			return nil, domain.FieldErrorf("/state", "is required: %s has editions for %s", bank, sortedKeys(states))
		}
		state = ofBank[0].State
	}
	var cands []*domain.Edition
	for _, e := range ofBank {
		if e.State == state && (version == "" || e.Month == version) && (region == "" || strings.EqualFold(e.Region, region)) {
			cands = append(cands, e)
		}
	}
	if len(cands) == 0 {
		what := bank + " " + state
		if version != "" {
			what += " " + version
		}
		if region != "" {
			what += " " + region
		}
		return nil, domain.Errorf(domain.ENOTFOUND, "edition %s has not been imported (%s is imported for %s)", what, bank, sortedKeys(states))
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if ma, mb := yearMonth(a.Month), yearMonth(b.Month); ma != mb {
			return ma > mb
		}
		return a.Key() < b.Key() // no region first, then by region
	})
	return cands[0], nil
}

func sortedKeys(m map[string]bool) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func listOrNone(m map[string]bool) string {
	if len(m) == 0 {
		return "none"
	}
	return sortedKeys(m)
}

// viewRounding is how a bank view cuts its lines: as a composition of the
// bank's model would (SICRO banks carry 4 places, the others 2).
func viewRounding(ed *domain.Edition) domain.RoundingMethod {
	return domain.DefaultRounding(isSicroBank(ed.Bank))
}

func compositionView(tx Tx, ed *domain.Edition, c *domain.BankComposition) (*domain.PricedComposition, error) {
	lines, err := structure(tx, ed.Key(), c.Items)
	if err != nil {
		return nil, err
	}
	items := make([]domain.PricedItem, len(lines))
	for i, l := range lines {
		items[i] = domain.PricedItem{
			Item:        domain.Item{Bank: ed.Bank, Code: l.Code, Kind: l.Kind, Quantity: l.Coefficient},
			Description: l.Description, Unit: l.Unit, Type: l.TypeText(), ResourceType: l.ResourceType,
			UnitPrice: l.UnitPrice, Missing: l.Missing, Unpriced: l.Unpriced,
		}
		if l.Missing {
			items[i].Reason = notInEdition(l.Kind, l.Code, ed)
		}
	}
	return domain.BankCompositionView(ed, c, items, viewRounding(ed)), nil
}

func notInEdition(kind domain.ItemKind, code string, ed *domain.Edition) string {
	return string(kind) + " " + code + " does not exist in " + ed.Ref().Label()
}

func resourceView(ed *domain.Edition, r *domain.BankResource, lacks [2]bool) *BankResourceView {
	return &BankResourceView{
		Resource: &domain.Resource{
			ID: r.Code, Code: r.Code, Description: r.Description, Type: r.Type, Unit: r.Unit,
			Locals: map[string]domain.PriceLine{ed.State: r.Prices}, Status: true, CreatedAt: ed.ImportedAt,
		},
		Edition: ed.Ref(), Unpriced: lacks,
	}
}

// viewItems lists the items of one kind of the edition q picks that match
// lq (the filters and sorts of BankItems), with the number that match.
func viewItems(tx Tx, q BankViewQuery, kind domain.ItemKind, lq ListQuery) (*domain.Edition, []*BankItem, int, error) {
	filters := map[string]string{"kind": string(kind)}
	for k, v := range lq.Filters {
		if k != "kind" {
			filters[k] = v
		}
	}
	lq.Filters = filters
	sel, err := compile(bankItemList, lq)
	if err != nil {
		return nil, nil, 0, err
	}
	ed, err := viewEdition(tx, q)
	if err != nil {
		return nil, nil, 0, err
	}
	all, err := editionItems(tx, ed)
	if err != nil {
		return nil, nil, 0, err
	}
	out, total := sel.apply(all)
	return ed, out, total, nil
}

// BankCompositionViews lists the compositions of the edition q picks, each
// with its published structure (domain.BankCompositionView), matching lq
// as BankItems does (search, code, description, unit; sorts), with the
// number that match.
func (s *Service) BankCompositionViews(ctx context.Context, q BankViewQuery, lq ListQuery) ([]*domain.PricedComposition, int, error) {
	var out []*domain.PricedComposition
	var total int
	err := s.store.View(ctx, func(tx Tx) error {
		ed, items, n, err := viewItems(tx, q, domain.KindComposition, lq)
		if err != nil {
			return err
		}
		out, total = make([]*domain.PricedComposition, 0, len(items)), n
		for _, it := range items {
			c, err := tx.BankComposition(ed.Key(), it.Code)
			if err != nil {
				return err
			}
			pc, err := compositionView(tx, ed, c)
			if err != nil {
				return err
			}
			out = append(out, pc)
		}
		return nil
	})
	return out, total, err
}

// BankCompositionView returns the composition with the code in the edition
// q picks (bankView).
func (s *Service) BankCompositionView(ctx context.Context, q BankViewQuery, code string) (*domain.PricedComposition, error) {
	return bankView(ctx, s, q, code, "composition", Tx.BankComposition, compositionView)
}

// bankView reads the record (a composition or resource: what) with the code
// in the edition q picks and makes its view. EINVALID for a missing code
// (/code) and a bad query; ENOTFOUND as viewEdition says, or when the
// edition has no record with the code.
func bankView[R, V any](ctx context.Context, s *Service, q BankViewQuery, code, what string,
	get func(tx Tx, editionKey, code string) (R, error), view func(Tx, *domain.Edition, R) (V, error)) (V, error) {
	var out V
	err := s.store.View(ctx, func(tx Tx) error {
		code = strings.TrimSpace(code)
		if code == "" {
			return domain.FieldErrorf("/code", "is required")
		}
		ed, err := viewEdition(tx, q)
		if err != nil {
			return err
		}
		rec, err := get(tx, ed.Key(), code)
		if isNotFound(err) {
			return domain.Errorf(domain.ENOTFOUND, "no %s %s exists in %s", what, code, editionName(ed.Ref()))
		}
		if err != nil {
			return err
		}
		out, err = view(tx, ed, rec)
		return err
	})
	return out, err
}

// BankResourceViews lists the resources of the edition q picks that match
// lq, as BankCompositionViews does.
func (s *Service) BankResourceViews(ctx context.Context, q BankViewQuery, lq ListQuery) ([]*BankResourceView, int, error) {
	var out []*BankResourceView
	var total int
	err := s.store.View(ctx, func(tx Tx) error {
		ed, items, n, err := viewItems(tx, q, domain.KindResource, lq)
		if err != nil {
			return err
		}
		out, total = make([]*BankResourceView, 0, len(items)), n
		for _, it := range items {
			out = append(out, resourceView(ed, &domain.BankResource{Code: it.Code, Description: it.Description,
				Unit: it.Unit, Type: it.ResourceType, Prices: it.Prices}, it.Unpriced))
		}
		return nil
	})
	return out, total, err
}

// BankResourceView returns the resource with the code in the edition q
// picks, as BankCompositionView does for compositions.
func (s *Service) BankResourceView(ctx context.Context, q BankViewQuery, code string) (*BankResourceView, error) {
	return bankView(ctx, s, q, code, "resource", Tx.BankResource,
		func(_ Tx, ed *domain.Edition, r *domain.BankResource) (*BankResourceView, error) {
			return resourceView(ed, r, unpriced(r.Priced)), nil
		})
}
