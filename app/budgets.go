package app

import (
	"context"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// BudgetInput is what a client may set on a budget when creating it.
type BudgetInput struct {
	Code        string
	Description string
	Client      string
	State       string // UF; v2 calls it location
	Tags        []string
	Desonerado  bool
	BDI         decimal.Decimal       // percent: 25 means 25%
	BDIMode     domain.BDIMode        // "" means unit_price
	Rounding    domain.BudgetRounding // "" means truncate
	// Banks are the editions the budget's bank lines are priced from, one
	// per bank; each must have been imported.
	Banks []BankInput
	Items []NodeInput
	// TCU, when not nil, sets the budget's TCU BDI as UpdateBudgetBDI
	// does (work type, components, differentiated BDI, supply lines, which
	// name the ids the tree gets: n1, n2… in tree order), once the tree is
	// checked.
	TCU *BDIPatch
	// ART is the ART/RRT number, IssueDate the date the budget is issued
	// on ("2006-01-02"); "" for none.
	ART       string
	IssueDate string
	// LabourCharges is the budget's own labour charges percentage (null:
	// the bank's prices; docs/labour-charges.md).
	LabourCharges decimal.NullDecimal
}

// NodeInput is a node of a budget's tree as a client sends it: a stage
// (Kind "stage", a Description and Items) or a line (Kind "composition" or
// "resource", Bank, Code and Quantity). A line's bank is MYBASE (the
// company's own base) when empty; any other bank must be one of the
// budget's. A line's description is not read: it comes from what the line
// names.
type NodeInput struct {
	// ID, on an update that replaces the tree, keeps the id of the
	// budget's node with that id (see replaceItems); otherwise ignored.
	ID          string
	Kind        domain.NodeKind
	Description string
	Bank        string
	Code        string
	Quantity    decimal.Decimal
	Items       []NodeInput
}

func (in NodeInput) node() domain.BudgetNode {
	n := domain.BudgetNode{
		Kind:     domain.NodeKind(strings.ToLower(strings.TrimSpace(string(in.Kind)))),
		Bank:     domain.NormalizeBank(in.Bank),
		Code:     strings.TrimSpace(in.Code),
		Quantity: in.Quantity,
		Items:    nodes(in.Items),
	}
	if n.Kind.IsLine() {
		if n.Bank == "" {
			n.Bank = domain.BankMyBase
		}
	} else {
		n.Description = strings.TrimSpace(in.Description)
	}
	return n
}

func nodes(in []NodeInput) []domain.BudgetNode {
	if len(in) == 0 {
		return nil
	}
	out := make([]domain.BudgetNode, len(in))
	for i, n := range in {
		out[i] = n.node()
	}
	return out
}

func bankRefs(in []BankInput) []domain.BankRef {
	out := make([]domain.BankRef, len(in))
	for i, b := range in {
		out[i] = domain.BankRef{
			Name:   domain.NormalizeBank(b.Name),
			State:  strings.ToUpper(strings.TrimSpace(b.State)),
			Month:  strings.TrimSpace(b.Month),
			Region: strings.TrimSpace(b.Region),
			Report: b.Report,
		}
	}
	return out
}

// applyFields sets the budget's own fields (not its banks or tree).
func (in BudgetInput) applyFields(b *domain.Budget) {
	b.Code = in.Code
	b.Description = strings.TrimSpace(in.Description)
	b.Client = strings.TrimSpace(in.Client)
	b.ART = strings.TrimSpace(in.ART)
	b.IssueDate = strings.TrimSpace(in.IssueDate)
	b.LabourCharges = in.LabourCharges
	b.State = strings.ToUpper(strings.TrimSpace(in.State))
	b.Tags = Tags(in.Tags)
	b.Desonerado = in.Desonerado
	b.BDI = in.BDI
	b.BDIMode, b.Rounding = in.BDIMode, in.Rounding
	if b.BDIMode == "" {
		b.BDIMode = domain.BDIOnUnitPrice
	}
	if b.Rounding == "" {
		b.Rounding = domain.BudgetTruncate
	}
}

// CreateBudget creates a budget in the caller's company and returns it
// priced. Every field and every line is checked before anything is written:
// EINVALID names each bad field by its JSON pointer ("/items/0/items/2/code"
// for a line whose code does not exist in its bank edition, or in the own
// base in the budget's state), and nothing is saved. The code must be
// unused by the company's other budgets.
func (s *Service) CreateBudget(ctx context.Context, p domain.Principal, in BudgetInput) (*domain.PricedBudget, error) {
	var out *domain.PricedBudget
	err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		out, err = s.createBudget(tx, p, in)
		return err
	})
	return out, err
}

