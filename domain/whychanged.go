package domain

import (
	"github.com/shopspring/decimal"
)

// Why a budget's total changed (docs/why-changed.md): the difference of
// the total with BDI between two pricings of a budget (two frozen
// versions, or the budget and its re-pricing) split into causes that add
// up to it exactly, to the centavo.
//
// The split is a sequential decomposition: starting from the budget
// before, one factor at a time is changed to its value after, in the
// fixed order of CauseOrder, and each cause is what its step changed.
// Every step values a line by the budget's own rule (its unit price with
// BDI and total cut as the budget cuts), so a line's steps add up exactly
// to its change and every cause is in centavos. What is left, the
// Rounding cause, always listed, is the part of the difference no line
// makes: on a budget with its BDI on the final total, the footer's BDI cut
// on the sum.

// CauseKind names a cause of a change.
type CauseKind string

// The causes, in the order they are attributed (CauseOrder).
const (
	// CauseLinesRemoved: lines of the budget before that the budget after
	// does not have (a line whose bank or code changed is removed and
	// added), at their whole value before.
	CauseLinesRemoved CauseKind = "lines_removed"
	// CauseLinesAdded: lines only after, at their whole value after.
	CauseLinesAdded CauseKind = "lines_added"
	// CauseLinesLacking: lines in both that one side cannot price: priced
	// before and lacking after (their value before, negative), or lacking
	// before and priced after (their value after).
	CauseLinesLacking CauseKind = "lines_lacking"
	// CauseQuantity: quantity changes, at the unit prices and BDI before.
	CauseQuantity CauseKind = "quantity"
	// CauseRegime: the regime change (desonerado / não desonerado), the
	// editions before priced in the regime after.
	CauseRegime CauseKind = "regime"
	// CauseResourcePrice: unit price changes of resources, one cause per
	// resource class (Cause.Class): resource lines, and the resources of
	// bank compositions whose structure both sides hold, at the
	// coefficients before.
	CauseResourcePrice CauseKind = "resource_price"
	// CauseCompositionPrice: changes of composition costs not broken into
	// resources: lines of compositions whose structure a side lacks (or
	// own compositions), auxiliary compositions inside a structure, and
	// the part of a published cost its structure does not explain.
	CauseCompositionPrice CauseKind = "composition_price"
	// CauseCoefficients: coefficient changes (items added, removed or
	// with another coefficient) in bank compositions whose structure both
	// sides hold, at the prices after.
	CauseCoefficients CauseKind = "coefficients"
	// CauseBDI: the BDI change (rate or supply rate), at the values after.
	CauseBDI CauseKind = "bdi"
	// CauseRounding: the real difference less the sum of the other causes
	// (each rounded half up to centavos): the budget's cuts to centavos.
	CauseRounding CauseKind = "rounding"
)

// CauseOrder is the order of attribution and of the listing.
var CauseOrder = []CauseKind{CauseLinesRemoved, CauseLinesAdded, CauseLinesLacking, CauseQuantity, CauseRegime,
	CauseResourcePrice, CauseCompositionPrice, CauseCoefficients, CauseBDI, CauseRounding}

// ClassComposition is the class of a composition item of a structure.
const ClassComposition = "composition"

// resourceClasses are the slugs of the resource classes (by resource
// type), listed in ResourceClassOrder.
var resourceClasses = map[int]string{
	TypeMaterial: "material", TypeLabor: "labour", TypeEquipment: "equipment",
	TypePermanentEquipment: "permanent_equipment", TypeServices: "services", TypeFees: "fees",
	TypeOthers: "others", TypeFranchise: "franchise", TypeAdministration: "administration",
	TypeRent: "rent", TypeAllowance: "allowance", TypeConsulting: "consulting",
	TypeTransport: "transport", TypeDirectBilling: "direct_billing",
}

// ResourceClassOrder is the order in which resource classes are changed
// (and listed): material, labour, equipment, then the other types.
var ResourceClassOrder = []int{TypeMaterial, TypeLabor, TypeEquipment, TypePermanentEquipment, TypeServices,
	TypeFees, TypeOthers, TypeFranchise, TypeAdministration, TypeRent, TypeAllowance, TypeConsulting,
	TypeTransport, TypeDirectBilling}

