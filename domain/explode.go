package domain

import "github.com/shopspring/decimal"

// Exploding a budget: every line is taken down to the leaves of its
// composition tree, and the leaves are added up.
//
//   - A leaf is a resource, or a bank composition whose published structure
//     (BankComposition.Items) was not imported, which stays whole.
//   - An own composition opens through its items; a bank composition opens
//     through its published structure, whose items are codes of the same
//     edition.
//   - A leaf's quantity is the line's quantity times the product of the
//     coefficients along the path, kept exact (no rounding at any level).
//   - In a SICRO-model own composition the equipment and labour items are
//     hours of the team per hour, so their quantity per unit of service is
//     coefficient ÷ team production (to 16 decimal places, the one inexact
//     step); equipment splits into productive hours (× utilisation, at the
//     productive hourly cost) and idle hours (× (1 − utilisation), at the
//     idle hourly cost, a leaf of its own). The labour addition and the rain
//     factor (FIC) are costs of no resource and have no leaf.
//
// Leaves are told apart by edition (bank, state, month, region), code, kind
// and idleness; an own resource is priced in the budget's state.

// sicroDivisionPlaces is the precision of coefficient ÷ team production.
const sicroDivisionPlaces = 16

// leaf is one thing an explosion ends at, with its unit price in both
// regimes. Leaves are shared: one per key in a BudgetPricer.
type leaf struct {
	ref          BankRef
	code         string
	kind         ItemKind
	idle         bool
	description  string
	unit         string
	resourceType int
	price        UnitPrice
	missing      bool
	reason       string  // why it is missing
	lacks        [2]bool // regimes a bank record has no price in (by Regime)
	lackReason   string  // why, naming them
	category     CostCategory
}

// leafQty is a quantity of a leaf.
type leafQty struct {
	leaf *leaf
	qty  decimal.Decimal
}

// unitLeaves are the leaves of one unit of a composition (or of a line),
// added up per leaf, in the order first met.
type unitLeaves []leafQty

// accumulator adds quantities of leaves.
type accumulator struct {
	index map[*leaf]int
	out   unitLeaves
}

func (a *accumulator) add(l *leaf, qty decimal.Decimal) {
	if a.index == nil {
		a.index = map[*leaf]int{}
	}
	if i, ok := a.index[l]; ok {
		a.out[i].qty = a.out[i].qty.Add(qty)
		return
	}
	a.index[l] = len(a.out)
	a.out = append(a.out, leafQty{leaf: l, qty: qty})
}

func (a *accumulator) addAll(u unitLeaves, factor decimal.Decimal) {
	for _, lq := range u {
		a.add(lq.leaf, lq.qty.Mul(factor))
	}
}

// intern returns the one leaf of the key, made by mk the first time.
func (bp *BudgetPricer) intern(key string, mk func() *leaf) *leaf {
	if l, ok := bp.leaves[key]; ok {
		return l
	}
	l := mk()
	l.category = Category(l.kind, l.resourceType, l.description)
	bp.leaves[key] = l
	return l
}

func leafKey(editionKey, code string, kind ItemKind, idle bool) string {
	k := editionKey + "\x00" + string(kind) + "\x00" + code
	if idle {
		k += "\x00idle"
	}
	return k
}

// ownResourceLeaf is the leaf of an own resource priced in state.
func (bp *BudgetPricer) ownResourceLeaf(code, state string, idle bool) (*leaf, error) {
	r, err := bp.src.OwnResource(code)
	if err != nil && ErrorCode(err) != ENOTFOUND {
		return nil, err
	}
	return bp.intern(leafKey(BankMyBase+"/"+state, code, KindResource, idle), func() *leaf {
		l := &leaf{ref: BankRef{Name: BankMyBase}, code: code, kind: KindResource, idle: idle}
		if r == nil {
			l.missing, l.reason = true, "own resource "+code+" no longer exists"
			return l
		}
		l.description, l.unit, l.resourceType = r.Description, r.Unit, r.Type
		p, ok := r.Locals[state]
		l.missing = !ok
		if !ok {
			l.reason = "own resource " + code + " has no price for " + state
		}
		if idle {
			l.price = UnitPrice{PND: p.PNDI, PD: p.PDI}
		} else {
			l.price = UnitPrice{PND: p.PND, PD: p.PD}
		}
		return l
	}), nil
}