// createBudget is CreateBudget in the caller's transaction.
func (s *Service) createBudget(tx Tx, p domain.Principal, in BudgetInput) (*domain.PricedBudget, error) {
	now := s.now()
	b := &domain.Budget{ID: NewID(now), CompanyID: p.CompanyID, UserID: p.UserID, DepartmentID: p.DepartmentID,
		CreatedAt: now, UpdatedAt: now}
	in.applyFields(b)
	b.Banks, b.Items = bankRefs(in.Banks), nodes(in.Items)
	b.AssignIDs()
	if err := s.checkTree(tx, p, b, true, true); err != nil {
		return nil, err
	}
	if in.TCU != nil {
		if err := in.TCU.apply(b); err != nil {
			return nil, err
		}
	}
	return saveBudget(tx, p, b)
}

// BudgetPatch names the fields of a budget to change; nil fields stay.
// Banks, when not nil, replace the budget's editions (every line of a bank
// must then exist in its new edition); Items, when not nil, replace the
// whole tree (its nodes get new IDs).
type BudgetPatch struct {
	Code        *string
	Description *string
	Client      *string
	State       *string
	Tags        *[]string
	Desonerado  *bool
	BDI         *decimal.Decimal
	BDIMode     *domain.BDIMode
	Rounding    *domain.BudgetRounding
	ART         *string
	IssueDate   *string
	// LabourCharges, when not nil, sets the own charges (a null value
	// clears them).
	LabourCharges *decimal.NullDecimal
	Banks         []BankInput
	Items         []NodeInput
}

// UpdateBudget changes the fields the patch names. Returns ENOTFOUND for a
// budget outside the caller's company and EINVALID naming each bad field.
// When the state, the banks or the tree change, every line is checked again
// as on creation.
func (s *Service) UpdateBudget(ctx context.Context, p domain.Principal, id string, patch BudgetPatch) (*domain.PricedBudget, error) {
	var out *domain.PricedBudget
	err := s.store.Update(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, id)
		if err != nil {
			return err
		}
		in := BudgetInput{Code: b.Code, Description: b.Description, Client: b.Client, State: b.State, Tags: b.Tags,
			Desonerado: b.Desonerado, BDI: b.BDI, BDIMode: b.BDIMode, Rounding: b.Rounding, ART: b.ART, IssueDate: b.IssueDate,
			LabourCharges: b.LabourCharges}
		set(&in.Code, patch.Code)
		set(&in.Description, patch.Description)
		set(&in.Client, patch.Client)
		set(&in.State, patch.State)
		set(&in.Tags, patch.Tags)
		set(&in.Desonerado, patch.Desonerado)
		set(&in.BDI, patch.BDI)
		set(&in.BDIMode, patch.BDIMode)
		set(&in.Rounding, patch.Rounding)
		set(&in.ART, patch.ART)
		set(&in.IssueDate, patch.IssueDate)
		set(&in.LabourCharges, patch.LabourCharges)
		oldState, oldDesonerado := b.State, b.Desonerado
		in.applyFields(b)
		if b.BDIParts != nil && !b.BDI.Equal(b.BDIParts.Rate()) {
			// A rate set by hand no longer comes from the stored parts.
			b.BDIParts = nil
		}
		if patch.Banks != nil {
			b.Banks = bankRefs(patch.Banks)
		}
		if patch.Items != nil {
			replaceItems(b, patch.Items)
		}
		relook := patch.Banks != nil || patch.Items != nil || b.State != oldState || b.Desonerado != oldDesonerado
		if err := s.checkTree(tx, p, b, relook, patch.Items != nil); err != nil {
			return err
		}
		b.UpdatedAt = s.now()
		out, err = saveBudget(tx, p, b)
		return err
	})
	return out, err
}

