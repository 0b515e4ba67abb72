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
// migration 0012_search.sql). A query is a tsquery of its terms ('BLOCO':*
// for a prefix term), OR-ed to find the rows through the index; each row's
// count of terms matched is the sum of one @@ per term. The words are made
// in Go, not by PostgreSQL's parser and unaccent, so that both engines index
// the same words (docs/notes/search.md).

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
	byKey := make(map[string]*domain.Edition, len(editions))
	keys := make([]string, len(editions))
	for i, e := range editions {
		keys[i] = e.Key()
		byKey[keys[i]] = e
	}
	terms := make([]string, len(q.Terms))
	args := []any{keys, ""}
	var matched []string
	for i, term := range q.Terms {
		terms[i] = tsTerm(term)
		args = append(args, terms[i])
		matched = append(matched, "(search @@ $"+strconv.Itoa(len(args))+"::tsquery)::int")
	}
	args[1] = strings.Join(terms, " | ")
	sum := strings.Join(matched, " + ")
	var parts []string
	if kind == "" || kind == domain.KindComposition {
		parts = append(parts, `SELECT 'composition' AS kind, edition_key, code, char_length(description) AS len, `+sum+` AS matched
			FROM bank_compositions WHERE edition_key = ANY($1) AND search @@ $2::tsquery`)
	}
	if kind == "" || kind == domain.KindResource {
		parts = append(parts, `SELECT 'resource' AS kind, edition_key, code, char_length(description) AS len, `+sum+` AS matched
			FROM bank_resources WHERE edition_key = ANY($1) AND search @@ $2::tsquery`)
	}
	args = append(args, offset, limit)
	sql := `SELECT h.kind, h.edition_key, h.code, h.len, h.matched, count(*) OVER ()
		FROM (` + strings.Join(parts, " UNION ALL ") + `) h JOIN editions e ON e.key = h.edition_key
		ORDER BY h.matched DESC, h.len, h.code, h.kind COLLATE "C", e.bank, e.state,
			right(e.month, 4) || left(e.month, 2) DESC, e.region
		OFFSET $` + strconv.Itoa(len(args)-1) + ` LIMIT $` + strconv.Itoa(len(args))
	out := []*domain.SearchHit{}
	total := -1
	err := t.query(sql, args, func(rows pgx.Rows) error {
		var h domain.SearchHit
		var k, ek string
		var n int
		if err := rows.Scan(&k, &ek, &h.Code, &h.Length, &h.Matched, &n); err != nil {
			return err
		}
		h.Kind, h.Edition, total = domain.ItemKind(k), byKey[ek], n
		out = append(out, &h)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if total < 0 { // a page past the end: count alone
		count := `SELECT count(*) FROM (` + strings.Join(parts, " UNION ALL ") + `) h JOIN editions e ON e.key = h.edition_key`
		if err := t.ptx.QueryRow(t.ctx, count, args[:len(args)-2]...).Scan(&total); err != nil {
			return nil, 0, t.fail(err)
		}
	}
	return out, total, nil
}

// fillSearchWords fills the words of the bank rows written before the
// search existed (migration 0012_search.sql leaves them NULL), a batch at a
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