// ResourceClass is the class slug of a resource type ("others" for an
// unknown one).
func ResourceClass(t int) string {
	if c, ok := resourceClasses[t]; ok {
		return c
	}
	return resourceClasses[TypeOthers]
}

// classType is the resource type of a class slug (its name in
// ResourceTypes); 0 for none.
func classType(class string) int {
	for t, c := range resourceClasses {
		if c == class {
			return t
		}
	}
	return 0
}

// ClassName is the pt-BR name of a class ("Composição" for compositions).
func ClassName(class string) string {
	if class == ClassComposition {
		return "Composição"
	}
	return ResourceTypes[classType(class)]
}

// Cause is one part of a change.
type Cause struct {
	Kind CauseKind
	// Class is the resource class of a resource price cause; "" otherwise.
	Class string
	// Amount is the cause in R$, to the centavo: Exact rounded half up to
	// 2 places (for Rounding, the real difference less the others).
	Amount decimal.Decimal
	// Exact is the cause's exact value (every digit); for Rounding, the
	// real difference less the exact difference of the budget's value.
	Exact decimal.Decimal
	// Lines is how many lines the cause touches (a nonzero part).
	Lines int
}

// ChangeCauses is a change of a budget's total with BDI split into causes.
type ChangeCauses struct {
	Before, After *SyntheticReport
	// Total is the total with BDI before and after; Total.Diff is the
	// sum of the causes' Amounts, exactly.
	Total TotalDiff
	// Causes in CauseOrder; every kind is listed (zero when it did not
	// act), a resource price cause once per class that acted.
	Causes []Cause
	// Lines are the lines' parts, in the order of the lines (after's tree,
	// then those only before), each with its nonzero causes.
	Lines []LineCauses
}

// LineCauses is one line's exact parts of the change (before the cut to
// centavos, which is done on the causes' sums).
type LineCauses struct {
	NodeID, Number, Bank, Code, Description string
	Parts                                   []LinePart
}

// LinePart is a line's exact part of one cause.
type LinePart struct {
	Kind  CauseKind
	Class string
	Exact decimal.Decimal
}

// Sum returns the sum of the causes' amounts.
func (c *ChangeCauses) Sum() decimal.Decimal {
	s := decimal.Zero
	for _, x := range c.Causes {
		s = s.Add(x.Amount)
	}
	return s
}

// Cause returns the amount of the cause kind (and class), zero when not
// listed.
func (c *ChangeCauses) Cause(kind CauseKind, class string) decimal.Decimal {
	for _, x := range c.Causes {
		if x.Kind == kind && x.Class == class {
			return x.Amount
		}
	}
	return decimal.Zero
}

// ExplainChange splits the change of the total with BDI from budget a
// priced by pa to budget b priced by pb (the same node ids naming the
// same lines, as versions and re-pricings keep them; pa and pb may be one
// pricer) into causes (docs/why-changed.md).
func ExplainChange(a *Budget, pa *BudgetPricer, b *Budget, pb *BudgetPricer) (*ChangeCauses, error) {
	repA, err := pa.Synthetic(a)
	if err != nil {
		return nil, err
	}
	repB, err := pb.Synthetic(b)
	if err != nil {
		return nil, err
	}
	// R: the budget before priced in the regime after (its editions).
	repR, budR := repA, a
	if a.Desonerado != b.Desonerado {
		budR = a.Clone()
		budR.Desonerado = b.Desonerado
		if repR, err = pa.Synthetic(budR); err != nil {
			return nil, err
		}
	}
	e := &explainer{a: a, b: b, pa: pa, pb: pb, budR: budR, sums: map[causeKey]*Cause{}}
	rowsA, rowsR := lineRows(repA), lineRows(repR)
	seen := map[string]bool{}
	for i := range repB.Rows {
		rb := &repB.Rows[i]
		if !rb.Kind.IsLine() {
			continue
		}
		seen[rb.NodeID] = true
		ra := rowsA[rb.NodeID]
		if err := e.line(ra, rowsR[rb.NodeID], rb); err != nil {
			return nil, err
		}
	}
	for i := range repA.Rows {
		if ra := &repA.Rows[i]; ra.Kind.IsLine() && !seen[ra.NodeID] {
			if err := e.line(ra, nil, nil); err != nil {
				return nil, err
			}
		}
	}
	out := &ChangeCauses{Before: repA, After: repB, Total: diffOf(repA.TotalWithBDI, repB.TotalWithBDI), Lines: e.lines}
	exact, sum := decimal.Zero, decimal.Zero
	for _, k := range CauseOrder {
		if k == CauseRounding {
			continue
		}
		var keys []causeKey
		if k == CauseResourcePrice {
			for _, t := range ResourceClassOrder {
				if key := (causeKey{k, ResourceClass(t)}); e.sums[key] != nil {
					keys = append(keys, key)
				}
			}
		} else {
			keys = []causeKey{{kind: k}}
		}
		for _, key := range keys {
			c := e.sums[key]
			if c == nil {
				c = &Cause{Kind: k}
			}
			c.Amount = RoundHalfUp(c.Exact, 2)
			exact, sum = exact.Add(c.Exact), sum.Add(c.Amount)
			out.Causes = append(out.Causes, *c)
		}
	}
	out.Causes = append(out.Causes, Cause{Kind: CauseRounding, Amount: out.Total.Diff.Sub(sum), Exact: out.Total.Diff.Sub(exact)})
	return out, nil
}

