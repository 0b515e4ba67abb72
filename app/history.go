package app

import (
	"context"
	"strings"

	"github.com/costdb/costdb/domain"
)

// HistoryQuery names a bank item and where its prices are read.
type HistoryQuery struct {
	Bank, State, Code string
	Kind              domain.ItemKind // "" : a composition when some edition has one, else a resource
	Regime            domain.Regime
}

// Check returns the query normalized (bank and state in upper case, code
// without surrounding spaces) and checked: EINVALID naming /bank (none, or
// MYBASE: only a reference bank has editions), /location (not a state) and
// /kind (neither composition nor resource).
func (q HistoryQuery) Check() (HistoryQuery, error) {
	q.Bank, q.State, q.Code = domain.NormalizeBank(q.Bank), strings.ToUpper(strings.TrimSpace(q.State)), strings.TrimSpace(q.Code)
	var v domain.Validation
	if q.Bank == "" || q.Bank == domain.BankMyBase {
		v.Add("/bank", "must name a reference bank (SINAPI, SICRO3…)")
	}
	if !domain.ValidState(q.State) {
		v.Add("/location", "is not a state code")
	}
	if q.Kind != "" && q.Kind != domain.KindComposition && q.Kind != domain.KindResource {
		v.Add("/kind", "must be composition or resource")
	}
	return q, v.Err()
}

// PriceHistory returns a bank item's prices in a state and regime across
// every imported edition of the bank in that state that has the item,
// oldest first (domain.PriceHistory). EINVALID for a bad bank, state or
// kind; ENOTFOUND when no edition has the item.
func (s *Service) PriceHistory(ctx context.Context, q HistoryQuery) (*domain.PriceHistory, error) {
	q, err := q.Check()
	if err != nil {
		return nil, err
	}
	var out *domain.PriceHistory
	err = s.store.View(ctx, func(tx Tx) error {
		eds, err := tx.Editions()
		if err != nil {
			return err
		}
		var mine []*domain.Edition
		for _, e := range eds {
			if e.Bank == q.Bank && e.State == q.State {
				mine = append(mine, e)
			}
		}
		kinds := []domain.ItemKind{q.Kind}
		if q.Kind == "" {
			kinds = []domain.ItemKind{domain.KindComposition, domain.KindResource}
		}
		for _, k := range kinds {
			h := &domain.PriceHistory{Bank: q.Bank, State: q.State, Code: q.Code, Kind: k, Regime: q.Regime}
			latest := ""
			for _, e := range mine {
				p := domain.PricePoint{Month: e.Month, Region: e.Region}
				var desc, unit string
				switch k {
				case domain.KindComposition:
					c, err := tx.BankComposition(e.Key(), q.Code)
					if isNotFound(err) {
						continue
					} else if err != nil {
						return err
					}
					p.Price, p.Priced, desc, unit = c.Cost.In(q.Regime), c.Priced(q.Regime) && hasRegimeOf(e, q.Regime), c.Description, c.Unit
				default:
					r, err := tx.BankResource(e.Key(), q.Code)
					if isNotFound(err) {
						continue
					} else if err != nil {
						return err
					}
					p.Price, p.Priced, desc, unit = r.Prices.Productive(q.Regime), r.Priced(q.Regime) && hasRegimeOf(e, q.Regime), r.Description, r.Unit
				}
				if !p.Priced {
					p.Price = domain.Dec("0")
				}
				if mo := domain.MonthOrder(e.Month); mo >= latest {
					latest, h.Description, h.Unit = mo, desc, unit
				}
				h.Points = append(h.Points, p)
			}
			if len(h.Points) > 0 {
				h.SortPoints()
				out = h
				return nil
			}
		}
		return domain.Errorf(domain.ENOTFOUND, "no edition of %s %s has the item %s", q.Bank, q.State, q.Code)
	})
	return out, err
}

// hasRegimeOf reports whether the edition imported prices of regime g.
func hasRegimeOf(e *domain.Edition, g domain.Regime) bool {
	for _, r := range e.Regimes {
		if r == g {
			return true
		}
	}
	return false
}
