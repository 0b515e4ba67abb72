package app

import (
	"context"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// BDIPatch changes a budget's BDI as TCU checks it (domain.BDIParts);
// what it does not name stays. Parts, when set and not nil, set the
// budget's BDI to the rate they give (rounded half up to 2 places of
// percent); set to nil they are dropped and the rate stays. SupplyParts
// likewise set the differentiated BDI of the supply lines; SupplyBDI sets
// that rate by hand (dropping stored supply parts that give another).
type BDIPatch struct {
	WorkType       *string
	Parts          *domain.BDIParts
	SetParts       bool
	SupplyParts    *domain.BDIParts
	SetSupplyParts bool
	SupplyBDI      *decimal.Decimal
	SupplyLines    *[]string
}

// BudgetBDI is a budget with its BDI checked against TCU's reference
// ranges: Check is nil unless the budget has both a work type and parts;
// SupplyCheck nil unless it has supply parts.
type BudgetBDI struct {
	Budget      *domain.PricedBudget
	Reference   *domain.BDIReference
	Check       *domain.BDICheck
	SupplyCheck *domain.BDICheck
}

func budgetBDI(pb *domain.PricedBudget) *BudgetBDI {
	out := CheckedBDI(pb.Budget)
	out.Budget = pb
	return out
}

// CheckedBDI checks a budget's BDI (for its reports); Budget is left nil.
func CheckedBDI(b *domain.Budget) *BudgetBDI {
	ref := domain.TCU2622()
	out := &BudgetBDI{Reference: ref}
	if wt, ok := ref.WorkType(b.WorkType); ok && b.BDIParts != nil {
		c := domain.CheckBDI(wt, *b.BDIParts)
		out.Check = &c
	}
	if b.SupplyBDIParts != nil {
		wt, _ := ref.WorkType(domain.BDIWorkTypeSupply)
		c := domain.CheckBDI(wt, *b.SupplyBDIParts)
		out.SupplyCheck = &c
	}
	return out
}

// BudgetBDI returns a budget of the caller's company with its BDI check.
func (s *Service) BudgetBDI(ctx context.Context, p domain.Principal, id string) (*BudgetBDI, error) {
	pb, err := s.Budget(ctx, p, id)
	if err != nil {
		return nil, err
	}
	return budgetBDI(pb), nil
}

// UpdateBudgetBDI changes a budget's work type, BDI parts, differentiated
// BDI and supply lines (BDIPatch), and returns the budget checked. EINVALID names each bad
// field: "/work_type" (not a TCU type of work), "/bdi_components/ac" …,
// "/supply_bdi_components/…", "/supply_bdi", "/supply_lines/0" (not a line
// of the budget, or named twice); CPRB on a budget that is not desonerado
// is refused ("/bdi_components/cprb"), as is a supply line without a
// differentiated BDI. Nothing changes on an error.
func (s *Service) UpdateBudgetBDI(ctx context.Context, p domain.Principal, id string, in BDIPatch) (*BudgetBDI, error) {
	var out *domain.PricedBudget
	err := s.store.Update(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, id)
		if err != nil {
			return err
		}
		if err := in.apply(b); err != nil {
			return err
		}
		b.UpdatedAt = s.now()
		out, err = saveBudget(tx, p, b)
		return err
	})
	if err != nil {
		return nil, err
	}
	return budgetBDI(out), nil
}

func (in BDIPatch) apply(b *domain.Budget) error {
	var v domain.Validation
	wt := b.WorkType
	if in.WorkType != nil {
		wt = strings.TrimSpace(*in.WorkType)
		if !domain.ValidWorkType(wt) {
			v.Add("/work_type", "must be %s", domain.WorkTypeList())
		}
	}
	checkParts := func(ptr string, pp *domain.BDIParts) {
		if pp == nil {
			return
		}
		_ = v.Merge("", pp.Validate(ptr))
		if pp.CPRB.IsPositive() && !b.Desonerado {
			v.Add(ptr+"/cprb", "must be 0: the budget is não desonerado, and CPRB enters the taxes only with desonerado prices")
		}
	}
	parts, supplyParts := b.BDIParts, b.SupplyBDIParts
	if in.SetParts {
		parts = in.Parts
		checkParts("/bdi_components", parts)
	}
	if in.SetSupplyParts {
		supplyParts = in.SupplyParts
		checkParts("/supply_bdi_components", supplyParts)
	}
	supply := b.SupplyBDI
	if in.SupplyBDI != nil {
		supply = *in.SupplyBDI
		switch {
		case supply.IsNegative():
			v.Add("/supply_bdi", "must not be negative")
		case supply.GreaterThanOrEqual(decimal.NewFromInt(1000)):
			v.Add("/supply_bdi", "must be less than 1000 (percent)")
		case !supply.Truncate(4).Equal(supply):
			v.Add("/supply_bdi", "has more than 4 decimal places")
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	switch {
	case in.SetSupplyParts && supplyParts != nil:
		if in.SupplyBDI != nil && !supply.Equal(supplyParts.Rate()) {
			v.Add("/supply_bdi", "is %s by its components; give the components or the rate, not both", supplyParts.Rate().StringFixed(2))
		}
		supply = supplyParts.Rate()
	case supplyParts != nil && !supply.Equal(supplyParts.Rate()):
		supplyParts = nil // a rate set by hand no longer comes from the parts
	}
	lines := b.SupplyNodes
	if in.SupplyLines != nil {
		lines = nil
		seen := map[string]bool{}
		for i, id := range *in.SupplyLines {
			ptr := "/supply_lines/" + strconv.Itoa(i)
			n, ok := b.Node(id)
			switch {
			case !ok:
				v.Add(ptr, "no node %s in this budget", id)
			case !n.Kind.IsLine():
				v.Add(ptr, "node %s is a stage; only a line takes the differentiated BDI", id)
			case seen[id]:
				v.Add(ptr, "node %s is named twice", id)
			}
			seen[id] = true
			lines = append(lines, id)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	b.WorkType, b.BDIParts, b.SupplyBDIParts = wt, parts, supplyParts
	if parts != nil {
		b.BDI = parts.Rate()
	}
	b.SupplyBDI, b.SupplyNodes = supply, lines
	return nil
}