// checkBudget checks a budget before it is saved: its fields and tree
// (domain.Budget.Validate), its banks (imported editions), its code (unique
// in the company) and, when lines is true (a new budget, or new banks,
// tree, state or regime), that every edition has the budget's regime and
// that what every line names exists (priced in that regime). Every problem
// is named in one EINVALID error.
func checkBudget(tx Tx, p domain.Principal, b *domain.Budget, lines bool) error {
	var v domain.Validation
	if err := v.Merge("", b.Validate()); err != nil {
		return err
	}
	imported := map[string]bool{}
	for i, ref := range b.Banks {
		if ref.Validate("") != nil {
			continue // named by Validate
		}
		ed, err := tx.Edition(ref.EditionKey())
		switch {
		case isNotFound(err):
			msg, err := editionAbsent(tx, ref)
			if err != nil {
				return err
			}
			v.Add("/banks/"+strconv.Itoa(i), "%s", msg)
		case err != nil:
			return err
		default:
			imported[ref.Name] = true
			// A budget is priced in one regime: its editions must have it.
			if lacks := lackingRegimes(ed, b.Regime()); lacks != "" && lines {
				v.Add("/banks/"+strconv.Itoa(i), "edition %s lacks the %s prices this budget is priced in", editionName(ref), lacks)
			}
		}
	}
	if b.Code != "" {
		o, err := tx.BudgetByCode(b.CompanyID, b.Code)
		if err == nil && o.ID != b.ID {
			v.Add("/code", "is already used by budget %s", o.ID)
		} else if err != nil && !isNotFound(err) {
			return err
		}
	}
	if lines {
		lc := newLineChecker(tx, p, b, imported)
		for _, e := range b.Outline() {
			if err := v.Merge("", lc.check(e.Node, e.Pointer)); err != nil {
				return err
			}
		}
	}
	return v.Err()
}

// checkTree is checkBudget and, when tree is true (a new tree), the caps on
// the tree (BudgetLimits: depth, lines on "/items"), every problem named in
// one EINVALID error.
func (s *Service) checkTree(tx Tx, p domain.Principal, b *domain.Budget, lines, tree bool) error {
	err := checkBudget(tx, p, b, lines)
	if !tree {
		return err
	}
	var v domain.Validation
	if err := v.Merge("", err); err != nil {
		return err
	}
	if err := v.Merge("", s.budgetLimits().Check(b, "", "/items")); err != nil {
		return err
	}
	return v.Err()
}

// budgetLimits are the caps on budgets in force (Config).
func (s *Service) budgetLimits() domain.BudgetLimits {
	return domain.BudgetLimits{Depth: s.cfg.MaxBudgetDepth, Lines: s.cfg.MaxBudgetLines}
}

// pointerOf is the JSON pointer of a node of b ("/items/0/items/2"), "" for
// none.
func pointerOf(b *domain.Budget, nodeID string) string {
	for _, e := range b.Outline() {
		if e.Node.ID == nodeID {
			return e.Pointer
		}
	}
	return ""
}

// lineChecker checks that what budget lines name exists, looking each
// (kind, bank, code) up once.
type lineChecker struct {
	src      source
	b        *domain.Budget
	imported map[string]bool // banks whose edition was found
	seen     map[string]string
}

func newLineChecker(tx Tx, p domain.Principal, b *domain.Budget, imported map[string]bool) *lineChecker {
	return &lineChecker{src: source{tx: tx, companyID: p.CompanyID}, b: b, imported: imported, seen: map[string]string{}}
}

// check returns an EINVALID error on ptr+"/code" when the line n names
// nothing; nil for a stage, or a line whose bank or code is itself invalid
// (Validate names those).
func (lc *lineChecker) check(n *domain.BudgetNode, ptr string) error {
	if !n.Kind.IsLine() || n.Code == "" {
		return nil
	}
	if n.Bank != domain.BankMyBase && !lc.imported[n.Bank] {
		return nil
	}
	key := string(n.Kind) + "\x00" + n.Bank + "\x00" + n.Code
	msg, ok := lc.seen[key]
	if !ok {
		var err error
		if msg, err = lc.lookup(n); err != nil {
			return err
		}
		lc.seen[key] = msg
	}
	if msg != "" {
		return domain.FieldErrorf(ptr+"/code", "%s", msg)
	}
	return nil
}