type causeKey struct {
	kind  CauseKind
	class string
}

// explainer accumulates the parts of the lines.
type explainer struct {
	a, b   *Budget
	pa, pb *BudgetPricer
	budR   *Budget
	sums   map[causeKey]*Cause
	lines  []LineCauses
	cur    *LineCauses
}

func lineRows(r *SyntheticReport) map[string]*SyntheticRow {
	m := make(map[string]*SyntheticRow, len(r.Rows))
	for i := range r.Rows {
		if r.Rows[i].Kind.IsLine() {
			m[r.Rows[i].NodeID] = &r.Rows[i]
		}
	}
	return m
}

// add adds a line's exact part to a cause (nothing for zero).
func (e *explainer) add(kind CauseKind, class string, v decimal.Decimal) {
	if v.IsZero() {
		return
	}
	key := causeKey{kind, class}
	c := e.sums[key]
	if c == nil {
		c = &Cause{Kind: kind, Class: class}
		e.sums[key] = c
	}
	c.Exact = c.Exact.Add(v)
	c.Lines++
	e.cur.Parts = append(e.cur.Parts, LinePart{Kind: kind, Class: class, Exact: v})
}

// value is a row's value with BDI as its report has it (zero for a line
// without a price).
func value(r *SyntheticRow) decimal.Decimal {
	if r.Missing {
		return decimal.Zero
	}
	return r.TotalWithBDI
}

// lineValue is the value with BDI of the quantity q of a line at the unit
// price u by the budget's rule (BDIRule.Line, or LineSupply for a supply
// line), each cut as the budget cuts: the one rule a line is priced by,
// so that the steps of a line add up to its change exactly.
func lineValue(b *Budget, supply bool, u, q decimal.Decimal) decimal.Decimal {
	r := b.BDIRule()
	if supply {
		return r.LineSupply(u, q).TotalWithBDI
	}
	return r.Line(u, q).TotalWithBDI
}

