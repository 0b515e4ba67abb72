package storetest

import (
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// The query contract: the list methods of app.Tx answer an app.Query
// (filters, sort keys, offset and limit) with one page and the total, as
// app.Query documents. Each case names the records of the page it expects
// by their number in the data set, in order.

// qid is the id of the n-th record of a query data set (prefix tells the
// kind); ids sort in the order of n.
func qid(prefix string, n int) string { return fmt.Sprintf("01HZXQ%s%017d", prefix, n) }

// base is the creation time the data sets count from.
var base = time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)

func hours(n int) time.Time { return base.Add(time.Duration(n) * time.Hour) }

// queryCase is one query and the page and total it must give.
type queryCase struct {
	name  string
	q     app.Query
	want  []int // numbers of the records of the page, in order
	total int
}

// runQueries runs every case against list in one read transaction.
func runQueries[T any](t *testing.T, s app.Store, prefix string, list func(tx app.Tx, q app.Query) ([]T, int, error), id func(T) string, cases []queryCase) {
	t.Helper()
	view(t, s, func(tx app.Tx) error {
		for _, c := range cases {
			got, total, err := list(tx, c.q)
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			gotIDs := make([]string, len(got))
			for i, x := range got {
				gotIDs[i] = id(x)
			}
			wantIDs := make([]string, len(c.want))
			for i, n := range c.want {
				wantIDs[i] = qid(prefix, n)
			}
			diff(t, c.name+": page", wantIDs, gotIDs)
			if total != c.total {
				t.Errorf("%s: total = %d, want %d", c.name, total, c.total)
			}
		}
		return nil
	})
}

func where(cs ...app.Cond) []app.Cond { return cs }

func sortBy(keys ...string) []app.Order {
	var out []app.Order
	for _, k := range keys {
		if k[0] == '-' {
			out = append(out, app.Order{Field: app.Field(k[1:]), Desc: true})
			continue
		}
		out = append(out, app.Order{Field: app.Field(k)})
	}
	return out
}

func contains(text string, fields ...app.Field) app.Cond {
	return app.Cond{Op: app.Contains, Fields: fields, Text: text}
}

func equalFold(f app.Field, text string) app.Cond {
	return app.Cond{Op: app.EqualFold, Fields: []app.Field{f}, Text: text}
}

func equalText(f app.Field, text string) app.Cond {
	return app.Cond{Op: app.Equal, Fields: []app.Field{f}, Text: text}
}

func equalBool(f app.Field, b bool) app.Cond {
	return app.Cond{Op: app.Equal, Fields: []app.Field{f}, Bool: b}
}

func atOrAfter(f app.Field, t time.Time) app.Cond {
	return app.Cond{Op: app.AtOrAfter, Fields: []app.Field{f}, Time: t}
}

func before(f app.Field, t time.Time) app.Cond {
	return app.Cond{Op: app.Before, Fields: []app.Field{f}, Time: t}
}

func uses(kind domain.ItemKind, code, state string) app.Cond {
	return app.Cond{Op: app.Uses, Item: app.UsedItem{Kind: kind, Code: code, State: state}}
}

// queryResource is the n-th resource of the data set of testQueryResources.
func queryResource(n int, companyID, code, description string, typ int, unit, group string, states []string, status, sicro bool, created time.Time) *domain.Resource {
	r := newResource(qid("RE", n), companyID, code)
	r.Description, r.Type, r.Unit, r.GroupID = description, typ, unit, group
	r.Status, r.IsSicro, r.CreatedAt = status, sicro, created
	r.Locals = map[string]domain.PriceLine{}
	for _, st := range states {
		r.Locals[st] = domain.PriceLine{PND: dec("1.5"), PD: dec("1.4"), PNDI: dec("1.5"), PDI: dec("1.4")}
	}
	return r
}

func listResources(tx app.Tx, q app.Query) ([]*domain.Resource, int, error) {
	return tx.Resources(coA, q)
}

func resourceID(r *domain.Resource) string { return r.ID }

