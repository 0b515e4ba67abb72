package app

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// A company's price index series (domain.IndexSeries, docs/readjustment.md)
// are company data: each company enters or imports the series its
// contracts name. They are kept in settings of the store, as the profile
// and the schedules: "company/<id>/index/<NAME>" holds a series as JSON
// (decimals as text), "company/<id>/indexes" the list of its names (the
// settings port reads keys, it does not list them).

func indexKey(companyID, name string) string {
	return companySettingPrefix + companyID + "/index/" + name
}
func indexListKey(companyID string) string { return companySettingPrefix + companyID + "/indexes" }

// IndexInput is a series as a request gives it: index numbers, or monthly
// variations in percent chained from Base (100 when zero) at the month
// before the first.
type IndexInput struct {
	Points     []domain.IndexPoint
	Variations bool
	Base       decimal.Decimal
}

func readIndexNames(tx Tx, companyID string) ([]string, error) {
	b, err := tx.Setting(indexListKey(companyID))
	if err != nil || len(b) == 0 {
		return nil, err
	}
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return nil, domain.Errorf(domain.EINTERNAL, "index list of company %s: %v", companyID, err)
	}
	return names, nil
}

func writeIndexNames(tx Tx, companyID string, names []string) error {
	sort.Strings(names)
	b, err := json.Marshal(names)
	if err != nil {
		return err
	}
	return tx.PutSetting(indexListKey(companyID), b)
}

func readIndex(tx Tx, companyID, name string) (*domain.IndexSeries, error) {
	b, err := tx.Setting(indexKey(companyID, name))
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, domain.Errorf(domain.ENOTFOUND, "the company has no index %s", name)
	}
	var s domain.IndexSeries
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, domain.Errorf(domain.EINTERNAL, "index %s: %v", name, err)
	}
	return &s, nil
}

// PutIndex writes a series of the caller's company under name, replacing
// the one it had; every bad month or value at once (422).
func (s *Service) PutIndex(ctx context.Context, p domain.Principal, name string, in IndexInput) (*domain.IndexSeries, error) {
	pts := in.Points
	if in.Variations {
		chained, err := domain.Chain(in.Points, in.Base)
		if err != nil {
			return nil, err
		}
		pts = chained
	}
	series, err := domain.NewIndexSeries(name, pts)
	if err != nil {
		return nil, err
	}
	series.UpdatedAt = s.now().UTC()
	err = s.store.Update(ctx, func(tx Tx) error {
		raw, err := json.Marshal(series)
		if err != nil {
			return err
		}
		if err := tx.PutSetting(indexKey(p.CompanyID, series.Name), raw); err != nil {
			return err
		}
		names, err := readIndexNames(tx, p.CompanyID)
		if err != nil {
			return err
		}
		for _, n := range names {
			if n == series.Name {
				return nil
			}
		}
		return writeIndexNames(tx, p.CompanyID, append(names, series.Name))
	})
	if err != nil {
		return nil, err
	}
	return series, nil
}

// Index returns a series of the caller's company (ENOTFOUND when none).
func (s *Service) Index(ctx context.Context, p domain.Principal, name string) (*domain.IndexSeries, error) {
	var out *domain.IndexSeries
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = readIndex(tx, p.CompanyID, domain.IndexName(name))
		return err
	})
	return out, err
}

// Indexes lists the series of the caller's company by name.
func (s *Service) Indexes(ctx context.Context, p domain.Principal) ([]*domain.IndexSeries, error) {
	var out []*domain.IndexSeries
	err := s.store.View(ctx, func(tx Tx) error {
		names, err := readIndexNames(tx, p.CompanyID)
		if err != nil {
			return err
		}
		for _, n := range names {
			sr, err := readIndex(tx, p.CompanyID, n)
			if err != nil {
				return err
			}
			out = append(out, sr)
		}
		return nil
	})
	return out, err
}

// DeleteIndex removes a series of the caller's company (ENOTFOUND when
// none).
func (s *Service) DeleteIndex(ctx context.Context, p domain.Principal, name string) error {
	name = domain.IndexName(name)
	return s.store.Update(ctx, func(tx Tx) error {
		if _, err := readIndex(tx, p.CompanyID, name); err != nil {
			return err
		}
		if err := tx.PutSetting(indexKey(p.CompanyID, name), nil); err != nil {
			return err
		}
		names, err := readIndexNames(tx, p.CompanyID)
		if err != nil {
			return err
		}
		kept := names[:0]
		for _, n := range names {
			if n != name {
				kept = append(kept, n)
			}
		}
		return writeIndexNames(tx, p.CompanyID, kept)
	})
}

// Readjust computes the readjustment statement of measured values by a
// series of the caller's company (domain.Readjust): ENOTFOUND when the
// company has no series of that name; every bad row and missing month at
// once (422).
func (s *Service) Readjust(ctx context.Context, p domain.Principal, index, baseMonth string, places int32, rows []domain.ReadjustInput) (*domain.ReadjustStatement, error) {
	series, err := s.Index(ctx, p, index)
	if err != nil {
		if domain.ErrorCode(err) == domain.ENOTFOUND {
			return nil, domain.FieldErrorf("/index", "the company has no index %s (PUT /indexes/%s first)", domain.IndexName(index), domain.IndexName(index))
		}
		return nil, err
	}
	return domain.Readjust(series, baseMonth, places, rows)
}
