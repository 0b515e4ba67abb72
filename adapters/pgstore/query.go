package pgstore

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// The company lists answer an app.Query in SQL: the conditions become a
// WHERE clause on the record's table (alias r) and its computed columns
// (see migrations/0001_init.sql), the sort keys an ORDER BY that ends with
// r.id, the page LIMIT and OFFSET, and the total a count(*) with the same
// WHERE, sent in the same round trip as the page.

// sel is a selection of records of one table: a condition on r, what
// follows it (ORDER BY, LIMIT, OFFSET), its arguments, and where to put the
// number of records the condition selects (nil: not counted).
type sel struct {
	where string
	tail  string
	args  []any
	total *int
	// list, when set, names the list_counts list whose sum is the total
	// (a query without conditions).
	list string
	// terms, when set, names the list_terms list that may give the total
	// of a query of one word (listterms.go); the word's pattern is $2.
	// word is that word, folded, and end the page's end (offset plus
	// limit; 0: no limit) when its sort allows the walk (walkable);
	// seen, when set, receives what the total found.
	terms string
	word  string
	end   int
	seen  *wordSeen
	// planEach, for a selection whose best plan depends on its values (a
	// text filter: the pattern, and the company's size), has PostgreSQL
	// plan its statements at each execution (queuePlanEach).
	planEach bool
}

func byWhere(where string, args ...any) sel { return sel{where: where, args: args} }

// queuePlanEach queues on b, ahead of a selection's statements, a setting
// of the transaction that has them planned for their values at each
// execution. A prepared statement is otherwise planned once for any
// values after five executions, when that generic plan looks no dearer
// than the ones seen so far: a connection that served small companies
// first could then keep, for a company of 100,000 resources, a
// sequential scan of the vocabulary (9–12 ms, against 0.1 ms through its
// trigram index). Planning a filtered page's statements costs about
// 0.2 ms each.
func (s sel) queuePlanEach(b *pgx.Batch) {
	if s.planEach {
		b.Queue(`SET LOCAL plan_cache_mode = force_custom_plan`)
	}
}

// queueCount queues the count of a selection on b.
func (s sel) queueCount(b *pgx.Batch, table string) {
	if s.total == nil {
		return
	}
	total := s.total
	if s.list != "" {
		b.Queue(`SELECT coalesce(sum(n), 0) FROM list_counts WHERE company_id = $1 AND list = $2`, s.args[0], s.list).QueryRow(func(row pgx.Row) error {
			return row.Scan(total)
		})
		return
	}
	if s.terms != "" {
		seen := s.seen
		b.Queue(termsCountSQL(table, s.terms, s.where), s.args...).QueryRow(func(row pgx.Row) error {
			var vocab *int
			var size int
			if err := row.Scan(&vocab, total, &size); err != nil {
				return err
			}
			if seen != nil {
				*seen = wordSeen{n: *total, size: size, single: vocab != nil}
			}
			return nil
		})
		return
	}
	b.Queue(`SELECT count(*) FROM `+table+` r WHERE `+s.where, s.args...).QueryRow(func(row pgx.Row) error {
		return row.Scan(total)
	})
}

// countShards is the number of list_counts rows per company and list.
const countShards = 16

// recount moves a record in list_counts: out of oldCompany's list (when
// the record existed) and into newCompany's ("" when it is deleted).
func (t *tx) recount(b *pgx.Batch, list, oldCompany string, existed bool, newCompany string) {
	if existed && oldCompany == newCompany {
		return
	}
	add := func(company string, delta int) {
		b.Queue(`INSERT INTO list_counts (company_id, list, shard, n) VALUES ($1, $2, $3, $4)
			ON CONFLICT (company_id, list, shard) DO UPDATE SET n = list_counts.n + excluded.n`,
			company, list, rand.IntN(countShards), delta)
	}
	if existed {
		add(oldCompany, -1)
	}
	if newCompany != "" {
		add(newCompany, 1)
	}
}