// testQueryResources checks every filter, sort key and paging rule on the
// resources of a company, and that another company's records never appear.
func testQueryResources(t *testing.T, s app.Store) {
	// Three resource types, in ascending order.
	const t1, t2, t3 = domain.TypeEquipment, domain.TypeLabor, domain.TypeMaterial
	// Codes and r-9 are equal in natural order once folded: the
	// code itself orders them (bytes: "R-009" < "R-9" < "r-9").
	rs := []*domain.Resource{
		queryResource(1, coA, "R-10", "Água fria", t1, "M3", grA1, []string{"MG"}, true, false, hours(1)),
		queryResource(2, coA, "r-9", "ÁGUA QUENTE", t2, "m3", grA2, []string{"SP"}, false, true, hours(2)),
		queryResource(3, coA, "R-9", "Areia média", t1, "KG", grA1, []string{"MG", "SP"}, true, false, hours(3)),
		queryResource(4, coA, "R-009", "areia media", t3, "kg", "", nil, true, true, hours(0)),
		queryResource(5, coA, "A-1", "Cimento", t1, "SC", grA2, []string{"MG"}, true, false, hours(5)),
		queryResource(6, coA, "Z", "cimento", t2, "M3", grA1, []string{"BA"}, false, false, hours(4)),
		// Another company's twins of 1 and 3: never in A's lists.
		queryResource(7, coB, "R-10", "Água fria", t1, "M3", grB1, []string{"MG"}, true, false, hours(1)),
		queryResource(8, coB, "R-9", "Areia média", t1, "KG", grB1, []string{"MG", "SP"}, true, false, hours(3)),
	}
	update(t, s, func(tx app.Tx) error {
		for _, r := range rs {
			if err := tx.PutResource(r); err != nil {
				return err
			}
		}
		return nil
	})
	typ := func(n int) app.Cond { return app.Cond{Op: app.Equal, Fields: []app.Field{app.FieldType}, Int: n} }
	priced := func(st string) app.Cond { return app.Cond{Op: app.PricedIn, Text: st} }
	all6 := []int{1, 2, 3, 4, 5, 6}
	runQueries(t, s, "RE", listResources, resourceID, []queryCase{
		{name: "everything, in ID order", q: app.Query{}, want: all6, total: 6},

		{name: "sort code", q: app.Query{Sort: sortBy("code")}, want: []int{5, 4, 3, 2, 1, 6}, total: 6},
		{name: "sort -code", q: app.Query{Sort: sortBy("-code")}, want: []int{6, 1, 2, 3, 4, 5}, total: 6},
		{name: "sort description", q: app.Query{Sort: sortBy("description")}, want: all6, total: 6},
		{name: "sort -description", q: app.Query{Sort: sortBy("-description")}, want: []int{6, 5, 4, 3, 2, 1}, total: 6},
		// M3 (1, 6) tie: ID order both ways.
		{name: "sort unit", q: app.Query{Sort: sortBy("unit")}, want: []int{3, 4, 1, 6, 2, 5}, total: 6},
		{name: "sort -unit", q: app.Query{Sort: sortBy("-unit")}, want: []int{5, 2, 1, 6, 4, 3}, total: 6},
		{name: "sort type", q: app.Query{Sort: sortBy("type")}, want: []int{1, 3, 5, 2, 6, 4}, total: 6},
		{name: "sort -type", q: app.Query{Sort: sortBy("-type")}, want: []int{4, 2, 6, 1, 3, 5}, total: 6},
		{name: "sort status", q: app.Query{Sort: sortBy("status")}, want: []int{2, 6, 1, 3, 4, 5}, total: 6},
		{name: "sort -status", q: app.Query{Sort: sortBy("-status")}, want: []int{1, 3, 4, 5, 2, 6}, total: 6},
		{name: "sort is_sicro", q: app.Query{Sort: sortBy("is_sicro")}, want: []int{1, 3, 5, 6, 2, 4}, total: 6},
		{name: "sort created_at", q: app.Query{Sort: sortBy("created_at")}, want: []int{4, 1, 2, 3, 6, 5}, total: 6},
		{name: "sort -created_at", q: app.Query{Sort: sortBy("-created_at")}, want: []int{5, 6, 3, 2, 1, 4}, total: 6},
		{name: "sort status,-code", q: app.Query{Sort: sortBy("status", "-code")}, want: []int{6, 2, 1, 3, 4, 5}, total: 6},
		{name: "sort -type,-created_at", q: app.Query{Sort: sortBy("-type", "-created_at")}, want: []int{4, 6, 2, 5, 3, 1}, total: 6},

		{name: "code contains r-0", q: app.Query{Where: where(contains("r-0", app.FieldCode))}, want: []int{4}, total: 1},
		{name: "code contains R-1", q: app.Query{Where: where(contains("R-1", app.FieldCode))}, want: []int{1}, total: 1},
		{name: "description contains agua", q: app.Query{Where: where(contains("agua", app.FieldDescription))}, want: []int{1, 2}, total: 2},
		{name: "description contains ÁGUA", q: app.Query{Where: where(contains("ÁGUA", app.FieldDescription))}, want: []int{1, 2}, total: 2},
		{name: "description contains MÉDIA", q: app.Query{Where: where(contains("MÉDIA", app.FieldDescription))}, want: []int{3, 4}, total: 2},
		{name: "description contains nothing known", q: app.Query{Where: where(contains("tijolo", app.FieldDescription))}, want: []int{}, total: 0},
		{name: "search a", q: app.Query{Where: where(contains("a", app.FieldCode, app.FieldDescription))}, want: []int{1, 2, 3, 4, 5}, total: 5},
		{name: "search z (code only)", q: app.Query{Where: where(contains("z", app.FieldCode, app.FieldDescription))}, want: []int{6}, total: 1},
		{name: "unit m3, any case", q: app.Query{Where: where(equalFold(app.FieldUnit, "m3"))}, want: []int{1, 2, 6}, total: 3},
		{name: "unit Kg", q: app.Query{Where: where(equalFold(app.FieldUnit, "Kg"))}, want: []int{3, 4}, total: 2},
		{name: "unit M (no prefix match)", q: app.Query{Where: where(equalFold(app.FieldUnit, "M"))}, want: []int{}, total: 0},
		{name: "type t1", q: app.Query{Where: where(typ(t1))}, want: []int{1, 3, 5}, total: 3},
		{name: "group A1", q: app.Query{Where: where(equalText(app.FieldGroup, grA1))}, want: []int{1, 3, 6}, total: 3},
		{name: "group B1 (another company's)", q: app.Query{Where: where(equalText(app.FieldGroup, grB1))}, want: []int{}, total: 0},
		{name: "priced in SP", q: app.Query{Where: where(priced("SP"))}, want: []int{2, 3}, total: 2},
		{name: "priced in AC", q: app.Query{Where: where(priced("AC"))}, want: []int{}, total: 0},
		{name: "status false", q: app.Query{Where: where(equalBool(app.FieldStatus, false))}, want: []int{2, 6}, total: 2},
		{name: "is_sicro true", q: app.Query{Where: where(equalBool(app.FieldIsSicro, true))}, want: []int{2, 4}, total: 2},
		{name: "created at or after +3h", q: app.Query{Where: where(atOrAfter(app.FieldCreatedAt, hours(3)))}, want: []int{3, 5, 6}, total: 3},
		{name: "created before +2h", q: app.Query{Where: where(before(app.FieldCreatedAt, hours(2)))}, want: []int{1, 4}, total: 2},
		{name: "created in [+2h, +4h)", q: app.Query{Where: where(atOrAfter(app.FieldCreatedAt, hours(2)), before(app.FieldCreatedAt, hours(4)))}, want: []int{2, 3}, total: 2},
		{name: "description a and unit kg", q: app.Query{Where: where(contains("a", app.FieldDescription), equalFold(app.FieldUnit, "kg"))}, want: []int{3, 4}, total: 2},

		{name: "page 2 of 2", q: app.Query{Offset: 2, Limit: 2}, want: []int{3, 4}, total: 6},
		{name: "last, short page", q: app.Query{Offset: 5, Limit: 10}, want: []int{6}, total: 6},
		{name: "offset at the end", q: app.Query{Offset: 6, Limit: 10}, want: []int{}, total: 6},
		{name: "offset past the end", q: app.Query{Offset: 100, Limit: 1}, want: []int{}, total: 6},
		{name: "negative offset", q: app.Query{Offset: -3, Limit: 2}, want: []int{1, 2}, total: 6},
		{name: "no limit from an offset", q: app.Query{Offset: 4}, want: []int{5, 6}, total: 6},
		{name: "sorted page", q: app.Query{Sort: sortBy("code"), Offset: 1, Limit: 3}, want: []int{4, 3, 2}, total: 6},
		{name: "sorted page, descending", q: app.Query{Sort: sortBy("-code"), Offset: 4, Limit: 5}, want: []int{4, 5}, total: 6},
		{name: "page through a tie", q: app.Query{Sort: sortBy("-unit"), Offset: 2, Limit: 2}, want: []int{1, 6}, total: 6},
		{name: "page inside a tie", q: app.Query{Sort: sortBy("status"), Offset: 3, Limit: 2}, want: []int{3, 4}, total: 6},
		{name: "filtered page", q: app.Query{Where: where(equalFold(app.FieldUnit, "m3")), Offset: 1, Limit: 1}, want: []int{2}, total: 3},
		{name: "filtered, sorted page", q: app.Query{Where: where(equalFold(app.FieldUnit, "m3")), Sort: sortBy("-code"), Offset: 0, Limit: 2}, want: []int{6, 1}, total: 3},
		{name: "filtered, sort unit: ties in ID order", q: app.Query{Where: where(equalFold(app.FieldUnit, "m3")), Sort: sortBy("unit")}, want: []int{1, 6, 2}, total: 3},
		{name: "filtered, sort -unit: ties in ID order", q: app.Query{Where: where(equalFold(app.FieldUnit, "m3")), Sort: sortBy("-unit")}, want: []int{2, 1, 6}, total: 3},
		{name: "filtered, sort -status", q: app.Query{Where: where(contains("a", app.FieldDescription)), Sort: sortBy("-status")}, want: []int{1, 3, 4, 2}, total: 4},
		{name: "filtered, offset past the end", q: app.Query{Where: where(equalFold(app.FieldUnit, "m3")), Offset: 3, Limit: 2}, want: []int{}, total: 3},
	})
	runQueries(t, s, "RE", func(tx app.Tx, q app.Query) ([]*domain.Resource, int, error) { return tx.Resources(coB, q) }, resourceID, []queryCase{
		{name: "B: everything", q: app.Query{}, want: []int{7, 8}, total: 2},
		{name: "B: sort -code", q: app.Query{Sort: sortBy("-code")}, want: []int{7, 8}, total: 2},
		{name: "B: description agua", q: app.Query{Where: where(contains("agua", app.FieldDescription))}, want: []int{7}, total: 1},
		{name: "B: offset past the end", q: app.Query{Offset: 2, Limit: 5}, want: []int{}, total: 2},
	})
	runQueries(t, s, "RE", func(tx app.Tx, q app.Query) ([]*domain.Resource, int, error) { return tx.Resources(coZ, q) }, resourceID, []queryCase{
		{name: "no company: everything", q: app.Query{}, want: []int{}, total: 0},
		{name: "no company: sorted", q: app.Query{Sort: sortBy("code"), Limit: 10}, want: []int{}, total: 0},
	})

	// Every index follows a change: recode, describe anew, move to another
	// company, delete.
	update(t, s, func(tx app.Tx) error {
		r1 := rs[0]
		r1.Code, r1.Description, r1.Unit = "A-0", "Zebra", "KG"
		if err := tx.PutResource(r1); err != nil {
			return err
		}
		r6 := rs[5]
		r6.CompanyID = coB
		if err := tx.PutResource(r6); err != nil {
			return err
		}
		return tx.DeleteResource(qid("RE", 5))
	})
	runQueries(t, s, "RE", listResources, resourceID, []queryCase{
		{name: "after changes: everything", q: app.Query{}, want: []int{1, 2, 3, 4}, total: 4},
		{name: "after changes: sort code", q: app.Query{Sort: sortBy("code")}, want: []int{1, 4, 3, 2}, total: 4},
		{name: "after changes: sort -description", q: app.Query{Sort: sortBy("-description")}, want: []int{1, 4, 3, 2}, total: 4},
		{name: "after changes: unit kg", q: app.Query{Where: where(equalFold(app.FieldUnit, "kg"))}, want: []int{1, 3, 4}, total: 3},
		{name: "after changes: description agua", q: app.Query{Where: where(contains("agua", app.FieldDescription))}, want: []int{2}, total: 1},
		{name: "after changes: page", q: app.Query{Sort: sortBy("created_at"), Offset: 1, Limit: 2}, want: []int{1, 2}, total: 4},
	})
	runQueries(t, s, "RE", func(tx app.Tx, q app.Query) ([]*domain.Resource, int, error) { return tx.Resources(coB, q) }, resourceID, []queryCase{
		{name: "B after the move: everything", q: app.Query{}, want: []int{6, 7, 8}, total: 3},
		{name: "B after the move: sort code", q: app.Query{Sort: sortBy("code")}, want: []int{8, 7, 6}, total: 3},
		{name: "B after the move: group A1", q: app.Query{Where: where(equalText(app.FieldGroup, grA1))}, want: []int{6}, total: 1},
	})
}

