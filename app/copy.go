package app

import (
	"context"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
)

// CopyInput asks for a bank composition to be copied into the caller's own
// base (docs/decisions.md, "Copy and duplicate").
type CopyInput struct {
	EditionID string // the bank edition (EditionID: "SINAPI-MG-2026-08")
	Code      string // the bank composition's code
	NewCode   string // the copy's code, required
	Deep      bool   // copy the sub-compositions too
	GroupID   string // the group of the copies ("" none)
}

// Copied is the result of a copy or a duplicate: the new composition
// priced, and every composition created (the root first).
type Copied struct {
	Root    *domain.PricedComposition
	Created []*domain.Composition
}

// SubCopyCode is the code a deep copy gives the copy of a sub-composition:
// the root copy's code, a dot and the sub-composition's bank code
// ("MINHA-89306.88309"). A sub-composition met several times in the tree is
// copied once.
func SubCopyCode(rootCode, bankCode string) string { return rootCode + "." + bankCode }

// CopyBankComposition copies a composition of a bank edition into the
// caller's own base, in the edition's state, as an editable own composition
// with the code NewCode: same description, unit and class, the edition as
// its bank, and the bank's published structure as its items (resources and
// sub-compositions of that edition, each with its coefficient), so that it
// prices like the bank's composition. A composition whose structure the
// edition does not publish (SICRO's synthetic report, say) is copied with one
// item: the bank composition itself, coefficient 1. Deep also copies every
// sub-composition whose structure the edition publishes, recursively, as own
// compositions coded by SubCopyCode, and the copies name each other (bank
// MYBASE); one without a published structure stays a bank item. Everything
// is created or nothing: EINVALID on "/code" names every code already taken
// in the state; ENOTFOUND for an unknown edition or composition.
func (s *Service) CopyBankComposition(ctx context.Context, p domain.Principal, in CopyInput) (*Copied, error) {
	var out *Copied
	err := s.store.Update(ctx, func(tx Tx) error {
		ref, ok := ParseEditionID(in.EditionID)
		if !ok {
			return domain.Errorf(domain.ENOTFOUND, "no bank edition %q", in.EditionID)
		}
		ed, err := tx.Edition(ref.EditionKey())
		if err != nil {
			return err
		}
		ref = ed.Ref()
		newCode := strings.TrimSpace(in.NewCode)
		if newCode == "" {
			return domain.FieldErrorf("/code", "is required: the code of the copy in the own base")
		}
		now := s.now()
		cp := &copier{tx: tx, p: p, ref: ref, ed: ed, root: newCode, deep: in.Deep, group: in.GroupID,
			now: now, copies: map[string]*domain.Composition{}, visiting: map[string]bool{}}
		root, err := cp.copy(strings.TrimSpace(in.Code), newCode)
		if err != nil {
			return err
		}
		var v domain.Validation
		for _, c := range cp.order {
			if err := checkComposition(tx, p, c); err != nil {
				if err := v.Merge("", err); err != nil {
					return err
				}
			}
		}
		if err := v.Err(); err != nil {
			return dedupeFields(err)
		}
		for _, c := range cp.order {
			if err := tx.PutComposition(c); err != nil {
				return err
			}
		}
		pc, err := price(tx, p, root)
		if err != nil {
			return err
		}
		if err := pc.CheckBounds(); err != nil {
			return err
		}
		out = &Copied{Root: pc, Created: cp.order}
		return nil
	})
	return out, err
}

// dedupeFields drops repeated field errors (one per copy could name the
// same field with the same message).
func dedupeFields(err error) error {
	e, ok := err.(*domain.Error)
	if !ok {
		return err
	}
	seen := map[domain.FieldError]bool{}
	var fs []domain.FieldError
	for _, f := range e.Fields {
		if !seen[f] {
			seen[f] = true
			fs = append(fs, f)
		}
	}
	e.Fields = fs
	return e
}

type copier struct {
	tx       Tx
	p        domain.Principal
	ref      domain.BankRef
	ed       *domain.Edition
	root     string
	deep     bool
	group    string
	now      time.Time
	copies   map[string]*domain.Composition // by bank code
	visiting map[string]bool
	order    []*domain.Composition
}

