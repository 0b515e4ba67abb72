package pgstore

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/costdb/costdb/app"
)

// The company's vocabulary of resource descriptions with counts (migration
// 0016, list_terms), so that the total of the common list page (one word
// contained in the description) is read, not counted (issue 29, P5 on
// PostgreSQL).
//
// Exactness. The filter is `description_fold LIKE '%w%'` with w the folded
// word. When w holds no white space (unicode.IsSpace), w is a substring of
// the folded text exactly when it is a substring of one of the text's
// tokens, the runs between white space (strings.FieldsFunc with the same
// predicate): an occurrence of w cannot span a space it does not hold. So
// the resources matching w are the union of the holders of the tokens that
// contain w, and when exactly one token of the company contains w, its
// count (each resource counted once per token it holds) is the total.
// Tokens shorter than the shortest word answered (minTermRunes) cannot
// contain one and are not kept.
// Otherwise (no token, or several, such as "alvenaria" and "alvenarias")
// the rows are counted as before.
//
// Upkeep. A write transaction gathers the net change per token of the
// resources it inserts and deletes (termDeltas), as the rows are written:
// PutResource (its insert, its replacement of a stored row), the batch's
// COPY, DeleteResource. A put that leaves the description as it was
// changes nothing. The changes are written in one statement when the
// transaction's function has succeeded (flush, inside its savepoint in a
// group commit, so that a rolled-back member leaves no change), and before
// any read of the totals in the same transaction; the counts that fall to
// zero are deleted by a second statement. Both go with the next statement
// or the COMMIT (lazyTx.later): no round trip more.

// resourceTerms is the list_terms list of resource descriptions.
const resourceTerms = "resources.description"

// termSpaces are the runes unicode.IsSpace reports, which split a folded
// text into tokens; migration 0016 splits the stored texts at the same
// runes (TestTermSpacesAreUnicodeSpaces; TestTermsTotal compares the
// migration's vocabulary with the store's).
const termSpaces = "\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"

// minTermRunes is the shortest word the vocabulary answers for (a
// trigram). A token shorter than that cannot contain such a word, so it is
// not kept: the commonest tokens ("de", "cm") are not written at all.
const minTermRunes = 3

// terms are the distinct tokens of a folded text of minTermRunes or more.
func terms(fold string) []string {
	ts := strings.FieldsFunc(fold, unicode.IsSpace)
	ts = slices.DeleteFunc(ts, func(tok string) bool { return utf8.RuneCountInString(tok) < minTermRunes })
	slices.Sort(ts)
	return slices.Compact(ts)
}

type termKey struct{ company, list, token string }

// termDeltas are a transaction's net changes of list_terms not written yet.
type termDeltas map[termKey]int

// noteTerms adds sign (1: a record written, -1: removed) to the counts of
// the tokens of a folded text in a company's list.
func (t *tx) noteTerms(list, company, fold string, sign int) {
	if t.terms == nil {
		t.terms = termDeltas{}
	}
	for _, tok := range terms(fold) {
		k := termKey{company, list, tok}
		if n := t.terms[k] + sign; n != 0 {
			t.terms[k] = n
		} else {
			delete(t.terms, k)
		}
	}
	if len(t.terms) >= termsAt {
		if _, ok := t.ptx.(*lazyTx); ok {
			_ = t.writeTerms() // deferred: it cannot fail here
		}
	}
}

// termsAt is how many changed tokens a transaction gathers before it
// writes them, so that a long write's memory stays bounded.
var termsAt = 20000

// writeTerms writes the changes gathered, in the order of their keys (a
// stable lock order), with the next statement (tx.later).
func (t *tx) writeTerms() error {
	if len(t.terms) == 0 {
		return nil
	}
	keys := make([]termKey, 0, len(t.terms))
	for k := range t.terms {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b termKey) int {
		if c := strings.Compare(a.company, b.company); c != 0 {
			return c
		}
		if c := strings.Compare(a.list, b.list); c != 0 {
			return c
		}
		return strings.Compare(a.token, b.token)
	})
	companies, lists, tokens, ns := make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys)), make([]int32, len(keys))
	var gone []int // keys whose count may fall to zero
	for i, k := range keys {
		companies[i], lists[i], tokens[i], ns[i] = k.company, k.list, k.token, int32(t.terms[k])
		if ns[i] < 0 {
			gone = append(gone, i)
		}
	}
	t.terms = nil
	if err := t.later(`INSERT INTO list_terms (company_id, list, token, n)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])
		ON CONFLICT (company_id, list, token) DO UPDATE SET n = list_terms.n + excluded.n`, companies, lists, tokens, ns); err != nil {
		return err
	}
	if len(gone) == 0 {
		return nil
	}
	gc, gl, gt := make([]string, len(gone)), make([]string, len(gone)), make([]string, len(gone))
	for j, i := range gone {
		gc[j], gl[j], gt[j] = companies[i], lists[i], tokens[i]
	}
	return t.later(`DELETE FROM list_terms l USING unnest($1::text[], $2::text[], $3::text[]) AS g(company_id, list, token)
		WHERE l.company_id = g.company_id AND l.list = g.list AND l.token = g.token AND l.n = 0`, gc, gl, gt)
}

// termsWord is the word whose total the vocabulary may give for the
// query, and the list; "" when the query is not one word contained in a
// field the vocabulary covers (or the word is shorter than a trigram,
// which the vocabulary's index cannot look up).
func (l *listSQL) termsWord(q app.Query) (word, list string) {
	if l != resourceList || len(q.Where) != 1 {
		return "", ""
	}
	c := q.Where[0]
	if c.Op != app.Contains || len(c.Fields) != 1 || c.Fields[0] != app.FieldDescription {
		return "", ""
	}
	w := app.Fold(c.Text)
	if utf8.RuneCountInString(w) < minTermRunes || strings.ContainsFunc(w, unicode.IsSpace) {
		return "", ""
	}
	return w, resourceTerms
}

// termsCountSQL is the total of a selection whose only condition (beside
// the company, $1) is the word's pattern ($2), in one row of three
// columns: the count of the one token of the list that contains the word
// (NULL when none or several do), the total (that count, else the rows
// counted: a subquery that COALESCE evaluates only when the vocabulary gave
// none), and the company's records in the table (list_counts), which
// chooses the page's plan next time (wordplan.go). The vocabulary is read
// through its trigram index whatever the plan: no other index of list_terms
// serves its conditions (migration 0017).
func termsCountSQL(table, list, where string) string {
	return `SELECT v.n, coalesce(v.n, (SELECT count(*) FROM ` + table + ` r WHERE ` + where + `)),
		(SELECT coalesce(sum(c.n), 0) FROM list_counts c WHERE c.company_id = $1 AND c.list = '` + table + `')
		FROM (SELECT CASE WHEN count(*) = 1 THEN max(t.n) END AS n FROM list_terms t
			WHERE t.list = '` + list + `' AND t.company_id = $1 AND t.token LIKE $2 AND t.n > 0) v`
}