func queryComposition(n int, companyID, code, description, class, unit, state, group string, sicro bool, created time.Time, items ...domain.Item) *domain.Composition {
	c := newComposition(qid("CP", n), companyID, code, state)
	c.Description, c.Type, c.Unit, c.GroupID, c.IsSicro, c.CreatedAt = description, class, unit, group, sicro, created
	c.Items = items
	return c
}

func ownItem(kind domain.ItemKind, code string) domain.Item {
	return domain.Item{Bank: domain.BankMyBase, Code: code, Kind: kind, Quantity: dec("1")}
}

func listCompositions(tx app.Tx, q app.Query) ([]*domain.Composition, int, error) {
	return tx.Compositions(coA, q)
}

func compositionID(c *domain.Composition) string { return c.ID }

// testQueryCompositions checks the filters and sort keys of compositions,
// Uses among them.
func testQueryCompositions(t *testing.T, s app.Store) {
	sinapiR1 := domain.Item{Bank: "SINAPI", Code: "R-1", Kind: domain.KindResource, Quantity: dec("1")}
	cs := []*domain.Composition{
		queryComposition(1, coA, "C-2", "Alvenaria", "PARE", "M2", "MG", grA1, true, hours(1), ownItem(domain.KindResource, "R-1")),
		queryComposition(2, coA, "C-10", "alvenária bloco", "PARE", "m2", "SP", grA2, false, hours(2), ownItem(domain.KindComposition, "C-2")),
		queryComposition(3, coA, "C-2", "Pintura", "PINT", "M2", "SP", "", true, hours(0), ownItem(domain.KindResource, "R-1"), ownItem(domain.KindResource, "R-2")),
		queryComposition(4, coA, "c-1", "pintura látex", "PINT", "L", "MG", grA1, false, hours(3), sinapiR1, ownItem(domain.KindComposition, "C-2")),
		queryComposition(5, coB, "C-2", "Alvenaria", "PARE", "M2", "MG", grB1, true, hours(1), ownItem(domain.KindResource, "R-1")),
	}
	update(t, s, func(tx app.Tx) error {
		for _, c := range cs {
			if err := tx.PutComposition(c); err != nil {
				return err
			}
		}
		return nil
	})
	runQueries(t, s, "CP", listCompositions, compositionID, []queryCase{
		{name: "everything", q: app.Query{}, want: []int{1, 2, 3, 4}, total: 4},
		// C-2 (1, MG) and C-2 (3, SP): equal codes, ID order both ways.
		{name: "sort code", q: app.Query{Sort: sortBy("code")}, want: []int{4, 1, 3, 2}, total: 4},
		{name: "sort -code", q: app.Query{Sort: sortBy("-code")}, want: []int{2, 1, 3, 4}, total: 4},
		{name: "sort description", q: app.Query{Sort: sortBy("description")}, want: []int{1, 2, 3, 4}, total: 4},
		{name: "sort type", q: app.Query{Sort: sortBy("type")}, want: []int{1, 2, 3, 4}, total: 4},
		{name: "sort -type", q: app.Query{Sort: sortBy("-type")}, want: []int{3, 4, 1, 2}, total: 4},
		{name: "sort unit", q: app.Query{Sort: sortBy("unit")}, want: []int{4, 1, 3, 2}, total: 4},
		{name: "sort state", q: app.Query{Sort: sortBy("state")}, want: []int{1, 4, 2, 3}, total: 4},
		{name: "sort -state", q: app.Query{Sort: sortBy("-state")}, want: []int{2, 3, 1, 4}, total: 4},
		{name: "sort is_sicro", q: app.Query{Sort: sortBy("is_sicro")}, want: []int{2, 4, 1, 3}, total: 4},
		{name: "sort -created_at", q: app.Query{Sort: sortBy("-created_at")}, want: []int{4, 2, 1, 3}, total: 4},
		{name: "sort state,-created_at", q: app.Query{Sort: sortBy("state", "-created_at")}, want: []int{4, 1, 2, 3}, total: 4},

		{name: "code contains c-1", q: app.Query{Where: where(contains("c-1", app.FieldCode))}, want: []int{2, 4}, total: 2},
		{name: "code is C-2", q: app.Query{Where: where(equalText(app.FieldCode, "C-2"))}, want: []int{1, 3}, total: 2},
		{name: "code is c-2 (exact: no match)", q: app.Query{Where: where(equalText(app.FieldCode, "c-2"))}, want: []int{}, total: 0},
		{name: "description alvenaria", q: app.Query{Where: where(contains("ALVENARIA", app.FieldDescription))}, want: []int{1, 2}, total: 2},
		{name: "search latex", q: app.Query{Where: where(contains("latex", app.FieldCode, app.FieldDescription))}, want: []int{4}, total: 1},
		{name: "type pint", q: app.Query{Where: where(equalFold(app.FieldType, "pint"))}, want: []int{3, 4}, total: 2},
		{name: "unit m2", q: app.Query{Where: where(equalFold(app.FieldUnit, "m2"))}, want: []int{1, 2, 3}, total: 3},
		{name: "state sp", q: app.Query{Where: where(equalFold(app.FieldState, "sp"))}, want: []int{2, 3}, total: 2},
		{name: "group A1", q: app.Query{Where: where(equalText(app.FieldGroup, grA1))}, want: []int{1, 4}, total: 2},
		{name: "is_sicro false", q: app.Query{Where: where(equalBool(app.FieldIsSicro, false))}, want: []int{2, 4}, total: 2},
		{name: "created before +1h", q: app.Query{Where: where(before(app.FieldCreatedAt, hours(1)))}, want: []int{3}, total: 1},

		{name: "uses own resource R-1", q: app.Query{Where: where(uses(domain.KindResource, "R-1", ""))}, want: []int{1, 3}, total: 2},
		{name: "uses own resource R-2", q: app.Query{Where: where(uses(domain.KindResource, "R-2", ""))}, want: []int{3}, total: 1},
		{name: "uses own resource R-3", q: app.Query{Where: where(uses(domain.KindResource, "R-3", ""))}, want: []int{}, total: 0},
		{name: "uses own composition C-2 in SP", q: app.Query{Where: where(uses(domain.KindComposition, "C-2", "SP"))}, want: []int{2}, total: 1},
		{name: "uses own composition C-2 in MG", q: app.Query{Where: where(uses(domain.KindComposition, "C-2", "MG"))}, want: []int{4}, total: 1},
		{name: "uses own composition R-1 (a resource)", q: app.Query{Where: where(uses(domain.KindComposition, "R-1", "MG"))}, want: []int{}, total: 0},
		{name: "uses R-1, first page", q: app.Query{Where: where(uses(domain.KindResource, "R-1", "")), Limit: 1}, want: []int{1}, total: 2},
		{name: "uses R-1 and state SP", q: app.Query{Where: where(uses(domain.KindResource, "R-1", ""), equalFold(app.FieldState, "SP"))}, want: []int{3}, total: 1},

		{name: "sorted page", q: app.Query{Sort: sortBy("-code"), Offset: 1, Limit: 2}, want: []int{1, 3}, total: 4},
		{name: "offset past the end", q: app.Query{Sort: sortBy("code"), Offset: 4, Limit: 2}, want: []int{}, total: 4},
	})

	// Uses follows a change of the items, and a deletion.
	update(t, s, func(tx app.Tx) error {
		c1 := cs[0]
		c1.Items = []domain.Item{ownItem(domain.KindResource, "R-3")}
		if err := tx.PutComposition(c1); err != nil {
			return err
		}
		return tx.DeleteComposition(qid("CP", 3))
	})
	runQueries(t, s, "CP", listCompositions, compositionID, []queryCase{
		{name: "after changes: uses R-1", q: app.Query{Where: where(uses(domain.KindResource, "R-1", ""))}, want: []int{}, total: 0},
		{name: "after changes: uses R-3", q: app.Query{Where: where(uses(domain.KindResource, "R-3", ""))}, want: []int{1}, total: 1},
		{name: "after changes: sort code", q: app.Query{Sort: sortBy("code")}, want: []int{4, 1, 2}, total: 3},
	})
	runQueries(t, s, "CP", func(tx app.Tx, q app.Query) ([]*domain.Composition, int, error) { return tx.Compositions(coB, q) }, compositionID, []queryCase{
		{name: "B: uses R-1", q: app.Query{Where: where(uses(domain.KindResource, "R-1", ""))}, want: []int{5}, total: 1},
		{name: "B: everything", q: app.Query{}, want: []int{5}, total: 1},
	})
}

