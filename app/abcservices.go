package app

import (
	"context"

	"github.com/costdb/costdb/domain"
)

// ABCServicesReport returns the ABC curve of the services of a budget of
// the caller's company: its lines ranked by their totals with BDI, the same
// service in several stages grouped (domain.ServicesABC). Limits as
// ABCReport. The synthetic report it ranks is streamed over the budget's
// tree in one read transaction (only the distinct services are held); a
// frozen version is ranked from the version.
func (s *Service) ABCServicesReport(ctx context.Context, p domain.Principal, id string, limits domain.ABCLimits) (*domain.ABCReport, error) {
	if limits.IsZero() {
		limits = domain.DefaultABCLimits()
	}
	if err := limits.Validate(); err != nil {
		return nil, err
	}
	whole := func(bp *domain.BudgetPricer, b *domain.Budget) (*domain.ABCReport, error) {
		syn, err := bp.Synthetic(b)
		if err != nil {
			return nil, err
		}
		return domain.ServicesABC(syn, limits)
	}
	return answerable(streamedReport(ctx, s, p, id,
		func(ctx context.Context, p domain.Principal, id string) (*domain.ABCReport, error) {
			return report(ctx, s, p, id, whole)
		},
		func(bp *domain.BudgetPricer, b *domain.Budget, walk domain.NodeWalk) (*domain.ABCReport, error) {
			syn, err := bp.SyntheticStream(b, walk)
			if err != nil {
				return nil, err
			}
			return domain.ServicesABC(syn, limits)
		}))
}