// lookup says what is wrong with a line's code ("" when nothing is).
func (lc *lineChecker) lookup(n *domain.BudgetNode) (string, error) {
	state := lc.b.State
	var err error
	switch {
	case n.Bank == domain.BankMyBase && n.Kind == domain.NodeComposition:
		if _, err = lc.src.OwnComposition(n.Code, state); isNotFound(err) {
			return "no own composition " + n.Code + " exists in " + state, nil
		}
	case n.Bank == domain.BankMyBase:
		var r *domain.Resource
		r, err = lc.src.OwnResource(n.Code)
		if isNotFound(err) {
			return "no own resource " + n.Code + " exists", nil
		}
		if err == nil {
			if _, ok := r.Locals[state]; !ok {
				return "resource " + n.Code + " has no price for " + state, nil
			}
		}
	default:
		ref, _ := lc.b.Bank(n.Bank)
		priced := true
		if n.Kind == domain.NodeComposition {
			var c *domain.BankComposition
			if c, err = lc.src.BankComposition(ref, n.Code); err == nil {
				priced = c.Priced(lc.b.Regime())
			}
		} else {
			var r *domain.BankResource
			if r, err = lc.src.BankResource(ref, n.Code); err == nil {
				priced = r.Priced(lc.b.Regime())
			}
		}
		if isNotFound(err) {
			return string(n.Kind) + " " + n.Code + " does not exist in " + editionName(ref), nil
		}
		if err == nil && !priced {
			return string(n.Kind) + " " + n.Code + " has no " + regimeName(lc.b.Regime()) + " price in " + editionName(ref) +
				", the regime this budget is priced in", nil
		}
	}
	return "", err
}

// saveBudget stores b and returns it priced.
func saveBudget(tx Tx, p domain.Principal, b *domain.Budget) (*domain.PricedBudget, error) {
	b.SortBanks()
	if err := tx.PutBudget(b); err != nil {
		return nil, err
	}
	pb, err := budgetPricer(tx, p).Price(b)
	if err != nil {
		return nil, err
	}
	return pb, pb.CheckBounds()
}

func budgetPricer(tx Tx, p domain.Principal) *domain.BudgetPricer {
	return domain.NewBudgetPricer(source{tx: tx, companyID: p.CompanyID})
}

// Budget returns one budget of the caller's company, priced.
func (s *Service) Budget(ctx context.Context, p domain.Principal, id string) (*domain.PricedBudget, error) {
	var out *domain.PricedBudget
	err := s.store.View(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, id)
		if err != nil {
			return err
		}
		out, err = budgetPricer(tx, p).Price(b)
		return err
	})
	return out, err
}

func (s *Service) budget(tx Tx, p domain.Principal, id string) (*domain.Budget, error) {
	b, err := tx.Budget(id)
	if err != nil {
		return nil, err
	}
	if err := inCompany(p, b.CompanyID, "budget", id); err != nil {
		return nil, err
	}
	return b, nil
}

// Budgets lists the budgets of the caller's company that match q, priced,
// in q's order (creation order by default), with the number that match.
// Filters: code, description, client, search (code, description or client;
// v1 `search`), location (alias state), tags (has the tag), created_after,
// created_before, updated_after, updated_before; sort fields: code,
// description, client, location (state), created_at, updated_at. Only the
// page asked for is priced. Returns EBADREQUEST for a bad query (see ListQuery).
func (s *Service) Budgets(ctx context.Context, p domain.Principal, q ListQuery) ([]*domain.PricedBudget, int, error) {
	sq, err := compileQuery(budgetList, q)
	if err != nil {
		return nil, 0, err
	}
	var out []*domain.PricedBudget
	var total int
	err = s.store.View(ctx, func(tx Tx) error {
		page, n, err := tx.Budgets(p.CompanyID, sq)
		if err != nil {
			return err
		}
		total = n
		bp := budgetPricer(tx, p)
		out = make([]*domain.PricedBudget, 0, len(page))
		for _, h := range page {
			// Only the budgets of the page are read in full.
			b, err := tx.Budget(h.ID)
			if err != nil {
				return err
			}
			pb, err := bp.Price(b)
			if err != nil {
				return err
			}
			out = append(out, pb)
		}
		return nil
	})
	return out, total, err
}