func queryGroup(n int, companyID, description string, created time.Time) *domain.Group {
	g := newGroup(qid("GR", n), companyID, description)
	g.CreatedAt = created
	return g
}

// testQueryGroups checks the filters and sort keys of groups.
func testQueryGroups(t *testing.T, s app.Store) {
	gs := []*domain.Group{
		queryGroup(1, coA, "Fundações", hours(2)),
		queryGroup(2, coA, "alvenaria", hours(1)),
		queryGroup(3, coA, "Alvenaria", hours(3)),
		queryGroup(4, coA, "Coberturas", hours(0)),
		queryGroup(5, coB, "Alvenaria", hours(1)),
	}
	update(t, s, func(tx app.Tx) error {
		for _, g := range gs {
			if err := tx.PutGroup(g); err != nil {
				return err
			}
		}
		return nil
	})
	list := func(tx app.Tx, q app.Query) ([]*domain.Group, int, error) { return tx.Groups(coA, q) }
	id := func(g *domain.Group) string { return g.ID }
	runQueries(t, s, "GR", list, id, []queryCase{
		{name: "everything", q: app.Query{}, want: []int{1, 2, 3, 4}, total: 4},
		{name: "sort description", q: app.Query{Sort: sortBy("description")}, want: []int{3, 2, 4, 1}, total: 4},
		{name: "sort -description", q: app.Query{Sort: sortBy("-description")}, want: []int{1, 4, 2, 3}, total: 4},
		{name: "sort created_at", q: app.Query{Sort: sortBy("created_at")}, want: []int{4, 2, 1, 3}, total: 4},
		{name: "description contains FUNDACOES", q: app.Query{Where: where(contains("FUNDACOES", app.FieldDescription))}, want: []int{1}, total: 1},
		{name: "description is ALVENARIA, any case", q: app.Query{Where: where(equalFold(app.FieldDescription, "ALVENARIA"))}, want: []int{2, 3}, total: 2},
		{name: "description is ALVENARIA, first only", q: app.Query{Where: where(equalFold(app.FieldDescription, "ALVENARIA")), Limit: 1}, want: []int{2}, total: 2},
		{name: "description is fundacoes (accents count)", q: app.Query{Where: where(equalFold(app.FieldDescription, "fundacoes"))}, want: []int{}, total: 0},
		{name: "created at or after +2h", q: app.Query{Where: where(atOrAfter(app.FieldCreatedAt, hours(2)))}, want: []int{1, 3}, total: 2},
		{name: "page", q: app.Query{Sort: sortBy("description"), Offset: 3, Limit: 3}, want: []int{1}, total: 4},
	})
}