// removed deletes the record with the id from table (its children go with
// it) and reports the company it was in, if it was there.
func (t *tx) removed(table, id string) (company string, existed bool, err error) {
	if table == "resources" {
		// Its description's tokens leave the vocabulary (listterms.go).
		var fold string
		existed, err = t.one(`DELETE FROM resources WHERE id = $1 RETURNING company_id, description_fold`, []any{id}, &company, &fold)
		if existed && err == nil {
			t.noteTerms(resourceTerms, company, fold, -1)
		}
		return company, existed, err
	}
	existed, err = t.one(`DELETE FROM `+table+` WHERE id = $1 RETURNING company_id`, []any{id}, &company)
	return company, existed, err
}

// ciFold returns s with every rune replaced by the smallest rune of its
// simple case folding orbit: two strings have the same ciFold exactly when
// strings.EqualFold says they are equal.
func ciFold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < m {
				m = f
			}
		}
		b.WriteRune(m)
	}
	return b.String()
}

// likeEscaper escapes a text for a LIKE pattern (backslash is LIKE's
// escape character by default).
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// fieldSQL says how a field of a listed record reads in SQL.
type fieldSQL struct {
	col  string // the column itself (group: group_id)
	kind int    // one of the kinds below
}

const (
	textField = iota // has col, col_fold and col_ci
	intField
	boolField
	timeField // col and col_ns
	idField   // compared exactly, not sorted (group)
	codeField // text, ordered by code_key
)

// listSQL is what a list may be filtered and sorted by.
type listSQL struct {
	name    string
	table   string
	filters map[app.Field]fieldSQL
	sorts   []app.Field
	// usesTable and usesParent name the table of the own items a record
	// uses (Uses), and its column holding the record's id; "" for none.
	usesTable, usesParent string
	// usesKind is the column holding an item's kind in usesTable.
	pricedIn bool
	tagged   bool // its records have tags (app.Tagged)
}

var (
	descriptionF = fieldSQL{"description", textField}
	codeF        = fieldSQL{"code", codeField}
	createdF     = fieldSQL{"created_at", timeField}

	groupList = &listSQL{
		name: "groups", table: "groups",
		filters: map[app.Field]fieldSQL{app.FieldDescription: descriptionF, app.FieldCreatedAt: createdF},
		sorts:   []app.Field{app.FieldDescription, app.FieldCreatedAt},
	}
	resourceList = &listSQL{
		name: "resources", table: "resources",
		filters: map[app.Field]fieldSQL{
			app.FieldCode: codeF, app.FieldDescription: descriptionF, app.FieldType: {"type", intField},
			app.FieldUnit: {"unit", textField}, app.FieldGroup: {"group_id", idField},
			app.FieldStatus: {"status", boolField}, app.FieldIsSicro: {"is_sicro", boolField}, app.FieldCreatedAt: createdF,
		},
		sorts:    []app.Field{app.FieldCode, app.FieldDescription, app.FieldType, app.FieldUnit, app.FieldStatus, app.FieldIsSicro, app.FieldCreatedAt},
		pricedIn: true, tagged: true,
	}
	compositionList = &listSQL{
		name: "compositions", table: "compositions",
		filters: map[app.Field]fieldSQL{
			app.FieldCode: codeF, app.FieldDescription: descriptionF, app.FieldType: {"type", textField},
			app.FieldUnit: {"unit", textField}, app.FieldState: {"state", textField}, app.FieldGroup: {"group_id", idField},
			app.FieldIsSicro: {"is_sicro", boolField}, app.FieldCreatedAt: createdF,
		},
		sorts:     []app.Field{app.FieldCode, app.FieldDescription, app.FieldType, app.FieldUnit, app.FieldState, app.FieldIsSicro, app.FieldCreatedAt},
		usesTable: "composition_items", usesParent: "composition_id", tagged: true,
	}
	budgetList = &listSQL{
		name: "budgets", table: "budgets",
		filters: map[app.Field]fieldSQL{
			app.FieldCode: codeF, app.FieldDescription: descriptionF, app.FieldClient: {"client", textField},
			app.FieldState: {"state", textField}, app.FieldCreatedAt: createdF, app.FieldUpdatedAt: {"updated_at", timeField},
		},
		sorts:     []app.Field{app.FieldCode, app.FieldDescription, app.FieldClient, app.FieldState, app.FieldCreatedAt, app.FieldUpdatedAt},
		usesTable: "budget_nodes", usesParent: "budget_id", tagged: true,
	}
)

