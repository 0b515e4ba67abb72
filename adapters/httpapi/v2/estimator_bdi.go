package v2

import (
	"encoding/json"
	"net/http"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/shopspring/decimal"
)

// A budget's BDI as TCU checks it (docs/budgets.md, "BDI as TCU checks
// it") is the JSON:API type "budget-bdis", one per budget, id the budget's,
// at …/budgets/{id}/bdi: GET reads it with its check against the reference
// ranges, PATCH changes its work type, components, differentiated BDI and
// supply lines (what the body does not name stays).

// bdiPartsDoc is domain.BDIParts in percent.
type bdiPartsDoc struct {
	AC    json.Number `json:"ac"`
	S     json.Number `json:"s"`
	R     json.Number `json:"r"`
	G     json.Number `json:"g"`
	DF    json.Number `json:"df"`
	L     json.Number `json:"l"`
	Taxes json.Number `json:"taxes"`
	CPRB  json.Number `json:"cprb"`
}

func partsDoc(p *domain.BDIParts) *bdiPartsDoc {
	if p == nil {
		return nil
	}
	n := httpapi.Num
	return &bdiPartsDoc{AC: n(p.AC), S: n(p.S), R: n(p.R), G: n(p.G), DF: n(p.DF), L: n(p.L), Taxes: n(p.Taxes), CPRB: n(p.CPRB)}
}

// bdiPartsIn is a request's components by name (domain.IsBDIPart; a null
// one counts as left out). Other members are not read: readBDIPatch names
// them.
type bdiPartsIn struct {
	given map[string]*number
}

// UnmarshalJSON implements json.Unmarshaler.
func (p *bdiPartsIn) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	p.given = map[string]*number{}
	for name, r := range raw {
		if !domain.IsBDIPart(name) {
			continue
		}
		var n *number
		if err := json.Unmarshal(r, &n); err != nil {
			return err
		}
		p.given[name] = n
	}
	return nil
}

// NumberErrors implements httpapi.NumberErrorer: the bad figures, named by
// their parts, in the parts' order.
func (p *bdiPartsIn) NumberErrors(ptr string) []domain.FieldError {
	var out []domain.FieldError
	for _, name := range domain.BDIPartNames() {
		if n := p.given[name]; n != nil {
			out = append(out, httpapi.NumberErrors(*n, ptr+"/"+name)...)
		}
	}
	return out
}

// parts returns the components (domain.BDIPartsOf), naming from ptr the
// required ones left out.
func (p *bdiPartsIn) parts(ptr string, v *domain.Validation) *domain.BDIParts {
	return domain.BDIPartsOf(ptr, func(name string) (decimal.Decimal, bool) {
		n := p.given[name]
		if n == nil {
			return decimal.Decimal{}, false
		}
		return n.D, true
	}, v)
}

// bdiRangeDoc is a TCU reference range with the confidence of each figure.
type bdiRangeDoc struct {
	Q1         json.Number `json:"q1"`
	Average    json.Number `json:"average"`
	Q3         json.Number `json:"q3"`
	Confidence [3]string   `json:"confidence"`
}

// bdiCheckRowDoc is one checked figure.
type bdiCheckRowDoc struct {
	Name    string      `json:"name"`
	Value   json.Number `json:"value"`
	Range   bdiRangeDoc `json:"range"`
	Status  string      `json:"status"`
	Flagged bool        `json:"flagged"`
}

// bdiCheckDoc is a BDI checked against a type of work's ranges.
type bdiCheckDoc struct {
	WorkType       string           `json:"work_type"`
	WorkTypeName   string           `json:"work_type_name"`
	Source         string           `json:"source"`
	BDI            json.Number      `json:"bdi"`
	BDIExact       json.Number      `json:"bdi_exact"`
	BDIWithoutCPRB json.Number      `json:"bdi_without_cprb"`
	Flagged        int              `json:"flagged"`
	Rows           []bdiCheckRowDoc `json:"rows"`
}