func queryBudget(n int, companyID, code, description, client, state string, created, updated time.Time, nodes ...domain.BudgetNode) *domain.Budget {
	b := newBudget(qid("BU", n), companyID, code)
	b.Description, b.Client, b.State, b.CreatedAt, b.UpdatedAt = description, client, state, created, updated
	b.Items = nodes
	return b
}

func line(kind domain.NodeKind, bank, code string) domain.BudgetNode {
	return domain.BudgetNode{ID: "n" + code, Kind: kind, Bank: bank, Code: code, Quantity: dec("1")}
}

func stage(id string, nodes ...domain.BudgetNode) domain.BudgetNode {
	return domain.BudgetNode{ID: id, Kind: domain.NodeStage, Description: "Etapa " + id, Items: nodes}
}

// testQueryBudgets checks that Budgets lists headers, and its filters and
// sort keys, Uses (in lines nested in stages) among them.
func listBudgetHeaders(tx app.Tx, q app.Query) ([]*domain.BudgetHeader, int, error) {
	return tx.Budgets(coA, q)
}

func budgetHeaderID(h *domain.BudgetHeader) string { return h.ID }

func testQueryBudgets(t *testing.T, s app.Store) {
	bs := []*domain.Budget{
		queryBudget(1, coA, "ORC-10", "Casa térrea", "Maria", "MG", hours(1), hours(5),
			stage("s1", stage("s2", line(domain.NodeResource, domain.BankMyBase, "R-1"))),
			// The same own resource again: the budget still counts once.
			domain.BudgetNode{ID: "again", Kind: domain.NodeResource, Bank: domain.BankMyBase, Code: "R-1", Quantity: dec("3")}),
		queryBudget(2, coA, "orc-9", "Galpão", "João", "SP", hours(2), hours(2),
			line(domain.NodeComposition, domain.BankMyBase, "C-2")),
		queryBudget(3, coA, "ORC-2", "casa de praia", "Ana Maria", "MG", hours(0), hours(9),
			line(domain.NodeResource, "SINAPI", "R-1"), stage("s1", line(domain.NodeComposition, domain.BankMyBase, "C-2"))),
		queryBudget(4, coB, "ORC-10", "Casa térrea", "Maria", "MG", hours(1), hours(5),
			line(domain.NodeResource, domain.BankMyBase, "R-1")),
	}
	update(t, s, func(tx app.Tx) error {
		for _, b := range bs {
			if err := tx.PutBudget(b); err != nil {
				return err
			}
		}
		return nil
	})
	runQueries(t, s, "BU", listBudgetHeaders, budgetHeaderID, []queryCase{
		{name: "everything", q: app.Query{}, want: []int{1, 2, 3}, total: 3},
		{name: "sort code", q: app.Query{Sort: sortBy("code")}, want: []int{3, 2, 1}, total: 3},
		{name: "sort description", q: app.Query{Sort: sortBy("description")}, want: []int{3, 1, 2}, total: 3},
		{name: "sort -client", q: app.Query{Sort: sortBy("-client")}, want: []int{1, 2, 3}, total: 3},
		{name: "sort state", q: app.Query{Sort: sortBy("state")}, want: []int{1, 3, 2}, total: 3},
		{name: "sort -state", q: app.Query{Sort: sortBy("-state")}, want: []int{2, 1, 3}, total: 3},
		{name: "sort created_at", q: app.Query{Sort: sortBy("created_at")}, want: []int{3, 1, 2}, total: 3},
		{name: "sort -updated_at", q: app.Query{Sort: sortBy("-updated_at")}, want: []int{3, 1, 2}, total: 3},
		{name: "code contains orc-1", q: app.Query{Where: where(contains("orc-1", app.FieldCode))}, want: []int{1}, total: 1},
		{name: "description contains CASA", q: app.Query{Where: where(contains("CASA", app.FieldDescription))}, want: []int{1, 3}, total: 2},
		{name: "client contains joao", q: app.Query{Where: where(contains("joao", app.FieldClient))}, want: []int{2}, total: 1},
		{name: "search maria", q: app.Query{Where: where(contains("maria", app.FieldCode, app.FieldDescription, app.FieldClient))}, want: []int{1, 3}, total: 2},
		{name: "search galpao", q: app.Query{Where: where(contains("galpao", app.FieldCode, app.FieldDescription, app.FieldClient))}, want: []int{2}, total: 1},
		{name: "state mg", q: app.Query{Where: where(equalFold(app.FieldState, "mg"))}, want: []int{1, 3}, total: 2},
		{name: "updated at or after +5h", q: app.Query{Where: where(atOrAfter(app.FieldUpdatedAt, hours(5)))}, want: []int{1, 3}, total: 2},
		{name: "updated before +5h", q: app.Query{Where: where(before(app.FieldUpdatedAt, hours(5)))}, want: []int{2}, total: 1},
		{name: "created before +1h", q: app.Query{Where: where(before(app.FieldCreatedAt, hours(1)))}, want: []int{3}, total: 1},
		{name: "uses own resource R-1 (nested)", q: app.Query{Where: where(uses(domain.KindResource, "R-1", ""))}, want: []int{1}, total: 1},
		{name: "uses own composition C-2 in MG", q: app.Query{Where: where(uses(domain.KindComposition, "C-2", "MG"))}, want: []int{3}, total: 1},
		{name: "uses own composition C-2 in SP", q: app.Query{Where: where(uses(domain.KindComposition, "C-2", "SP"))}, want: []int{2}, total: 1},
		{name: "page", q: app.Query{Sort: sortBy("code"), Offset: 1, Limit: 1}, want: []int{2}, total: 3},
		{name: "offset past the end", q: app.Query{Offset: 3, Limit: 1}, want: []int{}, total: 3},
	})
	// The headers are the budgets without their trees.
	view(t, s, func(tx app.Tx) error {
		got, total, err := tx.Budgets(coA, app.Query{Sort: sortBy("code"), Limit: 1})
		if err != nil {
			return err
		}
		diff(t, "header of ORC-2", []*domain.BudgetHeader{bs[2].Header()}, got)
		if total != 3 {
			t.Errorf("total = %d, want 3", total)
		}
		return nil
	})
	// Uses follows a change of the tree.
	update(t, s, func(tx app.Tx) error {
		b := bs[0]
		b.Items = []domain.BudgetNode{line(domain.NodeResource, domain.BankMyBase, "R-9")}
		return tx.PutBudget(b)
	})
	runQueries(t, s, "BU", listBudgetHeaders, budgetHeaderID, []queryCase{
		{name: "after the change: uses R-1", q: app.Query{Where: where(uses(domain.KindResource, "R-1", ""))}, want: []int{}, total: 0},
		{name: "after the change: uses R-9", q: app.Query{Where: where(uses(domain.KindResource, "R-9", ""))}, want: []int{1}, total: 1},
	})
	runQueries(t, s, "BU", func(tx app.Tx, q app.Query) ([]*domain.BudgetHeader, int, error) { return tx.Budgets(coB, q) }, budgetHeaderID, []queryCase{
		{name: "B: uses R-1", q: app.Query{Where: where(uses(domain.KindResource, "R-1", ""))}, want: []int{4}, total: 1},
	})
}

