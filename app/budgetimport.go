package app

import (
	"context"
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

// SheetLine is a line read from a sheet.
type SheetLine struct {
	Row                                    int
	Number, Stage, Bank, Code, Description string
	Quantity                               decimal.Decimal
}

// SheetImport is what a sheet import creates: the budget's header (Items
// ignored), the sheet's stages and lines, and whether it only answers the
// report (DryRun).
type SheetImport struct {
	Budget BudgetInput
	Stages []SheetStage
	Lines  []SheetLine
	DryRun bool
}

// SheetMatch is how a line was matched.
type SheetMatch struct {
	Row                 int
	Number              string
	Kind                domain.NodeKind
	Bank, Code, Edition string
}

// ImportBudgetSheet matches every line of the sheet to the request's
// editions: its bank (the sheet's bank column, or the request's only
// edition when the column is absent or empty) must be one of them, and its
// code a composition or a resource of that edition; a line whose bank
// column names the own base ("Próprio"…, ownBank) is matched to the
// company's own composition of the budget's state, else its own resource. Every line that cannot
// be matched is named at once (EINVALID, pointer "/rows/<row>"), nothing
// written. Otherwise, unless DryRun, the budget is created (CreateBudget)
// with the sheet's stages and lines, in the sheet's order.
func (s *Service) ImportBudgetSheet(ctx context.Context, p domain.Principal, in SheetImport) ([]SheetMatch, *domain.PricedBudget, error) {
	refs := bankRefs(in.Budget.Banks)
	var matches []SheetMatch
	var v domain.Validation
	err := s.store.View(ctx, func(tx Tx) error {
		for _, l := range in.Lines {
			ptr := "/rows/" + strconv.Itoa(l.Row)
			if ownBank(l.Bank) {
				// The company's own base: a composition of the budget's
				// state, else a resource, by code.
				code := strings.TrimSpace(l.Code)
				m := SheetMatch{Row: l.Row, Number: l.Number, Code: code, Edition: "MYBASE"}
				if _, err := tx.CompositionByCode(p.CompanyID, code, strings.ToUpper(strings.TrimSpace(in.Budget.State))); err == nil {
					m.Kind = domain.NodeComposition
				} else if !isNotFound(err) {
					return err
				} else if _, err := tx.ResourceByCode(p.CompanyID, code); err == nil {
					m.Kind = domain.NodeResource
				} else if !isNotFound(err) {
					return err
				} else {
					v.Add(ptr, "item %s: code %s is in no record of the company's own base", l.Number, code)
					continue
				}
				matches = append(matches, m)
				continue
			}
			bank := domain.NormalizeBank(l.Bank)
			var ref *domain.BankRef
			for i := range refs {
				if refs[i].Name == bank || (bank == "" && len(refs) == 1) {
					ref = &refs[i]
				}
			}
			switch {
			case strings.TrimSpace(l.Code) == "":
				v.Add(ptr, "item %s has no code: a line is matched by its bank's code", l.Number)
				continue
			case ref == nil && bank == "":
				v.Add(ptr, "item %s names no bank and the request names %d editions: add the bank column", l.Number, len(refs))
				continue
			case ref == nil:
				v.Add(ptr, "item %s: bank %s is not one of the request's editions", l.Number, l.Bank)
				continue
			}
			code := strings.TrimSpace(l.Code)
			m := SheetMatch{Row: l.Row, Number: l.Number, Bank: ref.Name, Code: code, Edition: ref.Label()}
			if _, err := tx.BankComposition(ref.EditionKey(), code); err == nil {
				m.Kind = domain.NodeComposition
			} else if !isNotFound(err) {
				return err
			} else if _, err := tx.BankResource(ref.EditionKey(), code); err == nil {
				m.Kind = domain.NodeResource
			} else if !isNotFound(err) {
				return err
			} else {
				v.Add(ptr, "item %s: code %s is in no record of %s", l.Number, code, ref.Label())
				continue
			}
			matches = append(matches, m)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if err := v.Err(); err != nil {
		return nil, nil, err
	}
	if in.DryRun {
		return matches, nil, nil
	}
	b := in.Budget
	b.Items = sheetTree(in.Stages, in.Lines, matches)
	pb, err := s.CreateBudget(ctx, p, b)
	return matches, pb, err
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
