package pgstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Search across the reference banks (app.SearchTx) by PostgreSQL's
// full-text search: each bank row keeps the words of its description as
// domain.SearchWords makes them (the column words, written by the import's
// COPY), and their tsvector (the generated column search, GIN-indexed;
// migration 0014_search.sql). A query is a tsquery of its terms ('BLOCO':*
// for a prefix term), OR-ed to find the rows through the index; each row's
// count of terms matched is the sum of one @@ per term. The words are made
// in Go, not by PostgreSQL's parser and unaccent, so that both engines index
// the same words (docs/decisions.md, "Search across the banks").

var _ app.SearchTx = (*tx)(nil)

// searchWords is what the words column holds for a description: never
// NULL (NULL marks a row not filled yet).
func searchWords(description string) []string {
	w := domain.SearchWords(description)
	if w == nil {
		return []string{}
	}
	return w
}

// tsTerm is a term as a tsquery: the word quoted (words hold only letters
// and digits), ":*" for a prefix.
func tsTerm(t domain.SearchTerm) string {
	s := "'" + t.Word + "'"
	if t.Prefix {
		s += ":*"
	}
	return s
}

// SearchBank ranks in SQL, in domain.SearchBefore's order.
func (t *tx) SearchBank(q domain.SearchQuery, editions []*domain.Edition, kind domain.ItemKind, offset, limit int) ([]*domain.SearchHit, int, error) {
	if err := t.readable(); err != nil {
		return nil, 0, err
	}
	if err := t.flush(); err != nil {
		return nil, 0, err
	}
	// The edition keys are compared as text made from the column
	// (edition_key || ''), so that the planner finds the rows by the
	// full-text index alone: ANDed with the primary key's index on a
	// national month's 28 editions, the bitmap of every row of them cost
	// more than the search itself.
	byKey := make(map[string]*domain.Edition, len(editions))
	keys := make([]string, len(editions))
	for i, e := range editions {
		keys[i] = e.Key()
		byKey[keys[i]] = e
	}
	terms := make([]string, len(q.Terms))
	for i, term := range q.Terms {
		terms[i] = tsTerm(term)
	}
	// The rows of the editions whose words match the tsquery $2.
	from := func(cols string) string {
		var parts []string
		if kind == "" || kind == domain.KindComposition {
			parts = append(parts, `SELECT 'composition' AS kind, `+cols+` FROM bank_compositions
				WHERE (edition_key || '') = ANY($1) AND search @@ $2::tsquery`)
		}
		if kind == "" || kind == domain.KindResource {
			parts = append(parts, `SELECT 'resource' AS kind, `+cols+` FROM bank_resources
				WHERE (edition_key || '') = ANY($1) AND search @@ $2::tsquery`)
		}
		return "(" + strings.Join(parts, " UNION ALL ") + ")"
	}
	// A page ranked by order (with matched, the count of terms matched,
	// and total): its rows' descriptions and units are read after the
	// ranking (carried through it, they made it a tenth slower).
	page := func(matched, total, order string) string {
		return `WITH page AS (
			SELECT h.kind, h.edition_key, h.code, h.len, ` + matched + ` AS matched, ` + total + ` AS total,
				e.bank, e.state, right(e.month, 4) || left(e.month, 2) AS month, e.region
			FROM ` + from(`edition_key, code, char_length(description) AS len, search`) + ` h
			JOIN editions e ON e.key = h.edition_key
			ORDER BY ` + order + `h.len, h.code, h.kind COLLATE "C", e.bank, e.state, right(e.month, 4) || left(e.month, 2) DESC, e.region
			OFFSET $3 LIMIT $4)
		SELECT p.kind, p.edition_key, p.code, coalesce(c.description, r.description), coalesce(c.unit, r.unit),
			p.len, p.matched, p.total
		FROM page p
		LEFT JOIN bank_compositions c ON p.kind = 'composition' AND c.edition_key = p.edition_key AND c.code = p.code
		LEFT JOIN bank_resources r ON p.kind = 'resource' AND r.edition_key = p.edition_key AND r.code = p.code
		ORDER BY p.matched DESC, p.len, p.code, p.kind COLLATE "C", p.bank, p.state, p.month DESC, p.region`
	}
	read := func(sql string, args ...any) ([]*domain.SearchHit, int, error) {
		out := []*domain.SearchHit{}
		total := -1
		err := t.query(sql, args, func(rows pgx.Rows) error {
			var h domain.SearchHit
			var k, ek string
			var n int
			if err := rows.Scan(&k, &ek, &h.Code, &h.Description, &h.Unit, &h.Length, &h.Matched, &n); err != nil {
				return err
			}
			h.Kind, h.Edition, total = domain.ItemKind(k), byKey[ek], n
			out = append(out, &h)
			return nil
		})
		return out, total, err
	}
	anyTerm := strings.Join(terms, " | ")
	count := `(SELECT count(*) FROM ` + from("1") + ` x)`

	// The items that match every term come first: when they fill the
	// page, it is read from them alone (the full-text index finds them,
	// few), and the total is a count of the items matching any term;
	// that is most first pages, a third of the time of ranking every item.
	// With one term, the items found are those: the page's window counts
	// them.
	if len(terms) == 1 {
		out, total, err := read(page("1", "count(*) OVER ()", ""), keys, anyTerm, offset, limit)
		if err != nil {
			return nil, 0, err
		}
		if total < 0 { // a page past the end: count alone
			if err := t.ptx.QueryRow(t.ctx, `SELECT `+count, keys, anyTerm).Scan(&total); err != nil {
				return nil, 0, t.fail(err)
			}
		}
		return out, total, nil
	}
	if out, _, err := read(page(strconv.Itoa(len(terms)), "0", ""), keys, strings.Join(terms, " & "), 0, offset+limit); err != nil {
		return nil, 0, err
	} else if len(out) == offset+limit {
		var total int
		if err := t.ptx.QueryRow(t.ctx, `SELECT `+count, keys, anyTerm).Scan(&total); err != nil {
			return nil, 0, t.fail(err)
		}
		return out[offset:], total, nil
	}

	matched := make([]string, len(terms))
	args := []any{keys, anyTerm, offset, limit}
	for i := range terms {
		args = append(args, terms[i])
		matched[i] = "(h.search @@ $" + strconv.Itoa(len(args)) + "::tsquery)::int"
	}
	sum := strings.Join(matched, " + ")
	out, total, err := read(page(sum, "count(*) OVER ()", sum+" DESC, "), args...)
	if err != nil {
		return nil, 0, err
	}
	if total < 0 { // a page past the end: count alone
		if err := t.ptx.QueryRow(t.ctx, `SELECT `+count, keys, anyTerm).Scan(&total); err != nil {
			return nil, 0, t.fail(err)
		}
	}
	return out, total, nil
}

