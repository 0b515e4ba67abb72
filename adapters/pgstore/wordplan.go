package pgstore

import (
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/app"
)

// The plans of the common list page: one word contained in the resources'
// descriptions, sorted by at most one field (issue 29, P5 on PostgreSQL).
//
// Such a page has two good plans, and which is better depends on how many
// resources hold the word against how many the company has, which only
// the values tell. Walking the sort's index and keeping the matches reads
// about end×size/n entries to reach the page's end (its offset plus its
// limit); reading the n matches through the trigram index and sorting
// them reads n rows, each about three times dearer than an entry walked
// (EXPLAIN ANALYZE: 0.39 µs against 1.2 µs at 100,000 resources), and a
// small company's rows are read whole. So that the database chooses, such
// a page was planned at each execution
// (queuePlanEach), which cost about 0.3 ms for the page and 0.2 ms for its
// total, beside about 1 ms of execution.
//
// The store now makes the choice itself, from what the page's total told
// it the last time this process served the word in the company (wordSeen,
// kept per process and bounded: a stale one only picks the slower plan,
// never another answer), and sends statements whose plan does not depend
// on the values, planned once per connection (force_generic_plan):
//   - the total reads the vocabulary through its trigram index, the only
//     index of list_terms that its conditions can use (migration 0017 puts
//     the token before the company in its primary key);
//   - when the walk is short (walks), the page is the walk: the
//     word tested with strpos, which no index serves, and explicit sorts
//     disabled (enable_sort off), so the only plan left reads the sort's
//     index in order (TestWordPlansAreTheWalk checks the plans);
//   - otherwise the page is planned for its values, as before.
// A word not seen yet, or whose total the vocabulary did not give (its
// rows were counted), is planned for its values throughout, as before.

// walkable reports whether a sort is read in its order by walking one
// index: none (the ID), or one field ascending; descending, only a code or
// a description. A descending sort still ends with the ID ascending, so
// its index, read backwards, gives the rows of each value of the field
// together and they are sorted by ID (an incremental sort): a field with
// few values (a type, a status, a date an import gave every record) makes
// groups as large as the company.
func walkable(sort []app.Order) bool {
	switch {
	case len(sort) == 0:
		return true
	case len(sort) > 1:
		return false
	}
	return !sort[0].Desc || sort[0].Field == app.FieldCode || sort[0].Field == app.FieldDescription
}

// wordSeen is what a one-word page's total found: the resources holding
// the word (n), the company's resources (size), and whether the
// vocabulary gave that total (one token holds the word).
type wordSeen struct {
	n, size int
	single  bool
}

// walks reports whether the page ending at the end-th match is read more
// cheaply by walking the sort's index. The walk reads about end×size/n
// entries, and never more than the company's size. It is chosen when that
// is no more than three times the matches (the trigram index's read of
// the n matches and their sort, each about three times dearer than an
// entry walked), or no more than walkAlways entries: the custom plan it
// replaces costs about 0.2 ms of planning alone, and for a company of 1,000
// resources the planner scans the company's rows anyway (pgbench: the walk
// 4,070 pages a second, the custom plan 3,360).
func (w wordSeen) walks(end int) bool {
	if end <= 0 || w.n <= 0 {
		return false
	}
	walked := min(int64(end)*int64(w.size)/int64(w.n), int64(w.size))
	return walked <= 3*int64(w.n) || walked <= walkAlways
}

// walkAlways is the walk short enough to be chosen whatever the matches.
const walkAlways = 1000

// wordPlans keeps, per company and word, what the word's last total found.
type wordPlans struct {
	mu sync.Mutex
	m  map[string]wordSeen
}

// maxWordPlans bounds the words kept; past it, an arbitrary one is
// forgotten for each new one.
const maxWordPlans = 4096

func wordKey(company, word string) string { return company + "\x00" + word }

func (p *wordPlans) get(company, word string) (wordSeen, bool) {
	if p == nil {
		return wordSeen{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	w, ok := p.m[wordKey(company, word)]
	return w, ok
}

func (p *wordPlans) note(company, word string, w wordSeen) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	k := wordKey(company, word)
	if _, ok := p.m[k]; !ok && len(p.m) >= maxWordPlans {
		for old := range p.m {
			delete(p.m, old)
			break
		}
	}
	if p.m == nil {
		p.m = map[string]wordSeen{}
	}
	p.m[k] = w
}

// walkWhere is the walk's condition: the company ($1) and the folded word
// ($2) tested with strpos, the same selection as the pattern's LIKE.
const walkWhere = `r.company_id = $1 AND strpos(r.description_fold, $2) > 0`

// queueWordPage queues on b the reads of a one-word page (s.word set) and
// of its total, with the plans chosen from seen (see above), and reports
// the resources it will read.
func queueWordPage(b *pgx.Batch, s sel, seen wordSeen, known bool) *queuedResources {
	if !known || !seen.single {
		s.queuePlanEach(b)
		q := queueResources(b, s)
		s.queueCount(b, "resources")
		return q
	}
	if !seen.walks(s.end) {
		b.Queue(`SET LOCAL plan_cache_mode = force_generic_plan`)
		s.queueCount(b, "resources")
		s.queuePlanEach(b)
		return queueResources(b, s)
	}
	// Sorts disabled for the total too: it sorts nothing in any plan.
	b.Queue(`SELECT set_config('plan_cache_mode', 'force_generic_plan', true), set_config('enable_sort', 'off', true)`)
	s.queueCount(b, "resources")
	walk := s
	walk.where, walk.args = walkWhere, []any{s.args[0], s.word}
	q := queueResources(b, walk)
	// The rest of the transaction is planned as configured.
	b.Queue(`SET LOCAL enable_sort TO DEFAULT`)
	b.Queue(`SET LOCAL plan_cache_mode TO DEFAULT`)
	return q
}