func checkDoc(ref *domain.BDIReference, c *domain.BDICheck) *bdiCheckDoc {
	if c == nil {
		return nil
	}
	d := &bdiCheckDoc{WorkType: c.WorkType.ID, WorkTypeName: c.WorkType.Name, Source: ref.Source,
		BDI: httpapi.Money(c.Rate), BDIExact: httpapi.Num(c.Exact), BDIWithoutCPRB: httpapi.Money(c.RateWithoutCPRB),
		Flagged: c.Flagged, Rows: make([]bdiCheckRowDoc, len(c.Rows))}
	for i, r := range c.Rows {
		d.Rows[i] = bdiCheckRowDoc{Name: r.Name, Value: httpapi.Num(r.Value), Status: string(r.Status), Flagged: r.Flagged,
			Range: bdiRangeDoc{Q1: httpapi.Money(r.Range.Q1), Average: httpapi.Money(r.Range.Average), Q3: httpapi.Money(r.Range.Q3),
				Confidence: [3]string{string(r.Range.Confidence[0]), string(r.Range.Confidence[1]), string(r.Range.Confidence[2])}}}
	}
	return d
}

// bdiDoc is a budget's BDI as v2 writes it.
type bdiDoc struct {
	ID                  string       `jsonapi:"primary,budget-bdis"`
	WorkType            *string      `jsonapi:"attr,work_type"`
	Desonerado          bool         `jsonapi:"attr,desonerado"`
	BDI                 json.Number  `jsonapi:"attr,bdi"`
	BDIComponents       *bdiPartsDoc `jsonapi:"attr,bdi_components"`
	Check               *bdiCheckDoc `jsonapi:"attr,check"`
	SupplyBDI           json.Number  `jsonapi:"attr,supply_bdi"`
	SupplyBDIComponents *bdiPartsDoc `jsonapi:"attr,supply_bdi_components"`
	SupplyCheck         *bdiCheckDoc `jsonapi:"attr,supply_check"`
	SupplyLines         []string     `jsonapi:"attr,supply_lines"`
	Total               json.Number  `jsonapi:"attr,total"`
	BDIValue            json.Number  `jsonapi:"attr,bdi_value"`
	TotalWithBDI        json.Number  `jsonapi:"attr,total_with_bdi"`
}

func newBDIDoc(bb *app.BudgetBDI) *bdiDoc {
	b := bb.Budget.Budget
	d := &bdiDoc{ID: b.ID, WorkType: strOrNil(b.WorkType), Desonerado: b.Desonerado, BDI: httpapi.Num(b.BDI),
		BDIComponents: partsDoc(b.BDIParts), Check: checkDoc(bb.Reference, bb.Check),
		SupplyBDI: httpapi.Num(b.SupplyBDI), SupplyBDIComponents: partsDoc(b.SupplyBDIParts),
		SupplyCheck: checkDoc(bb.Reference, bb.SupplyCheck), SupplyLines: b.SupplyLines(),
		Total: httpapi.Money(bb.Budget.Totals.Total), BDIValue: httpapi.Money(bb.Budget.Totals.BDIValue),
		TotalWithBDI: httpapi.Money(bb.Budget.Totals.TotalWithBDI)}
	return d
}

// The attributes of a budget-bdis update.
var (
	aWorkType    = attr{app: "work_type", names: []string{"work_type"}, kind: "string"}
	aBDIParts    = attr{app: "bdi_components", names: []string{"bdi_components"}, kind: "object of numbers"}
	aSupplyParts = attr{app: "supply_bdi_components", names: []string{"supply_bdi_components"}, kind: "object of numbers"}
	aSupplyBDI   = attr{app: "supply_bdi", names: []string{"supply_bdi"}, kind: "number"}
	aSupplyLines = attr{app: "supply_lines", names: []string{"supply_lines"}, kind: "array of node ids"}
	bdiReadOnly  = []string{"desonerado", "bdi", "check", "supply_check", "total", "bdi_value", "total_with_bdi"}
)

