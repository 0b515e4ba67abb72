package storetest

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// testQueryText checks the text conditions (app.Contains) as the indexes
// answer them (issue 29: lists asked of an index): a word inside a word,
// accents and case ignored, several conditions in any order, a value
// holding white space (a substring), LIKE's wildcards taken literally, a
// sort and a page over the matches, and the index following updates and
// deletes.
func testQueryText(t *testing.T, s app.Store) {
	res := func(n int, companyID, code, description string, status bool) *domain.Resource {
		r := queryResource(n, companyID, code, description, domain.TypeMaterial, "M2", "", []string{"MG"}, status, false, hours(n))
		return r
	}
	rs := []*domain.Resource{
		res(1, coA, "A-100", "ALVENARIA DE BLOCO CERÂMICO 14X19", true),
		res(2, coA, "A-20", "Bloco de concreto para alvenária", false),
		res(3, coA, "B-3", "alvenaria estrutural", true),
		res(4, coA, "C-1", "Argamassa 50% cal_hidratada", true),
		res(5, coA, "x_y", "Areia média lavada", true),
		res(6, coA, "ALV-1", "Tubo PVC", true),
		// Another company's: never in A's lists.
		res(7, coB, "A-100", "ALVENARIA DE BLOCO", true),
	}
	update(t, s, func(tx app.Tx) error {
		for _, r := range rs {
			if err := tx.PutResource(r); err != nil {
				return err
			}
		}
		return nil
	})
	desc := func(text string) app.Cond { return contains(text, app.FieldDescription) }
	search := func(text string) app.Cond { return contains(text, app.FieldCode, app.FieldDescription) }
	runQueries(t, s, "RE", listResources, resourceID, []queryCase{
		{name: "inside a word", q: app.Query{Where: where(desc("venaria"))}, want: []int{1, 2, 3}, total: 3},
		{name: "accents and case", q: app.Query{Where: where(desc("ALVENÁRIA"))}, want: []int{1, 2, 3}, total: 3},
		{name: "two words, any order", q: app.Query{Where: where(desc("bloco"), desc("alvenaria"))}, want: []int{1, 2}, total: 2},
		{name: "the same, the other order", q: app.Query{Where: where(desc("alvenaria"), desc("bloco"))}, want: []int{1, 2}, total: 2},
		{name: "a value with a space is a substring", q: app.Query{Where: where(desc("de bloco"))}, want: []int{1}, total: 1},
		{name: "a space inside: ends of two words", q: app.Query{Where: where(desc("ria est"))}, want: []int{3}, total: 1},
		{name: "percent sign", q: app.Query{Where: where(desc("50%"))}, want: []int{4}, total: 1},
		{name: "percent sign alone", q: app.Query{Where: where(desc("%"))}, want: []int{4}, total: 1},
		{name: "underscore", q: app.Query{Where: where(desc("l_h"))}, want: []int{4}, total: 1},
		{name: "underscore is no wildcard", q: app.Query{Where: where(desc("5_%"))}, want: []int{}, total: 0},
		{name: "underscore in a code", q: app.Query{Where: where(contains("_", app.FieldCode))}, want: []int{5}, total: 1},
		{name: "code or description", q: app.Query{Where: where(search("alv"))}, want: []int{1, 2, 3, 6}, total: 4},
		{name: "no match", q: app.Query{Where: where(desc("tijolo"))}, want: []int{}, total: 0},
		// Natural order of the codes: A-20 < A-100 < B-3.
		{name: "sort -code, first page", q: app.Query{Where: where(desc("alvenaria")), Sort: sortBy("-code"), Limit: 2}, want: []int{3, 1}, total: 3},
		{name: "sort -code, second page", q: app.Query{Where: where(desc("alvenaria")), Sort: sortBy("-code"), Offset: 2, Limit: 2}, want: []int{2}, total: 3},
		{name: "sort -code, past the end", q: app.Query{Where: where(desc("alvenaria")), Sort: sortBy("-code"), Offset: 3, Limit: 2}, want: []int{}, total: 3},
		{name: "sort code", q: app.Query{Where: where(desc("alvenaria")), Sort: sortBy("code"), Limit: 100}, want: []int{2, 1, 3}, total: 3},
		{name: "sort description", q: app.Query{Where: where(search("alv")), Sort: sortBy("description"), Limit: 100}, want: []int{1, 3, 2, 6}, total: 4},
		{name: "sort -description, no limit", q: app.Query{Where: where(search("alv")), Sort: sortBy("-description")}, want: []int{6, 2, 3, 1}, total: 4},
		{name: "two fields, a short page", q: app.Query{Where: where(search("alv")), Sort: sortBy("description"), Limit: 2}, want: []int{1, 3}, total: 4},
		{name: "many tokens, a short page", q: app.Query{Where: where(desc("a")), Sort: sortBy("-code"), Limit: 2}, want: []int{5, 4}, total: 5},
		{name: "many tokens, the second page", q: app.Query{Where: where(desc("a")), Sort: sortBy("-code"), Offset: 2, Limit: 2}, want: []int{3, 1}, total: 5},
		{name: "two sort keys", q: app.Query{Where: where(desc("alvenaria")), Sort: sortBy("status", "-code")}, want: []int{2, 3, 1}, total: 3},
		{name: "ID order, a page", q: app.Query{Where: where(desc("alvenaria")), Offset: 1, Limit: 1}, want: []int{2}, total: 3},
		{name: "with another condition", q: app.Query{Where: where(desc("alvenaria"), equalBool(app.FieldStatus, false))}, want: []int{2}, total: 1},
	})

	// The index follows an update and a delete.
	update(t, s, func(tx app.Tx) error {
		r := res(3, coA, "B-3", "Pintura acrílica", true)
		if err := tx.PutResource(r); err != nil {
			return err
		}
		return tx.DeleteResource(qid("RE", 1))
	})
	runQueries(t, s, "RE", listResources, resourceID, []queryCase{
		{name: "after: the old words", q: app.Query{Where: where(desc("alvenaria")), Sort: sortBy("-code"), Limit: 100}, want: []int{2}, total: 1},
		{name: "after: the new words", q: app.Query{Where: where(desc("acrilica")), Sort: sortBy("code"), Limit: 100}, want: []int{3}, total: 1},
		{name: "after: a word the deleted one held", q: app.Query{Where: where(desc("ceramico"))}, want: []int{}, total: 0},
	})
}