// bankResourceLeaf is the leaf of a resource of an edition.
func (bp *BudgetPricer) bankResourceLeaf(ref BankRef, code string, idle bool) (*leaf, error) {
	r, err := bp.src.BankResource(ref, code)
	if err != nil && ErrorCode(err) != ENOTFOUND {
		return nil, err
	}
	return bp.intern(leafKey(ref.EditionKey(), code, KindResource, idle), func() *leaf {
		l := &leaf{ref: ref, code: code, kind: KindResource, idle: idle}
		if r == nil {
			l.missing, l.reason = true, "resource "+code+" does not exist in "+ref.Label()
			return l
		}
		l.description, l.unit, l.resourceType = r.Description, r.Unit, r.Type
		if idle {
			l.price = UnitPrice{PND: r.Prices.PNDI, PD: r.Prices.PDI}
		} else {
			l.price = UnitPrice{PND: r.Prices.PND, PD: r.Prices.PD}
		}
		l.lacks, l.lackReason = lacking(r.Priced, "resource", code, ref)
		return l
	}), nil
}

// compositionLeaf is a composition that stays whole: a bank composition
// without structure, or a composition that no longer exists (missing).
func (bp *BudgetPricer) compositionLeaf(ref BankRef, editionKey, code string, c *BankComposition) *leaf {
	return bp.intern(leafKey(editionKey, code, KindComposition, false), func() *leaf {
		l := &leaf{ref: ref, code: code, kind: KindComposition}
		if c == nil {
			l.missing, l.reason = true, "composition "+code+" no longer exists"
			if ref.Name != BankMyBase {
				l.reason = "composition " + code + " does not exist in " + ref.Label()
			}
			return l
		}
		l.description, l.unit, l.price = c.Description, c.Unit, c.Cost
		l.lacks, l.lackReason = lacking(c.Priced, "composition", code, ref)
		return l
	})
}

// bankUnit explodes one unit of a bank composition through its published
// structure; without one, the composition is its own leaf.
func (bp *BudgetPricer) bankUnit(ref BankRef, code string, charges decimal.NullDecimal) (unitLeaves, error) {
	ek := ref.EditionKey()
	key := "bank\x00" + ek + "\x00" + code + chargesKey(charges)
	if u, ok := bp.units[key]; ok {
		return u, nil
	}
	if bp.visiting[key] {
		return nil, Errorf(ECONFLICT, "composition %s of %s contains itself", code, ek)
	}
	bp.visiting[key] = true
	defer delete(bp.visiting, key)
	c, err := bp.src.BankComposition(ref, code)
	if err != nil && ErrorCode(err) != ENOTFOUND {
		return nil, err
	}
	var acc accumulator
	if c == nil || len(c.Items) == 0 {
		acc.add(bp.compositionLeaf(ref, ek, code, c), one)
	}
	if c != nil {
		for _, si := range c.Items {
			if si.Kind == KindComposition {
				sub, err := bp.bankUnit(ref, si.Code, charges)
				if err != nil {
					return nil, err
				}
				acc.addAll(sub, si.Coefficient)
				continue
			}
			l, err := bp.bankResourceLeaf(ref, si.Code, false)
			if err != nil {
				return nil, err
			}
			if charges.Valid && l.resourceType == TypeLabor {
				l = bp.chargedResourceLeaf(ref, si.Code, charges)
			}
			acc.add(l, si.Coefficient)
		}
	}
	bp.units[key] = acc.out
	return acc.out, nil
}

