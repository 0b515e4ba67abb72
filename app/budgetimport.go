package app

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// A budget from a tender's spreadsheet (docs/budgets.md, "A budget from a
// tender's spreadsheet"): the stages and lines an adapter read from it,
// each line matched to the editions the request names (a composition of
// the edition, else a resource), then created as one budget by
// CreateBudget (one transaction, every rule of a budget applied).

// SheetStage is a stage read from a sheet: its row, item number, parent's
// number ("" at the top) and title.
type SheetStage struct {
	Row                         int
	Number, Parent, Description string
}

// SheetLine is a line read from a sheet: its unit price (HasPrice when
// the sheet gives one) prices it when it is imported unmatched.
type SheetLine struct {
	Row                                          int
	Number, Stage, Bank, Code, Description, Unit string
	Quantity, UnitPrice                          decimal.Decimal
	HasPrice                                     bool
}

// Unmatched lines: refused (the default) or imported as own priced lines.
const (
	UnmatchedRefuse = "refuse"
	UnmatchedOwn    = "own"
)

// ValidUnmatched reports whether mode is one of the unmatched modes ("" is
// UnmatchedRefuse).
func ValidUnmatched(mode string) bool {
	return mode == "" || mode == UnmatchedRefuse || mode == UnmatchedOwn
}

// UnmatchedTag is the tag of an own resource created for a sheet's
// unmatched line.
const UnmatchedTag = "unmatched"

// SheetImport is what a sheet import creates: the budget's header (Items
// ignored), the sheet's stages and lines, what becomes of a line that
// matches no record (Unmatched: UnmatchedRefuse or UnmatchedOwn), whether
// the sheet's prices include the tender's BDI (PriceWithBDI: then no line
// can be priced from them) and whether it only answers the report
// (DryRun).
type SheetImport struct {
	Budget       BudgetInput
	Stages       []SheetStage
	Lines        []SheetLine
	Unmatched    string
	PriceWithBDI bool
	DryRun       bool
}

// SheetMatch is how a line was matched. An unmatched line imported as an
// own priced line has Unmatched set, the reason it matched nothing, and
// the own resource's code (created, or to be created on a dry run).
type SheetMatch struct {
	Row                 int
	Number              string
	Kind                domain.NodeKind
	Bank, Code, Edition string
	Unmatched           bool
	Reason              string
}

// ImportBudgetSheet matches every line of the sheet to the request's
// editions: its bank (the sheet's bank column, or the request's only
// edition when the column is absent or empty) must be one of them, and its
// code a composition or a resource of that edition; a line whose bank
// column names the own base ("Próprio"…, ownBank) is matched to the
// company's own composition of the budget's state, else its own resource.
//
// A line that matches nothing is refused (EINVALID, pointer
// "/rows/<row>", every line at once, nothing written), or with
// UnmatchedOwn becomes an own priced line: an own resource of type
// Serviços, code "<budget code>-<item>" (suffixed when taken), the
// sheet's description, unit and unit price in the budget's state for both
// regimes, its code as the second code, tagged UnmatchedTag; a line
// without a unit price, or with only prices with BDI, cannot be one and
// is refused. Unless DryRun, the resources and the budget (CreateBudget's
// rules, the sheet's stages and lines in the sheet's order) are written
// in one transaction, matched in it.
func (s *Service) ImportBudgetSheet(ctx context.Context, p domain.Principal, in SheetImport) ([]SheetMatch, *domain.PricedBudget, error) {
	if !ValidUnmatched(in.Unmatched) {
		return nil, nil, domain.Errorf(domain.EINVALID, "unmatched must be %s or %s", UnmatchedRefuse, UnmatchedOwn)
	}
	var matches []SheetMatch
	var out *domain.PricedBudget
	run := func(tx Tx) error {
		var err error
		matches, err = s.matchSheet(tx, p, in)
		if err != nil || in.DryRun {
			return err
		}
		now := s.now()
		state := strings.ToUpper(strings.TrimSpace(in.Budget.State))
		var own []*domain.Resource
		var v domain.Validation // every unmatched line a resource cannot be made of
		for i, m := range matches {
			if !m.Unmatched {
				continue
			}
			l := in.Lines[i]
			r := &domain.Resource{ID: NewID(now), CompanyID: p.CompanyID, UserID: p.UserID, DepartmentID: p.DepartmentID, CreatedAt: now}
			ResourceInput{Code: m.Code, SecondCode: strings.TrimSpace(l.Code), Description: l.Description,
				Type: domain.TypeServices, Unit: l.Unit, Status: true, Tags: []string{UnmatchedTag},
				Note:   fmt.Sprintf("Imported with budget %s from its sheet (row %d, item %s): %s", in.Budget.Code, l.Row, l.Number, m.Reason),
				Locals: map[string]domain.PriceLine{state: {PND: l.UnitPrice, PD: l.UnitPrice}}}.apply(r)
			if err := v.Merge("/rows/"+strconv.Itoa(l.Row), checkResource(tx, p, r)); err != nil {
				return err
			}
			own = append(own, r)
		}
		if err := v.Err(); err != nil {
			return err
		}
		for _, r := range own {
			if err := tx.PutResource(r); err != nil {
				return err
			}
		}
		b := in.Budget
		b.Items = sheetTree(in.Stages, in.Lines, matches)
		out, err = s.createBudget(tx, p, b)
		return err
	}
	var err error
	if in.DryRun {
		err = s.store.View(ctx, run)
	} else {
		err = s.store.Update(ctx, run)
	}
	if err != nil {
		return nil, nil, err
	}
	return matches, out, nil
}

