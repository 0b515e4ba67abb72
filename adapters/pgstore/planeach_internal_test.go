package pgstore

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/app"
)

// A filtered page's statements are planned for their values at each
// execution (queuePlanEach): the setting goes first in the page's batch,
// and only for a text filter.
func TestFilteredListsPlannedEachTime(t *testing.T) {
	word := app.Query{Where: []app.Cond{{Op: app.Contains, Fields: []app.Field{app.FieldDescription}, Text: "alvenaria"}}, Limit: 100}
	plain := app.Query{Where: []app.Cond{{Op: app.Equal, Fields: []app.Field{app.FieldStatus}, Bool: true}}, Limit: 100}
	for _, l := range []*listSQL{groupList, resourceList, compositionList, budgetList} {
		for _, c := range []struct {
			q    app.Query
			want bool
		}{{word, true}, {plain, false}, {app.Query{}, false}} {
			if c.q.Where != nil && c.q.Where[0].Op == app.Equal && l != resourceList {
				continue // status is a resource's field
			}
			s, err := l.compile("co1", c.q)
			if err != nil {
				t.Fatalf("%s: %v", l.name, err)
			}
			b := &pgx.Batch{}
			s.queuePlanEach(b)
			got := len(b.QueuedQueries) == 1 && strings.Contains(b.QueuedQueries[0].SQL, "plan_cache_mode = force_custom_plan")
			if got != c.want || len(b.QueuedQueries) > 1 {
				t.Errorf("%s, %+v: queued %d statements (planned each time: %v), want planned each time %v", l.name, c.q.Where, len(b.QueuedQueries), got, c.want)
			}
		}
	}
}
