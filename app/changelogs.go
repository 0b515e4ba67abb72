package app

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/costdb/costdb/domain"
)

// Reference banks' change logs (Caixa's monthly manutenções): the log is
// reference data, shared by every company like the bank editions; the
// "where used" answer reads only the caller's company's own records.

func changeLogTx(tx Tx) (ChangeLogTx, error) {
	c, ok := Optional[ChangeLogTx](tx)
	if !ok {
		return nil, domain.Errorf(domain.EINTERNAL, "this store keeps no change logs")
	}
	return c, nil
}

// ChangeMonthSummary tells what an import wrote for one month.
type ChangeMonthSummary struct {
	Bank    string
	Month   string
	Changes int
}

// ImportChangeLog stores a bank's change log: its lines grouped by their
// month, each month's log replacing the one stored before, all in one
// transaction. Every bad line is reported at once and nothing is written.
func (s *Service) ImportChangeLog(ctx context.Context, bank string, changes []domain.BankChange) ([]ChangeMonthSummary, error) {
	bank = strings.ToUpper(strings.TrimSpace(bank))
	var v domain.Validation
	if bank == "" {
		v.Add("/bank", "is required")
	}
	byMonth := map[string][]domain.BankChange{}
	var months []string
	for i, ch := range changes {
		at := fmt.Sprintf("/changes/%d", i)
		if !domain.ValidMonth(ch.Month) {
			v.Add(at+"/month", "must be a month MM/YYYY")
		}
		if strings.TrimSpace(ch.Code) == "" {
			v.Add(at+"/code", "is required")
		}
		if !domain.ValidChangeKind(ch.Kind) {
			v.Add(at+"/kind", "is not a kind of change")
		}
		ch.Bank = bank
		if _, ok := byMonth[ch.Month]; !ok {
			months = append(months, ch.Month)
		}
		byMonth[ch.Month] = append(byMonth[ch.Month], ch)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	out := make([]ChangeMonthSummary, len(months))
	err := s.store.Update(ctx, func(tx Tx) error {
		ct, err := changeLogTx(tx)
		if err != nil {
			return err
		}
		for i, m := range months {
			if err := ct.PutChanges(bank, m, byMonth[m]); err != nil {
				return err
			}
			out[i] = ChangeMonthSummary{Bank: bank, Month: m, Changes: len(byMonth[m])}
		}
		return s.emitBankChanges(tx, bank, months)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ChangeQuery selects lines of a bank's change log for a month: of the
// kinds named (all when none) and of the code (any when empty), a page of
// them (Limit ≤ 0: all).
type ChangeQuery struct {
	Bank   string
	Month  string // MM/YYYY
	Kinds  []domain.ChangeKind
	Code   string
	Offset int
	Limit  int
}

func (q ChangeQuery) check() error {
	var v domain.Validation
	if strings.TrimSpace(q.Bank) == "" {
		v.Add("/bank", "is required")
	}
	if !domain.ValidMonth(q.Month) {
		v.Add("/month", "must be a month MM/YYYY")
	}
	for i, k := range q.Kinds {
		if !domain.ValidChangeKind(k) {
			v.Add(fmt.Sprintf("/kind/%d", i), "%q is not a kind of change", k)
		}
	}
	if q.Offset < 0 {
		v.Add("/offset", "must not be negative")
	}
	return v.Err()
}

func (q ChangeQuery) match(c domain.BankChange) bool {
	if q.Code != "" && c.Code != q.Code {
		return false
	}
	if len(q.Kinds) == 0 {
		return true
	}
	for _, k := range q.Kinds {
		if c.Kind == k {
			return true
		}
	}
	return false
}

// PlacedChange is a line of a change log with its place in the log of its
// month (from 1), which names it whatever the filters (the v2 id).
type PlacedChange struct {
	domain.BankChange
	Place int
}

func (s *Service) changes(tx Tx, q ChangeQuery) ([]PlacedChange, error) {
	ct, err := changeLogTx(tx)
	if err != nil {
		return nil, err
	}
	all, err := ct.Changes(strings.ToUpper(q.Bank), q.Month)
	if err != nil {
		return nil, err
	}
	var out []PlacedChange
	for i, c := range all {
		if q.match(c) {
			out = append(out, PlacedChange{BankChange: c, Place: i + 1})
		}
	}
	return out, nil
}

// Changes returns a page of a bank's change log for a month and the number
// of lines that match q.
func (s *Service) Changes(ctx context.Context, q ChangeQuery) ([]PlacedChange, int, error) {
	if err := q.check(); err != nil {
		return nil, 0, err
	}
	var page []PlacedChange
	var total int
	err := s.store.View(ctx, func(tx Tx) error {
		all, err := s.changes(tx, q)
		if err != nil {
			return err
		}
		total = len(all)
		from := min(q.Offset, total)
		to := total
		if q.Limit > 0 {
			to = min(from+q.Limit, total)
		}
		page = all[from:to]
		return nil
	})
	return page, total, err
}

// UseRef names a record of the caller's company that uses a changed code.
type UseRef struct {
	ID          string
	Code        string
	Description string
}

// ChangeUse is a change that touches the caller's company: the change and
// its own compositions, budgets and contracts that use the code.
type ChangeUse struct {
	Change       PlacedChange
	Compositions []UseRef
	Budgets      []UseRef
	Contracts    []UseRef
}

// WhereUsed answers, for the lines of a bank's change log that q selects,
// which own compositions (an item of the bank with the code, of the same
// kind: composition or resource), which budgets (a line of the bank with
// the code, of the same kind) and which contracts (a line of the bank with
// the code: a contract's lines do not keep their kind) of the caller's
// company use the changed code.
// Only changes used somewhere are returned, in the log's order; records of
// other companies are never read.
func (s *Service) WhereUsed(ctx context.Context, p domain.Principal, q ChangeQuery) ([]ChangeUse, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	var out []ChangeUse
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = s.whereUsed(tx, p.CompanyID, q)
		return err
	})
	return out, err
}

// whereUsed is WhereUsed in the caller's transaction, for companyID.
func (s *Service) whereUsed(tx Tx, companyID string, q ChangeQuery) ([]ChangeUse, error) {
	p := domain.Principal{CompanyID: companyID}
	out := []ChangeUse{}
	err := func() error {
		changes, err := s.changes(tx, q)
		if err != nil {
			return err
		}
		if len(changes) == 0 {
			return nil
		}
		type key struct {
			code string
			comp bool
		}
		bank := strings.ToUpper(q.Bank)
		comps := map[key][]UseRef{}
		list, _, err := tx.Compositions(p.CompanyID, Query{})
		if err != nil {
			return err
		}
		for _, c := range list {
			seen := map[key]bool{}
			for _, it := range c.Items {
				k := key{it.Code, it.Kind == domain.KindComposition}
				if it.Bank == bank && !seen[k] {
					seen[k] = true
					comps[k] = append(comps[k], UseRef{ID: c.ID, Code: c.Code, Description: c.Description})
				}
			}
		}
		budgets := map[key][]UseRef{}
		heads, _, err := tx.Budgets(p.CompanyID, Query{})
		if err != nil {
			return err
		}
		for _, h := range heads {
			b, err := tx.Budget(h.ID)
			if err != nil {
				return err
			}
			if b.CompanyID != p.CompanyID {
				continue
			}
			seen := map[key]bool{}
			var walk func([]domain.BudgetNode)
			walk = func(nodes []domain.BudgetNode) {
				for _, n := range nodes {
					if n.Kind == domain.NodeStage {
						walk(n.Items)
						continue
					}
					k := key{n.Code, n.Kind == domain.NodeComposition}
					if n.Bank == bank && !seen[k] {
						seen[k] = true
						budgets[k] = append(budgets[k], UseRef{ID: b.ID, Code: b.Code, Description: b.Description})
					}
				}
			}
			walk(b.Items)
		}
		contracts := map[string][]UseRef{}
		if ct, ok := Optional[ContractTx](tx); ok {
			list, err := ct.Contracts(p.CompanyID)
			if err != nil {
				return err
			}
			for _, c := range list {
				seen := map[string]bool{}
				for _, l := range c.Lines {
					if l.Bank == bank && !seen[l.Code] {
						seen[l.Code] = true
						contracts[l.Code] = append(contracts[l.Code], UseRef{ID: c.ID, Code: c.Number, Description: c.Contractor})
					}
				}
			}
		}
		for _, c := range changes {
			k := key{c.Code, c.Composition}
			if len(comps[k]) == 0 && len(budgets[k]) == 0 && len(contracts[c.Code]) == 0 {
				continue
			}
			out = append(out, ChangeUse{Change: c, Compositions: append([]UseRef{}, comps[k]...), Budgets: append([]UseRef{}, budgets[k]...),
				Contracts: append([]UseRef{}, contracts[c.Code]...)})
		}
		return nil
	}()
	return out, err
}

// emitBankChanges tells each company whose webhooks want bank.changes
// which codes of each month's log it uses (WhereUsed), in the import's
// transaction; a company that uses none is told nothing.
func (s *Service) emitBankChanges(tx Tx, bank string, months []string) error {
	wt, ok := Optional[WebhookTx](tx)
	if !ok {
		return nil
	}
	hooks, err := wt.Webhooks("")
	if err != nil {
		return err
	}
	companies := map[string]bool{}
	var order []string
	for _, w := range hooks {
		if w.Wants(domain.EventBankChanges) && !companies[w.CompanyID] {
			companies[w.CompanyID] = true
			order = append(order, w.CompanyID)
		}
	}
	for _, company := range order {
		for _, m := range months {
			uses, err := s.whereUsed(tx, company, ChangeQuery{Bank: bank, Month: m})
			if err != nil {
				return err
			}
			if len(uses) == 0 {
				continue
			}
			codes := make([]string, 0, len(uses))
			for _, u := range uses {
				codes = append(codes, u.Change.Code)
			}
			q := url.Values{"filter[bank]": {bank}, "filter[month]": {m}}
			if err := s.emit(tx, company, domain.EventBankChanges, "/api/public/v2/bank_changes/where_used?"+q.Encode(),
				map[string]any{"bank": bank, "month": m, "codes": codes}); err != nil {
				return err
			}
		}
	}
	return nil
}