// matchSheet matches every line (ImportBudgetSheet), naming at once every
// line it cannot match or import.
func (s *Service) matchSheet(tx Tx, p domain.Principal, in SheetImport) ([]SheetMatch, error) {
	refs := bankRefs(in.Budget.Banks)
	state := strings.ToUpper(strings.TrimSpace(in.Budget.State))
	var matches []SheetMatch
	var v domain.Validation
	taken := map[string]bool{} // own codes given to this sheet's unmatched lines
	for _, l := range in.Lines {
		ptr := "/rows/" + strconv.Itoa(l.Row)
		m, reason, err := matchLine(tx, p, refs, state, l)
		if err != nil {
			return nil, err
		}
		if reason == "" {
			matches = append(matches, m)
			continue
		}
		switch {
		case in.Unmatched != UnmatchedOwn: // "" refuses too
			v.Add(ptr, "%s", reason)
			continue
		case !l.HasPrice:
			v.Add(ptr, "%s; it has no unit price to be imported as an own priced line", reason)
			continue
		case in.PriceWithBDI:
			v.Add(ptr, "%s; the sheet's unit prices include BDI, and an own priced line needs its price without BDI (a column titled sem BDI)", reason)
			continue
		}
		code, err := freeOwnCode(tx, p, taken, in.Budget.Code+"-"+l.Number)
		if err != nil {
			return nil, err
		}
		matches = append(matches, SheetMatch{Row: l.Row, Number: l.Number, Kind: domain.NodeResource, Bank: domain.BankMyBase,
			Code: code, Edition: "MYBASE", Unmatched: true, Reason: reason})
	}
	return matches, v.Err()
}

