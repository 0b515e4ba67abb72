package app

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
)

// Reference banks' labour charges tables (encargos sociais): imported by
// the CLI like editions (shared reference data, no company), read by any
// company to decide its own charges (docs/labour-charges.md).

// ChargesQuery picks labour charges tables of a bank: State (a UF), Month
// (MM/YYYY) and Regime ("desonerado" or "nao-desonerado"), each optional.
type ChargesQuery struct {
	Bank, State, Month, Regime string
}

func chargesTx(tx Tx) (ChargesTx, error) {
	c, ok := Optional[ChargesTx](tx)
	if !ok {
		return nil, domain.Errorf(domain.EINTERNAL, "this store keeps no labour charges tables")
	}
	return c, nil
}

// PutChargesTables stores the tables in one transaction, each replacing
// the table of its key; a bad table (domain.ChargesTable.Validate) writes
// nothing.
func (s *Service) PutChargesTables(ctx context.Context, tables []*domain.ChargesTable) error {
	var v domain.Validation
	for i, t := range tables {
		if err := v.Merge("/tables/"+strconv.Itoa(i)+"/", t.Validate()); err != nil {
			return err
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		c, err := chargesTx(tx)
		if err != nil {
			return err
		}
		for _, t := range tables {
			if err := c.PutChargesTable(t); err != nil {
				return err
			}
		}
		return nil
	})
}

// ChargesTables returns the bank's tables q picks, in state, month and
// regime order (não desonerado first) (an empty list when none). EINVALID, naming every bad
// field, for a state that is not a UF, a month not MM/YYYY or an unknown
// regime.
func (s *Service) ChargesTables(ctx context.Context, q ChargesQuery) ([]*domain.ChargesTable, error) {
	bank := domain.NormalizeBank(q.Bank)
	state := strings.ToUpper(strings.TrimSpace(q.State))
	month := strings.TrimSpace(q.Month)
	var v domain.Validation
	if state != "" && !domain.ValidState(state) {
		v.Add("/state", "is not a state code")
	}
	if month != "" && !domain.ValidMonth(month) {
		v.Add("/month", "must be a month as MM/YYYY")
	}
	regime := -1
	switch strings.ToLower(strings.TrimSpace(q.Regime)) {
	case "":
	case domain.Desonerado.String():
		regime = int(domain.Desonerado)
	case domain.NaoDesonerado.String():
		regime = int(domain.NaoDesonerado)
	default:
		v.Add("/regime", "must be %s or %s", domain.Desonerado, domain.NaoDesonerado)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	out := []*domain.ChargesTable{}
	err := s.store.View(ctx, func(tx Tx) error {
		c, err := chargesTx(tx)
		if err != nil {
			return err
		}
		all, err := c.ChargesTables(bank)
		if err != nil {
			return err
		}
		for _, t := range all {
			if (state == "" || t.State == state) && (month == "" || t.Month == month) && (regime < 0 || int(t.Regime) == regime) {
				out = append(out, t)
			}
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { // the keys order regimes by name: não desonerado first
		a, b := out[i], out[j]
		switch {
		case a.State != b.State:
			return a.State < b.State
		case a.Month != b.Month: // MM/YYYY, chronologically
			return a.Month[3:]+a.Month[:2] < b.Month[3:]+b.Month[:2]
		}
		return a.Regime < b.Regime
	})
	return out, err
}
