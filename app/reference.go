package app

import (
	"context"
	"sort"
	"strings"

	"github.com/costdb/costdb/domain"
)

// ReferenceQuery asks for a reference-bank resource by code across the
// imported editions. Bank and Version, when given, keep only the editions of
// that bank and month; State, when given, is the caller's state: its
// editions are tried first, then the others.
type ReferenceQuery struct {
	Code    string
	State   string
	Bank    string
	Version string
}

// ReferenceResource returns the resource with the code in the best imported
// edition that has it: the caller's state first, then the newest month, then
// bank, state and region in key order. Returns EINVALID for a missing code
// (/code), a state that is not a UF (/state) or a version not MM/YYYY
// (/version); ENOTFOUND when no edition has the code.
func (s *Service) ReferenceResource(ctx context.Context, q ReferenceQuery) (*BankItem, error) {
	q.Code = strings.TrimSpace(q.Code)
	q.State = strings.ToUpper(strings.TrimSpace(q.State))
	q.Bank = domain.NormalizeBank(q.Bank)
	q.Version = strings.TrimSpace(q.Version)
	var v domain.Validation
	if q.Code == "" {
		v.Add("/code", "is required")
	}
	if q.State != "" && !domain.ValidState(q.State) {
		v.Add("/state", "is not a state code")
	}
	if q.Version != "" && !domain.ValidMonth(q.Version) {
		v.Add("/version", "must be a month as MM/YYYY")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var out *BankItem
	err := s.store.View(ctx, func(tx Tx) error {
		all, err := tx.Editions()
		if err != nil {
			return err
		}
		eds := make([]*domain.Edition, 0, len(all))
		for _, e := range all {
			if (q.Bank == "" || e.Bank == q.Bank) && (q.Version == "" || e.Month == q.Version) {
				eds = append(eds, e)
			}
		}
		sort.SliceStable(eds, func(i, j int) bool {
			a, b := eds[i], eds[j]
			if ai, bi := a.State == q.State, b.State == q.State; ai != bi {
				return ai
			}
			if ma, mb := yearMonth(a.Month), yearMonth(b.Month); ma != mb {
				return ma > mb
			}
			return a.Key() < b.Key()
		})
		for _, e := range eds {
			r, err := tx.BankResource(e.Key(), q.Code)
			if isNotFound(err) {
				continue
			}
			if err != nil {
				return err
			}
			out = resourceItem(e.Ref(), r)
			return nil
		}
		return domain.Errorf(domain.ENOTFOUND, "no imported bank edition has a resource with the code %q", q.Code)
	})
	return out, err
}