// compile turns a query for the company into a selection.
func (l *listSQL) compile(companyID string, q app.Query) (sel, error) {
	args := []any{companyID}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	conds := []string{"r.company_id = $1"}
	for _, c := range q.Where {
		switch c.Op {
		case app.PricedIn:
			if !l.pricedIn {
				return sel{}, fmt.Errorf("pgstore: %s cannot be filtered by the states they are priced in", l.name)
			}
			conds = append(conds, arg(c.Text)+` = ANY (r.price_states)`)
			continue
		case app.Tagged:
			if !l.tagged {
				return sel{}, fmt.Errorf("pgstore: %s have no tags", l.name)
			}
			conds = append(conds, arg(c.Text)+` = ANY (r.tags)`)
			continue
		case app.Uses:
			if l.usesTable == "" {
				return sel{}, fmt.Errorf("pgstore: %s use no items", l.name)
			}
			cond := `EXISTS (SELECT 1 FROM ` + l.usesTable + ` u WHERE u.company_id = r.company_id AND u.` + l.usesParent + ` = r.id AND u.bank = ` +
				arg(domain.BankMyBase) + ` AND u.kind = ` + arg(string(c.Item.Kind)) + ` AND u.code = ` + arg(c.Item.Code) + `)`
			if c.Item.Kind == domain.KindComposition {
				cond += ` AND r.state = ` + arg(c.Item.State)
			}
			conds = append(conds, cond)
			continue
		case app.Contains, app.EqualFold, app.Equal, app.AtOrAfter, app.Before:
		default:
			return sel{}, fmt.Errorf("pgstore: unknown condition %d", c.Op)
		}
		if len(c.Fields) == 0 || (c.Op != app.Contains && len(c.Fields) != 1) {
			return sel{}, fmt.Errorf("pgstore: condition %d on %d fields", c.Op, len(c.Fields))
		}
		var fs []fieldSQL
		for _, f := range c.Fields {
			fs2, ok := l.filters[f]
			if !ok {
				return sel{}, fmt.Errorf("pgstore: %s cannot be filtered by %s", l.name, f)
			}
			fs = append(fs, fs2)
		}
		f := fs[0]
		switch c.Op {
		case app.Contains:
			// LIKE '%…%' rather than strpos: the trigram indexes of the
			// folded columns (migration 0015) serve it.
			want := arg("%" + likeEscaper.Replace(app.Fold(c.Text)) + "%")
			var ors []string
			for _, f := range fs {
				if f.kind != textField && f.kind != codeField {
					return sel{}, fmt.Errorf("pgstore: %s: %s is not text", l.name, f.col)
				}
				ors = append(ors, `r.`+f.col+`_fold LIKE `+want)
			}
			conds = append(conds, "("+strings.Join(ors, " OR ")+")")
		case app.EqualFold:
			if f.kind != textField && f.kind != codeField {
				return sel{}, fmt.Errorf("pgstore: %s: %s is not text", l.name, f.col)
			}
			if f.kind == codeField {
				conds = append(conds, `lower(r.code) = lower(`+arg(c.Text)+`)`)
				continue
			}
			conds = append(conds, `r.`+f.col+`_ci = `+arg(ciFold(c.Text)))
		case app.Equal:
			switch f.kind {
			case intField:
				conds = append(conds, `r.`+f.col+` = `+arg(c.Int))
			case boolField:
				conds = append(conds, `r.`+f.col+` = `+arg(c.Bool))
			case timeField:
				at, ns := ts(c.Time)
				conds = append(conds, `(r.`+f.col+`, r.`+f.col+`_ns) = (`+arg(at)+`, `+arg(ns)+`)`)
			default:
				conds = append(conds, `r.`+f.col+` = `+arg(c.Text))
			}
		case app.AtOrAfter, app.Before:
			if f.kind != timeField {
				return sel{}, fmt.Errorf("pgstore: %s: %s is not a time", l.name, f.col)
			}
			op := ">="
			if c.Op == app.Before {
				op = "<"
			}
			at, ns := ts(c.Time)
			conds = append(conds, `(r.`+f.col+`, r.`+f.col+`_ns) `+op+` (`+arg(at)+`::timestamptz, `+arg(ns)+`::int)`)
		}
	}
	var order []string
	for _, o := range q.Sort {
		f, ok := l.filters[o.Field]
		sortable := false
		for _, s := range l.sorts {
			sortable = sortable || s == o.Field
		}
		if !ok || !sortable {
			return sel{}, fmt.Errorf("pgstore: %s cannot be sorted by %s", l.name, o.Field)
		}
		var cols []string
		switch f.kind {
		case codeField:
			cols = []string{"r.code_key", "r.code"}
		case textField:
			cols = []string{"r." + f.col + "_fold", "r." + f.col}
		case timeField:
			cols = []string{"r." + f.col, "r." + f.col + "_ns"}
		default:
			cols = []string{"r." + f.col}
		}
		for _, c := range cols {
			if o.Desc {
				c += " DESC"
			}
			order = append(order, c)
		}
	}
	order = append(order, "r.id")
	list := ""
	if len(q.Where) == 0 {
		list = l.name
	}
	tail := " ORDER BY " + strings.Join(order, ", ")
	if q.Limit > 0 {
		tail += " LIMIT " + strconv.Itoa(q.Limit)
	}
	if q.Offset > 0 {
		tail += " OFFSET " + strconv.Itoa(q.Offset)
	}
	word, terms := l.termsWord(q)
	planEach := false
	for _, c := range q.Where {
		planEach = planEach || c.Op == app.Contains
	}
	end := 0
	if walkable(q.Sort) && q.Limit > 0 {
		end = q.Offset + q.Limit
	}
	return sel{where: strings.Join(conds, " AND "), tail: tail, args: args, list: list, terms: terms, word: word, end: end, planEach: planEach}, nil
}

