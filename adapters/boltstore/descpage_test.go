package boltstore

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestDescendingPages: a descending sort gives the groups of equal keys
// from the last, each in ID order, for groups of one entry, around the
// size gathered stepping back (31, 32, 33) and larger, at every offset and
// with a word filter; the pages read one after another are the whole list.
func TestDescendingPages(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "d.db"))
	sizes := []int{1, 31, 1, 32, 33, 1, 1, 70, 2}
	var rs []*domain.Resource
	type entry struct {
		unit, id string
		word     bool
	}
	var want []entry
	n := 0
	for g, size := range sizes {
		for range size {
			r := cachedResource(n)
			r.Unit = fmt.Sprintf("U%02d", g)
			// ids not in creation order within a group
			r.ID = fmt.Sprintf("r%06d", (n*7919)%1000)
			r.Code = "R-" + r.ID
			if n%3 == 0 {
				r.Description = "PISO " + r.ID
			}
			rs = append(rs, r)
			want = append(want, entry{r.Unit, r.ID, n%3 != 0})
			n++
		}
	}
	putResources(t, s, rs...)
	slices.SortFunc(want, func(a, b entry) int {
		if a.unit != b.unit {
			return -cmpString(a.unit, b.unit)
		}
		return cmpString(a.id, b.id)
	})
	ids := func(es []entry, word bool) []string {
		out := []string{}
		for _, e := range es {
			if !word || e.word {
				out = append(out, e.id)
			}
		}
		return out
	}
	for _, word := range []bool{false, true} {
		all := ids(want, word)
		for _, limit := range []int{1, 5, 40, 100} {
			for offset := 0; offset <= len(all); offset += max(1, limit/2) {
				q := app.Query{Sort: []app.Order{{Field: app.FieldUnit, Desc: true}}, Offset: offset, Limit: limit}
				if word {
					q.Where = []app.Cond{{Op: app.Contains, Fields: []app.Field{app.FieldDescription}, Text: "alvenaria"}}
				}
				var got []string
				if err := s.View(context.Background(), func(tx app.Tx) error {
					page, _, err := tx.Resources("c1", q)
					for _, r := range page {
						got = append(got, r.ID)
					}
					return err
				}); err != nil {
					t.Fatal(err)
				}
				w := all[min(offset, len(all)):min(offset+limit, len(all))]
				if !slices.Equal(got, w) && !(len(got) == 0 && len(w) == 0) {
					t.Fatalf("word %v, offset %d, limit %d:\n got %v\nwant %v", word, offset, limit, got, w)
				}
			}
		}
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