// testQueryConcurrentWriters checks that concurrent writers lose no update:
// records created at once are all counted and listed, and increments of
// one record's field are all kept.
func testQueryConcurrentWriters(t *testing.T, s app.Store) {
	const writers, each = 8, 10
	update(t, s, func(tx app.Tx) error {
		return tx.PutResource(queryResource(0, coA, "COUNTER", "0", domain.TypeMaterial, "UN", "", nil, true, false, base))
	})
	var wg sync.WaitGroup
	errs := make(chan error, writers*each*2)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				n := 1 + w*each + i
				errs <- s.Update(bg(), func(tx app.Tx) error {
					return tx.PutResource(queryResource(n, coA, "W-"+strconv.Itoa(n), "novo", domain.TypeMaterial, "UN", "", nil, true, false, hours(n)))
				})
				errs <- s.Update(bg(), func(tx app.Tx) error {
					r, err := tx.Resource(qid("RE", 0))
					if err != nil {
						return err
					}
					v, err := strconv.Atoi(r.Description)
					if err != nil {
						return err
					}
					r.Description = strconv.Itoa(v + 1)
					return tx.PutResource(r)
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
	}
	view(t, s, func(tx app.Tx) error {
		_, total, err := tx.Resources(coA, app.Query{Limit: 1})
		if err != nil || total != writers*each+1 {
			t.Errorf("total = %d, %v; want %d", total, err, writers*each+1)
		}
		page, total, err := tx.Resources(coA, app.Query{Sort: sortBy("-created_at"), Limit: 2})
		if err != nil || total != writers*each+1 || len(page) != 2 || page[0].ID != qid("RE", writers*each) {
			t.Errorf("newest page = %v (total %d), %v; want %s first of %d", page, total, err, qid("RE", writers*each), writers*each+1)
		}
		r, err := tx.Resource(qid("RE", 0))
		if err != nil || r.Description != strconv.Itoa(writers*each) {
			t.Errorf("counter = %v, %v; want %d", r, err, writers*each)
		}
		counted, total, err := tx.Resources(coA, app.Query{Where: where(contains(strconv.Itoa(writers*each), app.FieldDescription))})
		if err != nil || total != 1 || len(counted) != 1 {
			t.Errorf("resources described %d: %d (total %d), %v; want the counter alone", writers*each, len(counted), total, err)
		}
		return nil
	})
}

// testQueryRefusesOtherFields checks that a list refuses a field or a
// condition it does not have, rather than ignoring it.
func testQueryRefusesOtherFields(t *testing.T, s app.Store) {
	view(t, s, func(tx app.Tx) error {
		for _, c := range []struct {
			name string
			list func() error
		}{
			{"groups sorted by code", func() error { _, _, err := tx.Groups(coA, app.Query{Sort: sortBy("code")}); return err }},
			{"groups filtered by unit", func() error {
				_, _, err := tx.Groups(coA, app.Query{Where: where(equalFold(app.FieldUnit, "KG"))})
				return err
			}},
			{"resources using an item", func() error {
				_, _, err := tx.Resources(coA, app.Query{Where: where(uses(domain.KindResource, "R-1", ""))})
				return err
			}},
			{"budgets priced in a state", func() error {
				_, _, err := tx.Budgets(coA, app.Query{Where: where(app.Cond{Op: app.PricedIn, Text: "MG"})})
				return err
			}},
			{"compositions sorted by client", func() error {
				_, _, err := tx.Compositions(coA, app.Query{Sort: sortBy("-client")})
				return err
			}},
		} {
			if err := c.list(); err == nil {
				t.Errorf("%s: no error", c.name)
			}
		}
		return nil
	})
}