func (t *tx) Groups(companyID string, q app.Query) ([]*domain.Group, int, error) {
	if err := t.readable(); err != nil {
		return nil, 0, err
	}
	s, err := groupList.compile(companyID, q)
	if err != nil {
		return nil, 0, err
	}
	var total int
	s.total = &total
	gs, err := t.groups(s)
	return gs, total, err
}

func (t *tx) Resources(companyID string, q app.Query) ([]*domain.Resource, int, error) {
	if err := t.readable(); err != nil {
		return nil, 0, err
	}
	s, err := resourceList.compile(companyID, q)
	if err != nil {
		return nil, 0, err
	}
	if s.terms != "" {
		// The total reads the vocabulary: what this transaction changed
		// of it goes first (listterms.go).
		if err := t.writeHeld(); err != nil {
			return nil, 0, err
		}
		if err := t.writeTerms(); err != nil {
			return nil, 0, err
		}
	}
	var total int
	s.total = &total
	rs, err := t.resources(s)
	return rs, total, err
}

func (t *tx) Compositions(companyID string, q app.Query) ([]*domain.Composition, int, error) {
	if err := t.readable(); err != nil {
		return nil, 0, err
	}
	s, err := compositionList.compile(companyID, q)
	if err != nil {
		return nil, 0, err
	}
	var total int
	s.total = &total
	cs, err := t.compositions(s)
	return cs, total, err
}

func (t *tx) Budgets(companyID string, q app.Query) ([]*domain.BudgetHeader, int, error) {
	if err := t.readable(); err != nil {
		return nil, 0, err
	}
	s, err := budgetList.compile(companyID, q)
	if err != nil {
		return nil, 0, err
	}
	var total int
	s.total = &total
	bs, err := t.budgets(false, s)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*domain.BudgetHeader, len(bs))
	for i, b := range bs {
		out[i] = b.Header()
	}
	return out, total, nil
}
