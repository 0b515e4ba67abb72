package app

import (
	"context"
	"sort"
	"strings"

	"github.com/costdb/costdb/domain"
)

// Search across the reference banks (issue 28): the compositions and
// resources of the editions held whose descriptions hold the words typed,
// in any order, without accents or case (domain.SearchWords and
// domain.SearchTerm are the rule), the best matches first
// (domain.SearchBefore). Reference data: any authenticated caller, whatever
// its company.

// SearchTx is what a store's transaction offers to search the bank records
// by the words of their descriptions; both stores offer it, each with an
// index kept up to date by the writes of bank records (bbolt: its search
// bucket; PostgreSQL: a column of words and its full-text index).
type SearchTx interface {
	// SearchBank returns the page [offset, offset+limit) of the items of
	// the editions that match at least one of q's terms, in
	// domain.SearchBefore order, and how many match; kind "" is both
	// kinds. Each hit's Edition is one of editions.
	SearchBank(q domain.SearchQuery, editions []*domain.Edition, kind domain.ItemKind, offset, limit int) ([]*domain.SearchHit, int, error)
}

// SearchInput is a search: Q what was typed; Bank, State and Kind narrow
// it ("" for any); AllEditions searches every edition held instead of the
// newest of each bank and state.
type SearchInput struct {
	Q           string
	Bank        string
	State       string
	Kind        string
	AllEditions bool
	Page        Page
}

// SearchItem is one item found, with its edition.
type SearchItem struct {
	Edition     *domain.Edition
	Kind        domain.ItemKind
	Code        string
	Description string
	Unit        string
	// Matched is how many of the query's words the description matches,
	// of Terms.
	Matched, Terms int
}

// searchInput is a search checked.
type searchInput struct {
	q           domain.SearchQuery
	kind        domain.ItemKind
	bank, state string
}

// checkSearch checks a search: EINVALID naming each query parameter that is
// bad (q, kind, state), all at once.
func checkSearch(in SearchInput) (searchInput, error) {
	var out searchInput
	var fields []domain.FieldError
	q, err := domain.ParseSearch("q", in.Q)
	fields = append(fields, domain.ErrorFields(err)...)
	out.q = q
	out.kind = domain.ItemKind(in.Kind)
	if out.kind != "" && out.kind != domain.KindResource && out.kind != domain.KindComposition {
		fields = append(fields, domain.FieldError{Field: "kind", Message: "must be resource or composition"})
	}
	if strings.TrimSpace(in.Bank) != "" {
		out.bank = domain.NormalizeBank(in.Bank)
	}
	out.state = strings.ToUpper(strings.TrimSpace(in.State))
	if in.State != "" && !isUF(out.state) {
		fields = append(fields, domain.FieldError{Field: "state", Message: "must be a state's two letters (UF), as MG"})
	}
	if len(fields) > 0 {
		return out, &domain.Error{Code: domain.EINVALID, Message: "the search is not valid", Fields: fields}
	}
	return out, nil
}

// CheckSearch is the check Search makes of its input before it reads
// anything, for a caller that found other errors in the request and
// answers them all at once.
func CheckSearch(in SearchInput) error {
	_, err := checkSearch(in)
	return err
}

// Search answers a search: the page of items and how many match. Bad
// input is EINVALID naming each query parameter (q, kind, state).
func (s *Service) Search(ctx context.Context, in SearchInput) ([]*SearchItem, int, error) {
	c, err := checkSearch(in)
	if err != nil {
		return nil, 0, err
	}
	q, kind, bank, state := c.q, c.kind, c.bank, c.state
	var out []*SearchItem
	var total int
	err = s.store.View(ctx, func(tx Tx) error {
		st, ok := Optional[SearchTx](tx)
		if !ok {
			return domain.Errorf(domain.EINTERNAL, "this store offers no search")
		}
		all, err := tx.Editions()
		if err != nil {
			return err
		}
		eds := searchScope(all, bank, state, in.AllEditions)
		out, total = []*SearchItem{}, 0
		if len(eds) == 0 {
			return nil
		}
		hits, n, err := st.SearchBank(q, eds, kind, in.Page.Offset, in.Page.Limit)
		if err != nil {
			return err
		}
		total = n
		out = make([]*SearchItem, len(hits))
		for i, h := range hits {
			it := &SearchItem{Edition: h.Edition, Kind: h.Kind, Code: h.Code, Description: h.Description, Unit: h.Unit,
				Matched: h.Matched, Terms: len(q.Terms)}
			out[i] = it
		}
		return nil
	})
	return out, total, err
}

// searchScope is the editions a search reads: those of the bank and state
// asked for (any when ""), every one when all, else the newest month of
// each bank, state and region; in key order.
func searchScope(eds []*domain.Edition, bank, state string, all bool) []*domain.Edition {
	newest := map[string]*domain.Edition{}
	var out []*domain.Edition
	for _, e := range eds {
		if (bank != "" && e.Bank != bank) || (state != "" && e.State != state) {
			continue
		}
		if all {
			out = append(out, e)
			continue
		}
		k := e.Bank + "\x00" + e.State + "\x00" + e.Region
		if n, ok := newest[k]; !ok || domain.SearchMonth(e.Month) > domain.SearchMonth(n.Month) {
			newest[k] = e
		}
	}
	if !all {
		for _, e := range newest {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// isUF reports whether s is two letters A to Z.
func isUF(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}