// line attributes the change of one line: ra before, rr before in the
// regime after, rb after (ra or rb nil when the line is on one side only).
// A line on both sides goes from its value before to its value after one
// factor at a time, each step valued by the budget's rule (lineValue):
// the quantity, the regime, its unit price's parts (splitUnit), then the
// BDI; each cause is the difference its step made.
func (e *explainer) line(ra, rr, rb *SyntheticRow) error {
	shown := rb
	if shown == nil {
		shown = ra
	}
	e.lines = append(e.lines, LineCauses{NodeID: shown.NodeID, Number: shown.Number, Bank: shown.Bank, Code: shown.Code, Description: shown.Description})
	e.cur = &e.lines[len(e.lines)-1]
	if ra != nil && rb != nil && (ra.Kind != rb.Kind || ra.Bank != rb.Bank || ra.Code != rb.Code) {
		// Another line under the same id: removed and added.
		e.add(CauseLinesRemoved, "", value(ra).Neg())
		e.add(CauseLinesAdded, "", value(rb))
		return nil
	}
	switch {
	case rb == nil:
		e.add(CauseLinesRemoved, "", value(ra).Neg())
		return nil
	case ra == nil:
		e.add(CauseLinesAdded, "", value(rb))
		return nil
	case ra.Missing || rb.Missing:
		e.add(CauseLinesLacking, "", value(rb).Sub(value(ra)))
		return nil
	}
	qA, qB := ra.Quantity, rb.Quantity
	uA, uB := ra.UnitPrice, rb.UnitPrice
	uR := uA // the regime changes nothing when the line has no price in the other one
	if rr != nil && !rr.Missing {
		uR = rr.UnitPrice
	}
	prev := lineValue(e.a, ra.Supply, uA, qA)
	step := func(kind CauseKind, class string, next decimal.Decimal) {
		e.add(kind, class, next.Sub(prev))
		prev = next
	}
	step(CauseQuantity, "", lineValue(e.a, ra.Supply, uA, qB))
	step(CauseRegime, "", lineValue(e.a, ra.Supply, uR, qB))
	if delta := uB.Sub(uR); !delta.IsZero() {
		parts, err := e.splitUnit(ra, rb, uR, delta)
		if err != nil {
			return err
		}
		u := uR
		for _, p := range parts {
			u = u.Add(p.Exact)
			step(p.Kind, p.Class, lineValue(e.a, ra.Supply, u, qB))
		}
	}
	step(CauseBDI, "", lineValue(e.b, rb.Supply, uB, qB))
	return nil
}

// splitUnit splits the change delta of a line's unit price (from uR, the
// price before in the regime after, to the price after) into its causes
// (parts adding up to delta exactly).
func (e *explainer) splitUnit(ra, rb *SyntheticRow, uR, delta decimal.Decimal) ([]LinePart, error) {
	nA, okA := e.budR.Node(ra.NodeID)
	nB, okB := e.b.Node(rb.NodeID)
	if !okA || !okB {
		return []LinePart{{Kind: CauseCompositionPrice, Exact: delta}}, nil
	}
	liA, err := e.pa.line(e.budR, nA)
	if err != nil {
		return nil, err
	}
	liB, err := e.pb.line(e.b, nB)
	if err != nil {
		return nil, err
	}
	if nB.Kind == NodeResource {
		t := liB.resourceType
		if t == 0 {
			t = liA.resourceType
		}
		return []LinePart{{Kind: CauseResourcePrice, Class: ResourceClass(t), Exact: delta}}, nil
	}
	if liA.bank == nil || liB.bank == nil || len(liA.bank.Items) == 0 || len(liB.bank.Items) == 0 {
		return []LinePart{{Kind: CauseCompositionPrice, Exact: delta}}, nil
	}
	parts, ok, err := e.splitStructure(liA, liB, e.b.Regime(), delta)
	if err != nil || !ok {
		return []LinePart{{Kind: CauseCompositionPrice, Exact: delta}}, err
	}
	return parts, nil
}

// structItem is one item of the union of two structures.
type structItem struct {
	kind           ItemKind
	code, class    string
	coefA, coefB   decimal.Decimal
	priceA, priceB decimal.Decimal
}

