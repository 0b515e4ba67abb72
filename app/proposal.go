package app

import (
	"context"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// ProposalInput asks for a proposal: a discount in percent, or a target
// total with BDI and the step of the discount searched for it (Places:
// 10^-Places percent). Exactly one of Discount and Target.
type ProposalInput struct {
	Discount decimal.NullDecimal
	Target   decimal.NullDecimal
	Places   int32
}

// Proposal returns the proposal of a budget of the caller's company (a
// frozen version with WithVersion) under a uniform discount
// (domain.NewProposal), or the one that comes closest to a target without
// exceeding it (domain.ProposalForTarget). The reference is the budget's
// synthetic report, priced in one read transaction.
func (s *Service) Proposal(ctx context.Context, p domain.Principal, id string, in ProposalInput) (*domain.Proposal, error) {
	var v domain.Validation
	switch {
	case in.Discount.Valid && in.Target.Valid:
		v.Add("/target", "give a discount or a target, not both")
	case !in.Discount.Valid && !in.Target.Valid:
		v.Add("/discount", "give a discount (percent) or a target (total with BDI)")
	case in.Discount.Valid:
		domain.CheckDiscount(&v, "/discount", in.Discount.Decimal)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	syn, err := report(ctx, s, p, id, (*domain.BudgetPricer).Synthetic)
	if err != nil {
		return nil, err
	}
	if in.Target.Valid {
		return answerable(domain.ProposalForTarget(syn, in.Target.Decimal, in.Places))
	}
	return answerable(domain.NewProposal(syn, in.Discount.Decimal))
}