// matchLine matches one line; reason says why it matches nothing.
func matchLine(tx Tx, p domain.Principal, refs []domain.BankRef, state string, l SheetLine) (SheetMatch, string, error) {
	code := strings.TrimSpace(l.Code)
	if ownBank(l.Bank) {
		// The company's own base: a composition of the budget's state,
		// else a resource, by code.
		m := SheetMatch{Row: l.Row, Number: l.Number, Code: code, Edition: "MYBASE"}
		if _, err := tx.CompositionByCode(p.CompanyID, code, state); err == nil {
			m.Kind = domain.NodeComposition
		} else if !isNotFound(err) {
			return m, "", err
		} else if _, err := tx.ResourceByCode(p.CompanyID, code); err == nil {
			m.Kind = domain.NodeResource
		} else if !isNotFound(err) {
			return m, "", err
		} else {
			return m, fmt.Sprintf("item %s: code %s is in no record of the company's own base", l.Number, code), nil
		}
		return m, "", nil
	}
	bank := domain.NormalizeBank(l.Bank)
	var ref *domain.BankRef
	for i := range refs {
		if refs[i].Name == bank || (bank == "" && len(refs) == 1) {
			ref = &refs[i]
		}
	}
	switch {
	case code == "":
		return SheetMatch{}, fmt.Sprintf("item %s has no code: a line is matched by its bank's code", l.Number), nil
	case ref == nil && bank == "":
		return SheetMatch{}, fmt.Sprintf("item %s names no bank and the request names %d editions: add the bank column", l.Number, len(refs)), nil
	case ref == nil:
		return SheetMatch{}, fmt.Sprintf("item %s: bank %s is not one of the request's editions", l.Number, l.Bank), nil
	}
	m := SheetMatch{Row: l.Row, Number: l.Number, Bank: ref.Name, Code: code, Edition: ref.Label()}
	if _, err := tx.BankComposition(ref.EditionKey(), code); err == nil {
		m.Kind = domain.NodeComposition
	} else if !isNotFound(err) {
		return m, "", err
	} else if _, err := tx.BankResource(ref.EditionKey(), code); err == nil {
		m.Kind = domain.NodeResource
	} else if !isNotFound(err) {
		return m, "", err
	} else {
		return m, fmt.Sprintf("item %s: code %s is in no record of %s", l.Number, code, ref.Label()), nil
	}
	return m, "", nil
}

// freeOwnCode is code, or code-2, code-3… : the first no own resource of
// the company holds and no other line of the sheet took.
func freeOwnCode(tx Tx, p domain.Principal, taken map[string]bool, code string) (string, error) {
	for n := 1; ; n++ {
		c := code
		if n > 1 {
			c = code + "-" + strconv.Itoa(n)
		}
		if taken[c] {
			continue
		}
		if _, err := tx.ResourceByCode(p.CompanyID, c); isNotFound(err) {
			taken[c] = true
			return c, nil
		} else if err != nil {
			return "", err
		}
	}
}

// ownBank reports whether a sheet's bank column names the company's own
// base ("Próprio", "Própria", "Composição própria", "MYBASE").
func ownBank(name string) bool {
	switch domain.IndexName(name) {
	case "PROPRIO", "PROPRIA", "BASE PROPRIA", "COMPOSICAO PROPRIA", "MYBASE":
		return true
	}
	return false
}

// sheetTree builds the budget's tree: stages nested by their parents,
// lines under their stages, in the sheet's order.
func sheetTree(stages []SheetStage, lines []SheetLine, matches []SheetMatch) []NodeInput {
	type node struct {
		in       NodeInput
		children []*node
	}
	var top []*node
	byNumber := map[string]*node{}
	attach := func(parent string, n *node) {
		if p, ok := byNumber[parent]; ok && parent != "" {
			p.children = append(p.children, n)
		} else {
			top = append(top, n)
		}
	}
	// Stages and lines in the sheet's row order.
	si, li := 0, 0
	for si < len(stages) || li < len(lines) {
		if li >= len(lines) || (si < len(stages) && stages[si].Row <= lines[li].Row) {
			st := stages[si]
			n := &node{in: NodeInput{Kind: domain.NodeStage, Description: st.Description}}
			byNumber[st.Number] = n
			attach(st.Parent, n)
			si++
			continue
		}
		l, m := lines[li], matches[li]
		attach(l.Stage, &node{in: NodeInput{Kind: m.Kind, Bank: m.Bank, Code: m.Code, Quantity: l.Quantity}})
		li++
	}
	var build func([]*node) []NodeInput
	build = func(ns []*node) []NodeInput {
		out := make([]NodeInput, len(ns))
		for i, n := range ns {
			out[i] = n.in
			out[i].Items = build(n.children)
		}
		return out
	}
	return build(top)
}