// fillSearchWords fills the words of the bank rows written before the
// search existed (migration 0014_search.sql leaves them NULL), a batch at a
// time; several servers opening at once fill the same words.
func (s *Store) fillSearchWords(ctx context.Context) error {
	for _, table := range []string{"bank_resources", "bank_compositions"} {
		for {
			rows, err := s.pool.Query(ctx, `SELECT edition_key, code, description FROM `+table+` WHERE words IS NULL LIMIT 5000`)
			if err != nil {
				return fmt.Errorf("pgstore: fill the search words of %s: %w", table, err)
			}
			var eds, codes, descs []string
			for rows.Next() {
				var e, c, d string
				if err := rows.Scan(&e, &c, &d); err != nil {
					rows.Close()
					return fmt.Errorf("pgstore: fill the search words of %s: %w", table, err)
				}
				eds, codes, descs = append(eds, e), append(codes, c), append(descs, d)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("pgstore: fill the search words of %s: %w", table, err)
			}
			if len(eds) == 0 {
				break
			}
			// One row per record, its words as one text: a
			// two-dimensional array would need rows of one length.
			joined := make([]string, len(descs))
			for i, d := range descs {
				joined[i] = strings.Join(domain.SearchWords(d), " ")
			}
			if _, err := s.pool.Exec(ctx, `UPDATE `+table+` t SET words = coalesce(string_to_array(nullif(x.w, ''), ' '), '{}')
				FROM unnest($1::text[], $2::text[], $3::text[]) AS x(e, c, w)
				WHERE t.edition_key = x.e AND t.code = x.c AND t.words IS NULL`, eds, codes, joined); err != nil {
				return fmt.Errorf("pgstore: fill the search words of %s: %w", table, err)
			}
		}
	}
	return nil
}
