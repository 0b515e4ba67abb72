package v1

import (
	"net/http"

	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// GET /bud/budgets/{id}/bdi: the budget's BDI as TCU checks it (v2's
// budget-bdis, docs/budgets.md), money and rates as decimal strings as v1
// writes them.

type bdiPartsV1 struct {
	AC    string `json:"ac"`
	S     string `json:"s"`
	R     string `json:"r"`
	G     string `json:"g"`
	DF    string `json:"df"`
	L     string `json:"l"`
	Taxes string `json:"taxes"`
	CPRB  string `json:"cprb"`
}

type bdiRowV1 struct {
	Name       string    `json:"name"`
	Value      string    `json:"value"`
	Q1         string    `json:"q1"`
	Average    string    `json:"average"`
	Q3         string    `json:"q3"`
	Confidence [3]string `json:"confidence"`
	Status     string    `json:"status"`
	Flagged    bool      `json:"flagged"`
}

type bdiCheckV1 struct {
	WorkType       string     `json:"work_type"`
	BDI            string     `json:"bdi"`
	BDIWithoutCPRB string     `json:"bdi_without_cprb"`
	Flagged        int        `json:"flagged"`
	Rows           []bdiRowV1 `json:"rows"`
}

type budgetBDIV1 struct {
	WorkType            *string     `json:"work_type"`
	Desonerado          bool        `json:"desonerado"`
	BDI                 string      `json:"bdi"`
	BDIComponents       *bdiPartsV1 `json:"bdi_components"`
	Check               *bdiCheckV1 `json:"check"`
	SupplyBDI           string      `json:"supply_bdi"`
	SupplyBDIComponents *bdiPartsV1 `json:"supply_bdi_components"`
	SupplyCheck         *bdiCheckV1 `json:"supply_check"`
	SupplyLines         []string    `json:"supply_lines"`
}

func partsV1(p *domain.BDIParts) *bdiPartsV1 {
	if p == nil {
		return nil
	}
	return &bdiPartsV1{AC: p.AC.String(), S: p.S.String(), R: p.R.String(), G: p.G.String(), DF: p.DF.String(),
		L: p.L.String(), Taxes: p.Taxes.String(), CPRB: p.CPRB.String()}
}

func checkV1(c *domain.BDICheck) *bdiCheckV1 {
	if c == nil {
		return nil
	}
	out := &bdiCheckV1{WorkType: c.WorkType.ID, BDI: c.Rate.StringFixed(2), BDIWithoutCPRB: c.RateWithoutCPRB.StringFixed(2), Flagged: c.Flagged}
	for _, r := range c.Rows {
		out.Rows = append(out.Rows, bdiRowV1{Name: r.Name, Value: r.Value.String(), Q1: r.Range.Q1.StringFixed(2),
			Average: r.Range.Average.StringFixed(2), Q3: r.Range.Q3.StringFixed(2), Status: string(r.Status), Flagged: r.Flagged,
			Confidence: [3]string{string(r.Range.Confidence[0]), string(r.Range.Confidence[1]), string(r.Range.Confidence[2])}})
	}
	return out
}

// getBudgetBDI handles GET /bud/budgets/{id}/bdi.
func (h *handler) getBudgetBDI(w http.ResponseWriter, r *http.Request) {
	bb, err := h.env.App.BudgetBDI(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	b := bb.Budget.Budget
	out := budgetBDIV1{Desonerado: b.Desonerado, BDI: b.BDI.String(), BDIComponents: partsV1(b.BDIParts), Check: checkV1(bb.Check),
		SupplyBDI: b.SupplyBDI.String(), SupplyBDIComponents: partsV1(b.SupplyBDIParts), SupplyCheck: checkV1(bb.SupplyCheck),
		SupplyLines: b.SupplyLines()}
	if b.WorkType != "" {
		out.WorkType = &b.WorkType
	}
	h.write(w, http.StatusOK, out)
}