// ownUnit explodes one unit of an own composition through its items.
func (bp *BudgetPricer) ownUnit(c *Composition) (unitLeaves, error) {
	key := "own\x00" + c.State + "\x00" + c.Code
	if u, ok := bp.units[key]; ok {
		return u, nil
	}
	if bp.visiting[key] {
		return nil, Errorf(ECONFLICT, "composition %s contains itself", c.Code)
	}
	if f := c.UnsetFields(); len(f) > 0 {
		// Without a team production its equipment and labour have no
		// quantity per unit: the composition stays whole, missing.
		l := bp.intern(leafKey(BankMyBase+"/"+c.State, c.Code, KindComposition, false), func() *leaf {
			return &leaf{ref: BankRef{Name: BankMyBase}, code: c.Code, kind: KindComposition, description: c.Description, unit: c.Unit,
				missing: true, reason: "own composition " + c.Code + " (" + c.State + ") has no unit cost: " + unsetReason(f[0])}
		})
		bp.units[key] = unitLeaves{{l, one}}
		return bp.units[key], nil
	}
	bp.visiting[key] = true
	defer delete(bp.visiting, key)
	var acc accumulator
	for _, it := range c.Items {
		if err := bp.explodeItem(&acc, c, it); err != nil {
			return nil, err
		}
	}
	bp.units[key] = acc.out
	return acc.out, nil
}

// explodeItem adds one unit's worth of an item of c to acc.
func (bp *BudgetPricer) explodeItem(acc *accumulator, c *Composition, it Item) error {
	if it.Kind == KindComposition {
		var sub unitLeaves
		var err error
		switch ref, ok := c.Bank(it.Bank); {
		case it.IsOwn():
			oc, lookupErr := bp.src.OwnComposition(it.Code, c.State)
			switch {
			case ErrorCode(lookupErr) == ENOTFOUND:
				sub = unitLeaves{{bp.compositionLeaf(BankRef{Name: BankMyBase}, BankMyBase+"/"+c.State, it.Code, nil), one}}
			case lookupErr != nil:
				return lookupErr
			default:
				sub, err = bp.ownUnit(oc)
			}
		case ok:
			sub, err = bp.bankUnit(ref, it.Code, decimal.NullDecimal{})
		default:
			sub = unitLeaves{{bp.compositionLeaf(BankRef{Name: it.Bank}, "?"+it.Bank, it.Code, nil), one}}
		}
		if err != nil {
			return err
		}
		acc.addAll(sub, it.Quantity)
		return nil
	}
	leafOf := func(idle bool) (*leaf, error) {
		if it.IsOwn() {
			return bp.ownResourceLeaf(it.Code, c.State, idle)
		}
		ref, ok := c.Bank(it.Bank)
		if !ok {
			return bp.intern(leafKey("?"+it.Bank, it.Code, KindResource, idle), func() *leaf {
				return &leaf{ref: BankRef{Name: it.Bank}, code: it.Code, kind: KindResource, idle: idle, missing: true,
					reason: "bank " + it.Bank + " is not attached to composition " + c.Code}
			}), nil
		}
		return bp.bankResourceLeaf(ref, it.Code, idle)
	}
	l, err := leafOf(false)
	if err != nil {
		return err
	}
	if !c.IsSicro || !c.TeamProduction.IsPositive() { // (without one, ownUnit keeps the composition whole)
		acc.add(l, it.Quantity)
		return nil
	}
	switch l.resourceType {
	case TypeEquipment, TypePermanentEquipment:
		u := one
		if it.Utilization.Valid {
			u = it.Utilization.Decimal
		}
		hours := it.Quantity.DivRound(c.TeamProduction, sicroDivisionPlaces)
		acc.add(l, hours.Mul(u))
		if idleShare := one.Sub(u); idleShare.IsPositive() {
			il, err := leafOf(true)
			if err != nil {
				return err
			}
			acc.add(il, hours.Mul(idleShare))
		}
	case TypeLabor:
		acc.add(l, it.Quantity.DivRound(c.TeamProduction, sicroDivisionPlaces))
	default:
		acc.add(l, it.Quantity)
	}
	return nil
}

