package domain

import (
	"sort"
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// NodeKind says what a node of a budget's tree is: a stage (etapa), which
// holds other nodes, or a line, which prices a composition or a resource.
type NodeKind string

// The node kinds. The two line kinds spell the item kinds.
const (
	NodeStage       NodeKind = "stage"
	NodeComposition NodeKind = NodeKind(KindComposition)
	NodeResource    NodeKind = NodeKind(KindResource)
)

// IsLine reports whether the node is a line (a composition or a resource).
func (k NodeKind) IsLine() bool { return k == NodeComposition || k == NodeResource }

// Valid reports whether k is one of the three kinds.
func (k NodeKind) Valid() bool { return k == NodeStage || k.IsLine() }

// BDIMode says where a budget applies its BDI.
type BDIMode string

// The BDI modes.
const (
	// BDIOnUnitPrice marks up every line's unit price (the default).
	BDIOnUnitPrice BDIMode = "unit_price"
	// BDIOnFinalTotal applies the BDI once, on the budget's total.
	BDIOnFinalTotal BDIMode = "final_total"
)

// Valid reports whether m is one of the two modes.
func (m BDIMode) Valid() bool { return m == BDIOnUnitPrice || m == BDIOnFinalTotal }

// BudgetRounding is how a budget cuts its money figures to centavos.
type BudgetRounding string

// The budget rounding options.
const (
	// BudgetTruncate truncates to 2 places (the default, as DOMAIN.md's TRUNC).
	BudgetTruncate BudgetRounding = "truncate"
	// BudgetRound rounds half up to 2 places.
	BudgetRound BudgetRounding = "round"
)

// Valid reports whether r is one of the two options.
func (r BudgetRounding) Valid() bool { return r == BudgetTruncate || r == BudgetRound }

// Cut cuts d to 2 decimal places: truncates, or rounds half up.
func (r BudgetRounding) Cut(d decimal.Decimal) decimal.Decimal { return cutDecimal(d, 2, r.mode()) }

// mode is how the rounding cuts a product (mulCut).
func (r BudgetRounding) mode() cutMode {
	if r == BudgetRound {
		return cutRound
	}
	return cutTruncate
}

// cutMul is a × b cut to 2 places (Cut of the product), on the one money
// path (mulCut).
func (r BudgetRounding) cutMul(a, b decimal.Decimal) decimal.Decimal {
	return mulCut(amountOf(a), amountOf(b), 2, r.mode()).Decimal()
}

// The default caps on a budget's tree (BudgetLimits); the service takes
// others from its configuration.
const (
	// DefaultMaxBudgetDepth is how deep a budget's tree may go by default:
	// stages inside stages inside … up to this many levels, lines included.
	DefaultMaxBudgetDepth = 10
	// DefaultMaxBudgetLines is how many lines a budget may hold by default.
	DefaultMaxBudgetLines = 100_000
)

// BudgetNode is one node of a budget's tree. A stage has a description and
// children; a line names a composition or a resource of a bank of the budget
// (or of the company's own base, bank MYBASE) and a quantity, and takes its
// description and unit from what it names.
type BudgetNode struct {
	// ID identifies the node within its budget; it never changes, wherever
	// the node moves. Budget.AssignIDs gives one to a new node.
	ID          string
	Kind        NodeKind
	Description string          // stage only
	Bank        string          // line only
	Code        string          // line only
	Quantity    decimal.Decimal // line only
	Items       []BudgetNode    // stage only
}

// Budget is a company's cost estimate (orçamento): a tree of stages and
// lines priced in one state, from one edition per bank, in one payroll-tax
// regime, with a BDI markup.
type Budget struct {
	ID           string
	CompanyID    string
	UserID       string
	DepartmentID string
	Code         string
	Description  string
	Client       string
	State        string
	Tags         []string  // free labels (CheckTags)
	Banks        []BankRef // sorted by name, one per bank
	Desonerado   bool
	BDI          decimal.Decimal // percent: 25 means 25%
	BDIMode      BDIMode
	Rounding     BudgetRounding
	Items        []BudgetNode
	// The BDI as TCU checks it (bditcu.go, docs/budgets.md): the type of
	// work its ranges are taken from ("" none), the parts the BDI was
	// computed from (nil: the BDI was given as a rate), the differentiated
	// BDI of supply lines with its parts, and the ids of the lines that
	// take it (ids no longer in the tree are ignored).
	WorkType       string
	BDIParts       *BDIParts
	SupplyBDI      decimal.Decimal
	SupplyBDIParts *BDIParts
	SupplyNodes    []string
	// NodeSeq is the number of the last node ID given ("n1", "n2", …), so
	// that an ID is never given twice, even after its node is removed.
	NodeSeq int
	// The responsibility document of the budget (ART of a CREA engineer,
	// RRT of a CAU architect) and the date the budget is issued on
	// ("2006-01-02"); both "" when not given. Left out of the JSON when
	// empty, so that a budget without them freezes (Freeze) to the same
	// bytes, and the same hash, as before they existed.
	ART       string `json:"ART,omitempty"`
	IssueDate string `json:"IssueDate,omitempty"`
	// LabourCharges, when set, is the company's own social charges
	// percentage the budget prices its bank labour resource lines with
	// (LabourPrice over the bank's price without charges); null, the bank's
	// prices. Left out of the JSON when null (omitzero), so that a budget
	// without it freezes to the same bytes, and hash, as before it existed.
	LabourCharges decimal.NullDecimal `json:"LabourCharges,omitzero"`
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Regime returns the regime the budget is priced in.
func (b *Budget) Regime() Regime {
	if b.Desonerado {
		return Desonerado
	}
	return NaoDesonerado
}

// Bank returns the edition the budget names for bank, if any.
func (b *Budget) Bank(name string) (BankRef, bool) {
	for _, r := range b.Banks {
		if r.Name == name {
			return r, true
		}
	}
	return BankRef{}, false
}

// BDIRule returns how the budget applies its BDI.
func (b *Budget) BDIRule() BDIRule {
	return BDIRule{Rate: b.BDI, Mode: b.BDIMode, Rounding: b.Rounding, SupplyRate: b.SupplyBDI}
}

// IsSupply reports whether the node with the ID takes the differentiated
// (supply) BDI.
func (b *Budget) IsSupply(id string) bool {
	for _, s := range b.SupplyNodes {
		if s == id {
			return true
		}
	}
	return false
}

// SupplyLines returns the ids of the lines that take the differentiated
// (supply) BDI, in the order they were given, leaving out those no longer
// in the tree; never nil, so that an answer shows an empty list.
// One walk of the tree, whatever the number of supply lines (a search of
// the tree for each was quadratic: 2 s for a 50,000-line budget with every
// fourth line supplied, in every document's footer label).
func (b *Budget) SupplyLines() []string {
	out := []string{}
	if len(b.SupplyNodes) == 0 {
		return out
	}
	in := make(map[string]bool, len(b.SupplyNodes))
	for _, id := range b.SupplyNodes {
		in[id] = false
	}
	_ = b.Walk(func(n *BudgetNode, _ int) error {
		if _, ok := in[n.ID]; ok {
			in[n.ID] = true
		}
		return nil
	})
	for _, id := range b.SupplyNodes {
		if in[id] {
			out = append(out, id)
		}
	}
	return out
}

// Validate checks the budget's own fields and the shape of its tree (not
// whether what the lines name exists, which needs the store). Fields are
// named by JSON pointers into the budget as a client sends it:
// "/items/0/items/2/code".
func (b *Budget) Validate() error {
	var v Validation
	checkCode(&v, "/code", b.Code)
	checkText(&v, "/description", b.Description, true, 1000)
	checkText(&v, "/client", b.Client, false, 255)
	checkText(&v, "/art", b.ART, false, MaxARTLen)
	CheckIssueDate(&v, "/issue_date", b.IssueDate)
	CheckTags(&v, "/tags", b.Tags)
	ValidateLabourCharges(&v, "/labour_charges", b.LabourCharges)
	if !ValidState(b.State) {
		v.Add("/state", "is not a state code")
	}
	switch {
	case b.BDI.IsNegative():
		v.Add("/bdi", "must not be negative")
	case b.BDI.GreaterThanOrEqual(decimal.NewFromInt(1000)):
		v.Add("/bdi", "must be less than 1000 (percent)")
	case !b.BDI.Truncate(4).Equal(b.BDI):
		v.Add("/bdi", "has more than 4 decimal places")
	}
	if !b.BDIMode.Valid() {
		v.Add("/bdi_mode", "must be unit_price or final_total")
	}
	if !b.Rounding.Valid() {
		v.Add("/rounding", "must be truncate or round")
	}
	seen := map[string]bool{}
	for i, r := range b.Banks {
		ptr := "/banks/" + strconv.Itoa(i)
		_ = v.Merge("", r.Validate(ptr))
		if seen[r.Name] {
			v.Add(ptr+"/name", "bank %s is named twice: a budget has one edition per bank", r.Name)
		}
		seen[r.Name] = true
	}
	for i := range b.Items {
		b.validateNode(&v, &b.Items[i], "/items/"+strconv.Itoa(i))
	}
	return v.Err()
}

// ValidateNode checks one node and its children as a part of the budget,
// naming bad fields from ptr (the node's pointer in the request that carries
// it; "" when the node is the request). The caps on depth and lines are
// BudgetLimits', checked apart.
func (b *Budget) ValidateNode(n *BudgetNode, ptr string) error {
	var v Validation
	b.validateNode(&v, n, ptr)
	return v.Err()
}

func (b *Budget) validateNode(v *Validation, n *BudgetNode, ptr string) {
	switch {
	case n.Kind == NodeStage:
		checkText(v, ptr+"/description", n.Description, true, 1000)
		if n.Code != "" || n.Bank != "" || !n.Quantity.IsZero() {
			v.Add(ptr+"/kind", "a stage has no bank, code or quantity; a line is a composition or a resource")
		}
		for i := range n.Items {
			b.validateNode(v, &n.Items[i], ptr+"/items/"+strconv.Itoa(i))
		}
	case n.Kind.IsLine():
		switch {
		case n.Bank == "":
			v.Add(ptr+"/bank", "is required")
		case n.Bank != BankMyBase:
			if _, ok := b.Bank(n.Bank); !ok {
				v.Add(ptr+"/bank", "bank %s is not one of the budget's banks: add its edition to the budget first", n.Bank)
			}
		}
		checkCode(v, ptr+"/code", n.Code)
		if !n.Quantity.IsPositive() {
			v.Add(ptr+"/quantity", "must be greater than zero")
		} else if !n.Quantity.Truncate(7).Equal(n.Quantity) {
			v.Add(ptr+"/quantity", "has more than 7 decimal places")
		}
		if n.Description != "" {
			v.Add(ptr+"/description", "a line takes its description from its composition or resource")
		}
		if len(n.Items) > 0 {
			v.Add(ptr+"/items", "a line holds no items; only a stage does")
		}
	default:
		v.Add(ptr+"/kind", "must be stage, composition or resource")
	}
}

// AssignIDs gives an ID to every node that has none, counting on from
// NodeSeq.
func (b *Budget) AssignIDs() {
	var walk func(ns []BudgetNode)
	walk = func(ns []BudgetNode) {
		for i := range ns {
			if ns[i].ID == "" {
				b.NodeSeq++
				ns[i].ID = "n" + strconv.Itoa(b.NodeSeq)
			}
			walk(ns[i].Items)
		}
	}
	walk(b.Items)
}

// OutlineEntry is one node of a budget with where it sits.
type OutlineEntry struct {
	Node    *BudgetNode // points into the budget
	Number  string      // position numbering: "1", "1.1", "1.1.2"
	Pointer string      // JSON pointer: "/items/0/items/0/items/1"
	Depth   int         // 1 for the top level
	Parent  int         // index in the outline of the parent stage; -1 at the top level
}

// Outline lists every node in tree order (a stage before its children),
// each numbered by position: the n-th node of the top level is "n", the m-th
// node inside it "n.m", and so on.
func (b *Budget) Outline() []OutlineEntry {
	var out []OutlineEntry
	var walk func(ns []BudgetNode, number, ptr string, depth, parent int)
	walk = func(ns []BudgetNode, number, ptr string, depth, parent int) {
		for i := range ns {
			e := OutlineEntry{
				Node:    &ns[i],
				Number:  number + strconv.Itoa(i+1),
				Pointer: ptr + "/items/" + strconv.Itoa(i),
				Depth:   depth,
				Parent:  parent,
			}
			out = append(out, e)
			walk(ns[i].Items, e.Number+".", e.Pointer, depth+1, len(out)-1)
		}
	}
	walk(b.Items, "", "", 1, -1)
	return out
}

// Node returns the node with the ID, pointing into the budget.
func (b *Budget) Node(id string) (*BudgetNode, bool) {
	list, i := b.locate(id)
	if list == nil {
		return nil, false
	}
	return &(*list)[i], true
}

// locate returns the slice that holds the node with the ID and its index
// there; nil when there is none.
func (b *Budget) locate(id string) (*[]BudgetNode, int) {
	var find func(ns *[]BudgetNode) (*[]BudgetNode, int)
	find = func(ns *[]BudgetNode) (*[]BudgetNode, int) {
		for i := range *ns {
			if (*ns)[i].ID == id {
				return ns, i
			}
			if l, j := find(&(*ns)[i].Items); l != nil {
				return l, j
			}
		}
		return nil, 0
	}
	if id == "" {
		return nil, 0
	}
	return find(&b.Items)
}

// children returns the list a new child of parentID goes into: the top level
// for "", else the stage's items. A parent that is unknown or a line is an
// EINVALID error on parentField.
func (b *Budget) children(parentID, parentField string) (*[]BudgetNode, error) {
	if parentID == "" {
		return &b.Items, nil
	}
	p, ok := b.Node(parentID)
	if !ok {
		return nil, FieldErrorf(parentField, "no node %s in this budget", parentID)
	}
	if p.Kind != NodeStage {
		return nil, FieldErrorf(parentField, "node %s is a line; only a stage holds items", parentID)
	}
	return &p.Items, nil
}

// insert puts n into list at pos (-1: at the end).
func insert(list *[]BudgetNode, pos int, n BudgetNode, positionField string) error {
	if pos < 0 {
		pos = len(*list)
	}
	if pos > len(*list) {
		return FieldErrorf(positionField, "must be between 0 and %d", len(*list))
	}
	*list = append(*list, BudgetNode{})
	copy((*list)[pos+1:], (*list)[pos:])
	(*list)[pos] = n
	return nil
}

// AddNode inserts a copy of n (with its children) into the stage parentID,
// or at the top level when parentID is "", at index pos among its siblings
// (-1: last), and gives new IDs to its nodes (any they carried are
// dropped). Returns the ID of n. An unknown parent, a
// parent that is a line and a position out of range are EINVALID on
// "/parent_id" and "/position". The caps on depth and lines are
// BudgetLimits', checked by the caller on the result.
func (b *Budget) AddNode(parentID string, pos int, n BudgetNode) (string, error) {
	list, err := b.children(parentID, "/parent_id")
	if err != nil {
		return "", err
	}
	if err := b.ValidateNode(&n, ""); err != nil {
		return "", err
	}
	if pos < 0 {
		pos = len(*list)
	}
	n = cloneNode(n)
	clearIDs(&n)
	if err := insert(list, pos, n, "/position"); err != nil {
		return "", err
	}
	b.AssignIDs()
	return (*list)[pos].ID, nil
}

// MoveNode moves the node with the ID (and its children) into the stage
// parentID, or to the top level when parentID is "", at index pos among its
// new siblings (-1: last; counted once the node has left its old place).
// Returns ENOTFOUND for an unknown node, and EINVALID on "/parent_id" for a
// parent that is unknown, a line, the node itself or inside it, and on
// "/position" for a position out of range. The cap on depth is
// BudgetLimits', checked by the caller on the result.
func (b *Budget) MoveNode(id, parentID string, pos int) error {
	n, ok := b.Node(id)
	if !ok {
		return Errorf(ENOTFOUND, "node %s not found in budget %s", id, b.Code)
	}
	if parentID != "" && (parentID == id || contains(n, parentID)) {
		return FieldErrorf("/parent_id", "node %s is the node being moved or inside it", parentID)
	}
	if _, err := b.children(parentID, "/parent_id"); err != nil {
		return err
	}
	moved := cloneNode(*n)
	trial := b.Clone()
	if err := trial.RemoveNode(id); err != nil {
		return err
	}
	list, err := trial.children(parentID, "/parent_id")
	if err != nil {
		return err
	}
	if err := insert(list, pos, moved, "/position"); err != nil {
		return err
	}
	b.Items = trial.Items
	return nil
}

func clearIDs(n *BudgetNode) {
	n.ID = ""
	for i := range n.Items {
		clearIDs(&n.Items[i])
	}
}

// contains reports whether a node with the ID is among n's descendants.
func contains(n *BudgetNode, id string) bool {
	for i := range n.Items {
		if n.Items[i].ID == id || contains(&n.Items[i], id) {
			return true
		}
	}
	return false
}

// RemoveNode removes the node with the ID and its children. Returns
// ENOTFOUND when there is none.
func (b *Budget) RemoveNode(id string) error {
	list, i := b.locate(id)
	if list == nil {
		return Errorf(ENOTFOUND, "node %s not found in budget %s", id, b.Code)
	}
	*list = append((*list)[:i:i], (*list)[i+1:]...)
	return nil
}

// Lines counts the budget's lines.
func (b *Budget) Lines() int {
	n := 0
	for _, e := range b.Outline() {
		if e.Node.Kind.IsLine() {
			n++
		}
	}
	return n
}

// Clone returns a deep copy of b.
func (b *Budget) Clone() *Budget {
	c := *b
	c.Banks = append([]BankRef(nil), b.Banks...)
	c.Items = cloneNodes(b.Items)
	c.SupplyNodes = append([]string(nil), b.SupplyNodes...)
	if b.SupplyNodes == nil {
		c.SupplyNodes = nil
	}
	if b.BDIParts != nil {
		p := *b.BDIParts
		c.BDIParts = &p
	}
	if b.SupplyBDIParts != nil {
		p := *b.SupplyBDIParts
		c.SupplyBDIParts = &p
	}
	return &c
}

func cloneNodes(ns []BudgetNode) []BudgetNode {
	if ns == nil {
		return nil
	}
	out := make([]BudgetNode, len(ns))
	for i, n := range ns {
		out[i] = cloneNode(n)
	}
	return out
}

func cloneNode(n BudgetNode) BudgetNode {
	n.Items = cloneNodes(n.Items)
	return n
}

// SortBanks puts the budget's banks in name order.
func (b *Budget) SortBanks() {
	sort.Slice(b.Banks, func(i, j int) bool { return b.Banks[i].Name < b.Banks[j].Name })
}