// splitStructure splits delta over the structures of a bank composition
// before (liA) and after (liB), in regime g: each item's total is cut as
// the bank cuts it (LineTotal, Truncate2: Caixa's Σ trunc₂(coefficient ×
// price)); the item prices are changed class by class (ResourceClassOrder,
// then auxiliary compositions) at the coefficients before, then the
// coefficients are changed; what the structures do not explain is a
// composition price part. ok is false when an item's record is missing on
// a side.
func (e *explainer) splitStructure(liA, liB *lineInfo, g Regime, delta decimal.Decimal) ([]LinePart, bool, error) {
	var items []*structItem
	idx := map[string]*structItem{}
	get := func(k ItemKind, code string) *structItem {
		key := string(k) + "\x00" + code
		if it := idx[key]; it != nil {
			return it
		}
		it := &structItem{kind: k, code: code}
		idx[key] = it
		items = append(items, it)
		return it
	}
	for _, s := range liB.bank.Items {
		it := get(s.Kind, s.Code)
		it.coefB = it.coefB.Add(s.Coefficient)
	}
	for _, s := range liA.bank.Items {
		it := get(s.Kind, s.Code)
		it.coefA = it.coefA.Add(s.Coefficient)
	}
	for _, it := range items {
		var ok bool
		var err error
		var tA, tB int
		if it.priceA, tA, ok, err = itemPrice(e.pa.src, liA.ref, it.kind, it.code, g); err != nil || !ok {
			return nil, false, err
		}
		if it.priceB, tB, ok, err = itemPrice(e.pb.src, liB.ref, it.kind, it.code, g); err != nil || !ok {
			return nil, false, err
		}
		if it.kind != KindResource {
			it.class = ClassComposition
		} else if tB != 0 {
			it.class = ResourceClass(tB)
		} else {
			it.class = ResourceClass(tA)
		}
	}
	sum := func(price func(*structItem) decimal.Decimal, coef func(*structItem) decimal.Decimal) decimal.Decimal {
		s := decimal.Zero
		for _, it := range items {
			s = s.Add(LineTotal(Truncate2, coef(it), price(it)))
		}
		return s
	}
	coefA := func(it *structItem) decimal.Decimal { return it.coefA }
	changed := map[string]bool{}
	priceNow := func(it *structItem) decimal.Decimal {
		if changed[it.class] {
			return it.priceB
		}
		return it.priceA
	}
	var parts []LinePart
	prev := sum(priceNow, coefA)
	recA := prev
	classes := make([]string, 0, len(ResourceClassOrder)+1)
	for _, t := range ResourceClassOrder {
		classes = append(classes, ResourceClass(t))
	}
	classes = append(classes, ClassComposition)
	for _, c := range classes {
		changed[c] = true
		now := sum(priceNow, coefA)
		if d := now.Sub(prev); !d.IsZero() {
			kind := CauseResourcePrice
			class := c
			if c == ClassComposition {
				kind, class = CauseCompositionPrice, ""
			}
			parts = append(parts, LinePart{Kind: kind, Class: class, Exact: d})
		}
		prev = now
	}
	recB := sum(func(it *structItem) decimal.Decimal { return it.priceB }, func(it *structItem) decimal.Decimal { return it.coefB })
	if d := recB.Sub(prev); !d.IsZero() {
		parts = append(parts, LinePart{Kind: CauseCoefficients, Exact: d})
	}
	if rest := delta.Sub(recB.Sub(recA)); !rest.IsZero() {
		parts = append(parts, LinePart{Kind: CauseCompositionPrice, Exact: rest})
	}
	return parts, true, nil
}

// itemPrice is the price in regime g of an item of a bank structure, and
// its resource type (0 for a composition); ok false when the record is
// not in the edition.
func itemPrice(src PriceSource, ref BankRef, k ItemKind, code string, g Regime) (decimal.Decimal, int, bool, error) {
	if k == KindResource {
		r, err := src.BankResource(ref, code)
		if ErrorCode(err) == ENOTFOUND {
			return decimal.Zero, 0, false, nil
		}
		if err != nil {
			return decimal.Zero, 0, false, err
		}
		return r.Prices.Productive(g), r.Type, true, nil
	}
	c, err := src.BankComposition(ref, code)
	if ErrorCode(err) == ENOTFOUND {
		return decimal.Zero, 0, false, nil
	}
	if err != nil {
		return decimal.Zero, 0, false, err
	}
	return c.Cost.In(g), 0, true, nil
}

// CauseLabel is the pt-BR label of a cause (with its class).
func CauseLabel(c Cause) string {
	switch c.Kind {
	case CauseLinesRemoved:
		return "Linhas removidas"
	case CauseLinesAdded:
		return "Linhas incluídas"
	case CauseLinesLacking:
		return "Linhas sem preço em um dos lados"
	case CauseQuantity:
		return "Quantidades"
	case CauseRegime:
		return "Regime (desonerado / não desonerado)"
	case CauseResourcePrice:
		return "Preços de insumos: " + ClassName(c.Class)
	case CauseCompositionPrice:
		return "Custos de composições (não decompostos)"
	case CauseCoefficients:
		return "Coeficientes das composições"
	case CauseBDI:
		return "BDI"
	case CauseRounding:
		return "Arredondamento"
	}
	return string(c.Kind)
}