// lineUnit explodes one unit of a budget line.
func (bp *BudgetPricer) lineUnit(b *Budget, n *BudgetNode) (unitLeaves, error) {
	li, err := bp.line(b, n)
	if err != nil {
		return nil, err
	}
	own := li.ref.Name == BankMyBase
	var l *leaf
	switch {
	case n.Kind == NodeComposition && li.own != nil:
		return bp.ownUnit(li.own)
	case n.Kind == NodeComposition && !own && li.bankKnown:
		return bp.bankUnit(li.ref, n.Code, b.LabourCharges)
	case n.Kind == NodeComposition && own:
		l = bp.compositionLeaf(li.ref, BankMyBase+"/"+b.State, n.Code, nil)
	case n.Kind == NodeComposition:
		l = bp.compositionLeaf(li.ref, "?"+li.ref.Name, n.Code, nil)
	case own:
		l, err = bp.ownResourceLeaf(n.Code, b.State, false)
	case li.bankKnown && b.LabourCharges.Valid && li.resourceType == TypeLabor:
		l = bp.chargedResourceLeaf(li.ref, n.Code, b.LabourCharges)
	case li.bankKnown:
		l, err = bp.bankResourceLeaf(li.ref, n.Code, false)
	default:
		l = bp.intern(leafKey("?"+li.ref.Name, n.Code, KindResource, false), func() *leaf {
			return &leaf{ref: li.ref, code: n.Code, kind: KindResource, missing: true, reason: li.reason}
		})
	}
	if err != nil {
		return nil, err
	}
	return unitLeaves{{l, one}}, nil
}

// Explode takes every line of the budget down to its leaves and adds them
// up: one ABCInput per leaf, in the order first met, with its quantity
// (exact), its unit price in the budget's regime and its total, cut to 2
// places by the budget's rounding option. Totals do not include the BDI.
func (bp *BudgetPricer) Explode(b *Budget) ([]ABCInput, error) { return bp.ExplodeWalk(b, b.Walk) }

// ExplodeWalk is Explode of the budget b (its fields, Items not needed)
// whose tree walk walks (NodeWalk): what it holds grows with the distinct
// things the lines name, not with the lines.
func (bp *BudgetPricer) ExplodeWalk(b *Budget, walk NodeWalk) ([]ABCInput, error) {
	var t lineTargets
	err := walk(func(n *BudgetNode, _ int) error {
		if n.Kind.IsLine() {
			t.add(n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return bp.explodeTargets(b, &t)
}

// lineTargets adds up the quantities of the lines that name the same thing:
// Σ (qᵢ × leaf) = (Σ qᵢ) × leaf exactly, and the explosion then costs one
// addition per line and one multiplication per leaf of each distinct thing
// named. Within one budget a bank name is one edition: kind, bank and code
// name one thing (lineKey).
type lineTargets struct {
	index   map[streamLineKey]int
	targets []lineTarget
}

type lineTarget struct {
	n   BudgetNode // without its children
	qty amount     // the lines' quantities added up
}

func (t *lineTargets) add(n *BudgetNode) {
	if i, ok := t.index[streamLineKey{n.Kind, n.Bank, n.Code}]; ok {
		t.targets[i].qty = t.targets[i].qty.add(amountOf(n.Quantity))
		return
	}
	if t.index == nil {
		t.index = map[streamLineKey]int{}
	}
	t.index[streamLineKey{n.Kind, n.Bank, n.Code}] = len(t.targets)
	t.targets = append(t.targets, lineTarget{BudgetNode{ID: n.ID, Kind: n.Kind, Bank: n.Bank, Code: n.Code, Quantity: n.Quantity}, amountOf(n.Quantity)})
}

// explodeTargets explodes the lines added up in t, in the order first met.
func (bp *BudgetPricer) explodeTargets(b *Budget, t *lineTargets) ([]ABCInput, error) {
	var acc accumulator
	for i := range t.targets {
		tg := &t.targets[i]
		u, err := bp.lineUnit(b, &tg.n)
		if err != nil {
			return nil, err
		}
		acc.addAll(u, tg.qty.Decimal())
	}
	reg := b.Regime()
	out := make([]ABCInput, len(acc.out))
	for i, lq := range acc.out {
		out[i] = lq.input(reg, b.Rounding)
	}
	return out, nil
}

// input turns a quantity of a leaf into an ABCInput priced in regime reg.
func (lq leafQty) input(reg Regime, rounding BudgetRounding) ABCInput {
	l := lq.leaf
	price := l.price.In(reg)
	reason := l.reason
	if !l.missing && l.lacks[reg] {
		reason = l.lackReason
	}
	return ABCInput{
		Ref: l.ref, Code: l.code, Kind: l.kind, Idle: l.idle,
		Description: l.description, Unit: l.unit, ResourceType: l.resourceType,
		Category: l.category,
		Quantity: lq.qty, UnitPrice: price, Total: rounding.cutMul(lq.qty, price),
		Missing: l.missing || l.lacks[reg], Reason: reason,
	}
}