// copy copies the bank composition code as an own composition with the
// code own, and (deep) its sub-compositions.
func (cp *copier) copy(code, own string) (*domain.Composition, error) {
	if c, ok := cp.copies[code]; ok {
		return c, nil
	}
	if cp.visiting[code] {
		return nil, domain.Errorf(domain.ECONFLICT, "composition %s of %s contains itself: it cannot be copied", code, cp.ref.Label())
	}
	cp.visiting[code] = true
	defer delete(cp.visiting, code)
	bc, err := cp.tx.BankComposition(cp.ref.EditionKey(), code)
	if isNotFound(err) {
		return nil, domain.Errorf(domain.ENOTFOUND, "no composition %s in %s", code, cp.ref.Label())
	}
	if err != nil {
		return nil, err
	}
	c := &domain.Composition{
		ID: cp.newID(), CreatedAt: cp.now, CompanyID: cp.p.CompanyID, UserID: cp.p.UserID, DepartmentID: cp.p.DepartmentID, GroupID: cp.group,
		Code: own, Description: bc.Description, Unit: bc.Unit, State: cp.ref.State,
		Rounding: domain.DefaultRounding(isSicroBank(cp.ref.Name)),
		Note:     "Copied from " + cp.ref.Label() + " composition " + bc.Code + ".",
		Banks:    []domain.BankRef{cp.ref},
	}
	if domain.ValidCompositionClass(strings.ToUpper(bc.Class)) {
		c.Type = strings.ToUpper(bc.Class)
	}
	cp.copies[code] = c
	cp.order = append(cp.order, c)
	if len(bc.Items) == 0 {
		c.Items = []domain.Item{{Bank: cp.ref.Name, Code: bc.Code, Kind: domain.KindComposition, Quantity: domain.Dec("1")}}
		return c, nil
	}
	for _, it := range bc.Items {
		item := domain.Item{Bank: cp.ref.Name, Code: it.Code, Kind: it.Kind, Quantity: it.Coefficient}
		if cp.deep && it.Kind == domain.KindComposition {
			sub, err := cp.tx.BankComposition(cp.ref.EditionKey(), it.Code)
			if err != nil && !isNotFound(err) {
				return nil, err
			}
			if err == nil && len(sub.Items) > 0 {
				sc, err := cp.copy(it.Code, SubCopyCode(cp.root, it.Code))
				if err != nil {
					return nil, err
				}
				item = domain.Item{Bank: domain.BankMyBase, Code: sc.Code, Kind: domain.KindComposition, Quantity: it.Coefficient}
			}
		}
		c.Items = append(c.Items, item)
	}
	return c, nil
}

func (cp *copier) newID() string { return NewID(cp.now) }

func isSicroBank(name string) bool { return strings.HasPrefix(name, "SICRO") }

// DuplicateComposition copies an own composition of the caller's company
// (fields, banks and items) under a new code, in the same state or in
// state when given. EINVALID on "/code" for a code taken in that state, and
// the checks of a state move (own items must be priced there).
func (s *Service) DuplicateComposition(ctx context.Context, p domain.Principal, id, newCode, state string) (*Copied, error) {
	var out *Copied
	err := s.store.Update(ctx, func(tx Tx) error {
		src, err := s.composition(tx, p, id)
		if err != nil {
			return err
		}
		now := s.now()
		c := *src
		c.ID, c.UserID, c.DepartmentID, c.CreatedAt = NewID(now), p.UserID, p.DepartmentID, now
		c.Code = strings.TrimSpace(newCode)
		if c.Code == "" {
			return domain.FieldErrorf("/code", "is required: the code of the duplicate")
		}
		if st := strings.ToUpper(strings.TrimSpace(state)); st != "" {
			c.State = st
		}
		c.Banks = append([]domain.BankRef(nil), src.Banks...)
		c.Items = append([]domain.Item(nil), src.Items...)
		if err := checkComposition(tx, p, &c); err != nil {
			return err
		}
		if c.State != src.State {
			if err := ownItemsPriced(tx, p, &c); err != nil {
				return err
			}
		}
		if err := tx.PutComposition(&c); err != nil {
			return err
		}
		pc, err := price(tx, p, &c)
		if err != nil {
			return err
		}
		if err := pc.CheckBounds(); err != nil {
			return err
		}
		out = &Copied{Root: pc, Created: []*domain.Composition{&c}}
		return nil
	})
	return out, err
}

// DuplicateBudget copies a budget of the caller's company (its tree with
// the same node ids, banks, regime, BDI with its components, differentiated
// BDI and supply lines) under a new code, and returns the copy priced.
// Description, when not empty, replaces the copy's. EINVALID on "/code" for
// a code the company uses.
func (s *Service) DuplicateBudget(ctx context.Context, p domain.Principal, id, newCode, description string) (*domain.PricedBudget, error) {
	var out *domain.PricedBudget
	err := s.store.Update(ctx, func(tx Tx) error {
		src, err := s.budget(tx, p, id)
		if err != nil {
			return err
		}
		now := s.now()
		b := src.Clone()
		b.ID, b.UserID, b.DepartmentID, b.CreatedAt, b.UpdatedAt = NewID(now), p.UserID, p.DepartmentID, now, now
		b.Code = newCode
		if d := strings.TrimSpace(description); d != "" {
			b.Description = d
		}
		if err := checkBudget(tx, p, b, false); err != nil {
			return err
		}
		out, err = saveBudget(tx, p, b)
		return err
	})
	return out, err
}