// getBudgetBDI handles GET /budgets/{id}/bdi.
func (h *handlers) getBudgetBDI(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	bb, err := h.env.App.BudgetBDI(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeDoc(w, r, http.StatusOK, newBDIDoc(bb))
}

// updateBudgetBDI handles PATCH /budgets/{id}/bdi.
func (h *handlers) updateBudgetBDI(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	b := h.readAttrs(w, r, "budget-bdis", id)
	if b == nil {
		return
	}
	var missing domain.Validation
	pt := readBDIPatch(b, &missing)
	if err := b.finish(bdiReadOnly...); err != nil {
		h.writeError(w, r, err)
		return
	}
	bb, err := h.env.App.Rejecting(b.rejected).Rejecting(missing.Fields).UpdateBudgetBDI(r.Context(), principal(r), id, pt)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeDoc(w, r, http.StatusOK, newBDIDoc(bb))
}

// readBDIPatch reads the TCU BDI attributes of a budget-bdis update or a
// budget creation (work_type, bdi_components, supply_bdi_components,
// supply_bdi, supply_lines); missing collects the components left out.
func readBDIPatch(b *attrBody, missing *domain.Validation) app.BDIPatch {
	var pt app.BDIPatch
	pt.WorkType = read[string](b, aWorkType)
	if _, ok := b.attrs["bdi_components"]; ok {
		pt.SetParts = true
		if in := readNumbers[*bdiPartsIn](b, aBDIParts); in != nil && *in != nil {
			pt.Parts = (*in).parts("/bdi_components", missing)
		}
	}
	if _, ok := b.attrs["supply_bdi_components"]; ok {
		pt.SetSupplyParts = true
		if in := readNumbers[*bdiPartsIn](b, aSupplyParts); in != nil && *in != nil {
			pt.SupplyParts = (*in).parts("/supply_bdi_components", missing)
		}
	}
	for _, name := range []string{"bdi_components", "supply_bdi_components"} {
		var m map[string]json.RawMessage
		if json.Unmarshal(b.attrs[name], &m) == nil {
			for _, k := range sortedKeys(m) {
				if !domain.IsBDIPart(k) {
					b.wrong.Add(b.attrPointer(name)+"/"+k, "is not a BDI component: ac, s, r, g, df, l, taxes or cprb")
				}
			}
		}
	}
	pt.SupplyBDI = readNumber(b, aSupplyBDI)
	_, withParts := b.attrs["supply_bdi_components"]
	if _, withRate := b.attrs["supply_bdi"]; withRate && withParts {
		b.wrong.Add(b.attrPointer("supply_bdi"), "give supply_bdi (the rate) or supply_bdi_components (the rate from its parts), not both")
	}
	if lines := read[[]string](b, aSupplyLines); lines != nil {
		l := *lines
		if l == nil {
			l = []string{}
		}
		pt.SupplyLines = &l
	}
	return pt
}

// bdiTableDoc is the BDI table of a budget's reports: the rate and its
// components with their check, and the differentiated BDI of supply lines.
type bdiTableDoc struct {
	WorkType            *string      `json:"work_type"`
	BDI                 json.Number  `json:"bdi"`
	BDIComponents       *bdiPartsDoc `json:"bdi_components"`
	Check               *bdiCheckDoc `json:"check"`
	SupplyBDI           json.Number  `json:"supply_bdi"`
	SupplyBDIComponents *bdiPartsDoc `json:"supply_bdi_components"`
	SupplyCheck         *bdiCheckDoc `json:"supply_check"`
}

// bdiTableOf returns the BDI table of a budget, nil when the budget has
// neither components, a type of work nor a differentiated BDI.
func bdiTableOf(b *domain.Budget) *bdiTableDoc {
	if b.BDIParts == nil && b.WorkType == "" && b.SupplyBDI.IsZero() && b.SupplyBDIParts == nil {
		return nil
	}
	bb := app.CheckedBDI(b)
	return &bdiTableDoc{WorkType: strOrNil(b.WorkType), BDI: httpapi.Num(b.BDI), BDIComponents: partsDoc(b.BDIParts),
		Check: checkDoc(bb.Reference, bb.Check), SupplyBDI: httpapi.Num(b.SupplyBDI),
		SupplyBDIComponents: partsDoc(b.SupplyBDIParts), SupplyCheck: checkDoc(bb.Reference, bb.SupplyCheck)}
}