var budgetList = querySpec{
	filters: []queryFilter{
		codeFilter, descriptionFilter,
		{names: []string{"client"}, parse: containsIn(FieldClient)},
		{names: []string{"search"}, parse: containsIn(FieldCode, FieldDescription, FieldClient)},
		{names: []string{"location", "state"}, parse: equalFoldCond(FieldState, stateCode)},
		tagsFilter,
		createdAfter, createdBefore,
		{names: []string{"updated_after"}, parse: timeCond(AtOrAfter, FieldUpdatedAt)},
		{names: []string{"updated_before"}, parse: timeCond(Before, FieldUpdatedAt)},
	},
	sorts: []querySort{
		codeSort, descriptionSort,
		{names: []string{"client"}, field: FieldClient},
		{names: []string{"location", "state"}, field: FieldState},
		createdSort,
		{names: []string{"updated_at"}, field: FieldUpdatedAt},
	},
}

// DeleteBudget deletes a budget of the caller's company.
func (s *Service) DeleteBudget(ctx context.Context, p domain.Principal, id string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, id)
		if err != nil {
			return err
		}
		if err := deleteSchedule(tx, b); err != nil {
			return err
		}
		return tx.DeleteBudget(b.ID)
	})
}

// NodePlace says where a node goes: into the stage ParentID ("" for the top
// level of the budget), at Position among its siblings, counted from 0 (nil:
// after the last). A move counts positions once the node has left its old
// place.
type NodePlace struct {
	ParentID string
	Position *int
}

// pos returns the position for domain.Budget (-1: last), or EINVALID on
// "/position" for a negative one.
func (pl NodePlace) pos() (int, error) {
	if pl.Position == nil {
		return -1, nil
	}
	if *pl.Position < 0 {
		return 0, domain.FieldErrorf("/position", "must not be negative")
	}
	return *pl.Position, nil
}

// editBudget runs one change of a budget's tree in a write transaction and
// returns the budget priced.
func (s *Service) editBudget(ctx context.Context, p domain.Principal, id string, change func(tx Tx, b *domain.Budget) error) (*domain.PricedBudget, error) {
	var out *domain.PricedBudget
	err := s.store.Update(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, id)
		if err != nil {
			return err
		}
		if err := change(tx, b); err != nil {
			return err
		}
		b.UpdatedAt = s.now()
		out, err = saveBudget(tx, p, b)
		return err
	})
	return out, err
}

