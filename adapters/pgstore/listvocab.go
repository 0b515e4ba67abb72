package pgstore

import (
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/app"
)

// The total of a one-word text filter from list_vocab (migration 0016):
// the company's tokens of the folded field (split at spaces) and how many
// records hold each. A word without a space is contained in a folded text
// exactly when it is contained in one of its tokens; so when exactly one
// token of the company that is still held (a sum above zero) contains the
// word, the records that contain the word are those that hold the token,
// and its sum is the exact total. Otherwise (no such token: 0; two or more:
// a record may hold both) the rows are counted. One statement decides, in
// the page's round trip; the row count runs only when it is needed.

// vocabCount names the list_vocab list and the LIKE pattern of a filter
// whose total it may give.
type vocabCount struct {
	list, pattern string
}

// resourceVocab returns the vocabulary count of a resource query: one
// condition, a text filter on the description whose folded text is one
// word (no space); else the zero vocabCount.
func resourceVocab(q app.Query) vocabCount {
	if len(q.Where) != 1 {
		return vocabCount{}
	}
	c := q.Where[0]
	if c.Op != app.Contains || len(c.Fields) != 1 || c.Fields[0] != app.FieldDescription {
		return vocabCount{}
	}
	w := app.Fold(c.Text)
	if w == "" || strings.Contains(w, " ") {
		return vocabCount{}
	}
	// The pattern is the one compile gives the condition (query.go).
	return vocabCount{list: "resources.description", pattern: "%" + likeEscaper.Replace(w) + "%"}
}

// queueVocabCount queues the total of s from list_vocab, or from the rows
// of table when the vocabulary cannot give it.
func (s sel) queueVocabCount(b *pgx.Batch, table string, total *int) {
	n := len(s.args)
	args := append(append([]any{}, s.args...), s.vocab.list, s.vocab.pattern)
	list, pattern := "$"+strconv.Itoa(n+1), "$"+strconv.Itoa(n+2)
	held := `SELECT token, sum(n)::bigint AS n FROM list_vocab WHERE company_id = $1 AND list = ` + list +
		` AND token LIKE ` + pattern + ` GROUP BY token HAVING sum(n) > 0`
	b.Queue(`SELECT CASE WHEN (SELECT count(*) FROM (`+held+` LIMIT 2) t) = 1
		THEN (SELECT n FROM (`+held+`) t)
		ELSE (SELECT count(*) FROM `+table+` r WHERE `+s.where+`) END`, args...).QueryRow(func(row pgx.Row) error {
		return row.Scan(total)
	})
}
