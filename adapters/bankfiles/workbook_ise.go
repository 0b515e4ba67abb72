package bankfiles

import (
	"context"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// SheetInsumosNoCharges is the national workbook's sheet of insumo prices
// without social charges ("ISE", insumos sem encargos): the same layout as
// ISD and ICD (code, description, unit, a price per state), one price per
// state (without charges there is no regime). costdb keeps it, for labour
// insumos, as their price without charges (domain.BankResource.Base), the
// base own labour charges apply to (domain.LabourPrice). Its companion CSE
// (composições sem encargos) is not read: a composition's cost with own
// charges is computed from its items, never taken from a sheet.
const SheetInsumosNoCharges = "ISE"

// readNoCharges reads the ISE sheet when the workbook has it (nil, nil
// when not), checking its reference month against the other sheets'.
func (wf *WorkbookFile) readNoCharges(ctx context.Context, month *monthClaim, progress func(string, int64, int64)) (*wbPrices, *SheetSummary, error) {
	if _, ok := wf.sheets[SheetInsumosNoCharges]; !ok {
		return nil, nil, nil
	}
	r, err := wf.readPrices(ctx, SheetInsumosNoCharges, true, month, progress)
	if err != nil {
		return nil, nil, err
	}
	sum := r.sum(SheetInsumosNoCharges, nil)
	return r.prices, &sum, nil
}

// withBase sets, on the labour resources of a state's edition, their price
// without charges in that state from the ISE sheet, where it has one.
func withBase(ed Edition, state string, p *wbPrices) Edition {
	if p == nil {
		return ed
	}
	i := indexOf(p.states, state)
	if i < 0 {
		return ed
	}
	for _, r := range ed.Resources {
		if r.Type != domain.TypeLabor {
			continue
		}
		if it := p.byCode[r.Code]; it != nil && it.has[i] {
			r.Base = decimal.NewNullDecimal(decimal.New(it.price[i], -SinapiPlaces))
		}
	}
	return ed
}