// AddBudgetNode adds a stage (with what it holds) or a line to a budget and
// returns the budget priced and the ID of the new node. Field errors are
// named from the node as sent ("/code", "/items/0/quantity") and from the
// place ("/parent_id", "/position"): a parent that is not a stage of the
// budget, a position past the end, a line whose code does not exist, a node
// nested deeper than Config.MaxBudgetDepth; a budget that would hold more
// than Config.MaxBudgetLines lines is a plain EINVALID error. Nothing
// changes on an error.
func (s *Service) AddBudgetNode(ctx context.Context, p domain.Principal, budgetID string, at NodePlace, in NodeInput) (*domain.PricedBudget, string, error) {
	var nodeID string
	out, err := s.editBudget(ctx, p, budgetID, func(tx Tx, b *domain.Budget) error {
		pos, err := at.pos()
		if err != nil {
			return err
		}
		nodeID, err = b.AddNode(at.ParentID, pos, in.node())
		if err != nil {
			return err
		}
		imported := map[string]bool{}
		for _, ref := range b.Banks {
			imported[ref.Name] = true // checked when the budget was saved
		}
		lc := newLineChecker(tx, p, b, imported)
		n, _ := b.Node(nodeID)
		var v domain.Validation
		var walk func(n *domain.BudgetNode, ptr string) error
		walk = func(n *domain.BudgetNode, ptr string) error {
			if err := v.Merge("", lc.check(n, ptr)); err != nil {
				return err
			}
			for i := range n.Items {
				if err := walk(&n.Items[i], ptr+"/items/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
			return nil
		}
		if err := walk(n, ""); err != nil {
			return err
		}
		// The caps: a node too deep is named from the node as sent; too
		// many lines is the budget's, a plain error that names no field
		// (which Merge would drop).
		caps := s.budgetLimits().Check(b, pointerOf(b, nodeID), "")
		if caps != nil && len(domain.ErrorFields(caps)) == 0 {
			return caps
		}
		if err := v.Merge("", caps); err != nil {
			return err
		}
		return v.Err()
	})
	if err != nil {
		return nil, "", err
	}
	return out, nodeID, nil
}

// MoveBudgetNode moves a node of a budget (with what it holds) to another
// place. Returns ENOTFOUND for a node not in the budget, EINVALID on
// "/parent_id" for a parent that is not a stage of the budget or is the node
// itself or inside it or would nest it deeper than Config.MaxBudgetDepth,
// and on "/position" for a position past the end.
func (s *Service) MoveBudgetNode(ctx context.Context, p domain.Principal, budgetID, nodeID string, to NodePlace) (*domain.PricedBudget, error) {
	return s.editBudget(ctx, p, budgetID, func(_ Tx, b *domain.Budget) error {
		return moveNode(b, nodeID, to, s.budgetLimits())
	})
}

// moveNode moves the node, and refuses (EINVALID on "/parent_id") a move
// that would nest it, or what it holds, deeper than the cap.
func moveNode(b *domain.Budget, nodeID string, to NodePlace, limits domain.BudgetLimits) error {
	pos, err := to.pos()
	if err != nil {
		return err
	}
	if err := b.MoveNode(nodeID, to.ParentID, pos); err != nil {
		return err
	}
	limits.Lines = 0 // a move adds no line
	if err := limits.Check(b, pointerOf(b, nodeID), ""); err != nil {
		return domain.FieldErrorf("/parent_id", "the node or what it holds would be nested more than %d levels deep, lines included", limits.Depth)
	}
	return nil
}

// NodePatch changes one node: a stage's description, or a line's quantity;
// nil fields stay.
type NodePatch struct {
	Description *string
	Quantity    *decimal.Decimal
}

// UpdateBudgetNode changes a node of a budget. Returns ENOTFOUND for a node
// not in the budget, and EINVALID on "/description" for a line (its
// description comes from what it names), on "/quantity" for a stage, and
// for a bad value.
func (s *Service) UpdateBudgetNode(ctx context.Context, p domain.Principal, budgetID, nodeID string, patch NodePatch) (*domain.PricedBudget, error) {
	return s.editBudget(ctx, p, budgetID, func(_ Tx, b *domain.Budget) error {
		return patchNode(b, nodeID, patch)
	})
}

func patchNode(b *domain.Budget, nodeID string, patch NodePatch) error {
	n, ok := b.Node(nodeID)
	if !ok {
		return notFound("budget node", nodeID)
	}
	var v domain.Validation
	if patch.Description != nil {
		if n.Kind.IsLine() {
			v.Add("/description", "a line takes its description from its composition or resource")
		} else {
			n.Description = strings.TrimSpace(*patch.Description)
		}
	}
	if patch.Quantity != nil {
		if n.Kind.IsLine() {
			n.Quantity = *patch.Quantity
		} else {
			v.Add("/quantity", "a stage has no quantity")
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	alone := *n
	alone.Items = nil
	return b.ValidateNode(&alone, "")
}

// RemoveBudgetNode removes a node of a budget and what it holds, and
// returns the budget priced and the ID of the stage that held the node (""
// for the top level), whose new subtotals are PricedBudget.NodeReport. Returns
// ENOTFOUND for a node not in the budget.
func (s *Service) RemoveBudgetNode(ctx context.Context, p domain.Principal, budgetID, nodeID string) (*domain.PricedBudget, string, error) {
	var parent string
	pb, err := s.editBudget(ctx, p, budgetID, func(_ Tx, b *domain.Budget) error {
		if _, ok := b.Node(nodeID); !ok {
			return notFound("budget node", nodeID)
		}
		parent = parentOf(b, nodeID)
		return b.RemoveNode(nodeID)
	})
	if err != nil {
		return nil, "", err
	}
	return pb, parent, nil
}

// BudgetNode returns one node of a budget of the caller's company with its
// figures (a line's unit prices and totals, a stage's subtotals and its
// children's rows) and the budget's totals. Returns ENOTFOUND for a budget
// outside the company and for a node not in the budget.
func (s *Service) BudgetNode(ctx context.Context, p domain.Principal, budgetID, nodeID string) (*domain.NodeReport, error) {
	pb, err := s.Budget(ctx, p, budgetID)
	if err != nil {
		return nil, err
	}
	n, ok := pb.NodeReport(nodeID)
	if !ok {
		return nil, notFound("budget node", nodeID)
	}
	return n, nil
}

// report reads one budget of the caller's company and computes a report of
// it, in one read transaction.
func report[T any](ctx context.Context, s *Service, p domain.Principal, id string, compute func(*domain.BudgetPricer, *domain.Budget) (T, error)) (T, error) {
	if n, ok := versionOf(ctx); ok {
		// A frozen version's report (versions.go, WithVersion).
		out, _, err := VersionReport(ctx, s, p, id, n, compute)
		if err == nil {
			interruptOnDone(ctx, out)
		}
		return out, err
	}
	var out T
	err := s.store.View(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, id)
		if err != nil {
			return err
		}
		out, err = compute(budgetPricer(tx, p), b)
		return err
	})
	if err == nil {
		interruptOnDone(ctx, out)
	}
	return out, err
}

// SyntheticReport returns the synthetic report of a budget of the caller's
// company: one row per stage and line with its figures, and the footer
// (domain.BudgetPricer.Synthetic).
func (s *Service) SyntheticReport(ctx context.Context, p domain.Principal, id string) (*domain.SyntheticReport, error) {
	return answerable(report(ctx, s, p, id, (*domain.BudgetPricer).Synthetic))
}

// SyntheticReportStream is SyntheticReport for an answer written as it
// goes: the report's footer, missing list and bounds verdict are computed
// here, in one read transaction, and its rows are handed out by its Each
// afterwards, priced again one by one (domain.BudgetPricer.SyntheticStream),
// so that the rows are never all held. A frozen version is computed from
// the version, as SyntheticReport.
func (s *Service) SyntheticReportStream(ctx context.Context, p domain.Principal, id string) (*domain.SyntheticReport, error) {
	return answerable(streamedReport(ctx, s, p, id, s.SyntheticReport, (*domain.BudgetPricer).SyntheticStream))
}

// AnalyticReportStream is AnalyticReport for an answer written as it goes,
// as SyntheticReportStream (domain.BudgetPricer.AnalyticStream).
func (s *Service) AnalyticReportStream(ctx context.Context, p domain.Principal, id string) (*domain.AnalyticReport, error) {
	return answerable(streamedReport(ctx, s, p, id, s.AnalyticReport, (*domain.BudgetPricer).AnalyticStream))
}

// streamedReport computes a report with stream over the budget's tree as
// the store walks it (budgetStream), in one read transaction; and by
// version for a frozen version.
func streamedReport[T any](ctx context.Context, s *Service, p domain.Principal, id string,
	version func(context.Context, domain.Principal, string) (T, error),
	stream func(*domain.BudgetPricer, *domain.Budget, domain.NodeWalk) (T, error)) (T, error) {
	if _, ok := versionOf(ctx); ok {
		out, err := version(ctx, p, id)
		if err == nil {
			interruptOnDone(ctx, out)
		}
		return out, err
	}
	var out T
	err := s.store.View(ctx, func(tx Tx) error {
		b, walk, err := s.budgetStream(tx, p, id)
		if err != nil {
			return err
		}
		out, err = stream(budgetPricer(tx, p), b, walkUntilDone(ctx, walk))
		return err
	})
	if err == nil {
		interruptOnDone(ctx, out)
	}
	return out, err
}

// walkEvery is how many nodes a streamed report's first pass visits
// between two looks at its context.
const walkEvery = 256

// walkUntilDone is walk stopping with the context's error once ctx is done
// (the client gone): it looks every walkEvery nodes, so that a long first
// pass stops soon after.
func walkUntilDone(ctx context.Context, walk domain.NodeWalk) domain.NodeWalk {
	if ctx.Done() == nil {
		return walk
	}
	return func(visit func(*domain.BudgetNode, int) error) error {
		n := 0
		return walk(func(node *domain.BudgetNode, depth int) error {
			if n%walkEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			n++
			return visit(node, depth)
		})
	}
}

// interruptOnDone makes a report's second pass (its Each) stop with the
// context's error once ctx is done (domain.SyntheticReport.Interrupt); the
// report must not be nil.
func interruptOnDone(ctx context.Context, report any) {
	if r, ok := report.(interface{ Interrupt(func() error) }); ok && ctx.Done() != nil {
		r.Interrupt(ctx.Err)
	}
}

// budgetStream reads a budget of the caller's company for a streamed
// report: through the store's BudgetStreamer when it has one, else whole
// (its walk then walks the tree in memory).
func (s *Service) budgetStream(tx Tx, p domain.Principal, id string) (*domain.Budget, domain.NodeWalk, error) {
	bs, ok := Optional[BudgetStreamer](tx)
	if !ok {
		b, err := s.budget(tx, p, id)
		if err != nil {
			return nil, nil, err
		}
		return b, b.Walk, nil
	}
	b, walk, err := bs.BudgetStream(id)
	if err != nil {
		return nil, nil, err
	}
	if err := inCompany(p, b.CompanyID, "budget", id); err != nil {
		return nil, nil, err
	}
	return b, walk, nil
}

// AnalyticReport returns the analytic report with unit prices of a budget
// of the caller's company: the synthetic rows, each composition line opened
// into its items, and summaries per resource category
// (domain.BudgetPricer.Analytic).
func (s *Service) AnalyticReport(ctx context.Context, p domain.Principal, id string) (*domain.AnalyticReport, error) {
	return answerable(report(ctx, s, p, id, (*domain.BudgetPricer).Analytic))
}

// ABCReport returns the ABC curve of the resources of a budget of the
// caller's company (domain.BudgetPricer.ABC). Zero limits take the defaults
// (50, 80); others must satisfy 0 < A < B ≤ 100, else EINVALID on
// "abcLimits".
func (s *Service) ABCReport(ctx context.Context, p domain.Principal, id string, limits domain.ABCLimits) (*domain.ABCReport, error) {
	// The tree is walked, not held (budgetStream): the curve's rows are the
	// distinct resources, whatever the number of lines.
	whole := func(bp *domain.BudgetPricer, b *domain.Budget) (*domain.ABCReport, error) { return bp.ABC(b, limits) }
	return answerable(streamedReport(ctx, s, p, id,
		func(ctx context.Context, p domain.Principal, id string) (*domain.ABCReport, error) {
			return report(ctx, s, p, id, whole)
		},
		func(bp *domain.BudgetPricer, b *domain.Budget, walk domain.NodeWalk) (*domain.ABCReport, error) {
			return bp.ABCWalk(b, walk, limits)
		}))
}

// figured is a report answerable checks.
type figured interface {
	comparable
	FiguresOut() bool
}

// answerable is a report as the use cases hand it out: a conflict
// (domain.ErrFiguresOut) when one of its figures, or of its budget's own,
// is out of the bounds an answer can show, whatever the format.
func answerable[R figured](rep R, err error) (R, error) {
	var none R
	if err == nil && rep != none && rep.FiguresOut() {
		return none, domain.ErrFiguresOut()
	}
	return rep, err
}

// budgetsUsing names the company's budgets with a line of the own base of
// the kind and code (for a composition, in its state).
func budgetsUsing(tx Tx, p domain.Principal, kind domain.ItemKind, code, state string) ([]string, error) {
	// listNames shows the first few users: read no more than that.
	using := Query{Where: []Cond{{Op: Uses, Item: UsedItem{Kind: kind, Code: code, State: state}}}, Limit: maxNames + 1}
	bs, _, err := tx.Budgets(p.CompanyID, using)
	if err != nil {
		return nil, err
	}
	var users []string
	for _, b := range bs {
		users = append(users, b.Code)
	}
	return users, nil
}
