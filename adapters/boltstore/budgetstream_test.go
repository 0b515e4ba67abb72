package boltstore

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
	bolt "go.etcd.io/bbolt"
)

// The walk's contract (the nodes of the stored tree, in order, with their
// depths) is the store contract's: storetest's BudgetStream.

// TestBudgetStreamCorruptTree: a stored tree the scanner cannot read is a
// corrupt-record error from the walk, naming the record.
func TestBudgetStreamCorruptTree(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "costdb.db"))
	defer s.Close()
	ctx := context.Background()
	for _, tree := range []string{
		`[{"id":"n1","kind":"resource","quantity":"1.x"}]`,
		`[{"id":"n1","kind":"stage","items":[],"description":"after"}]`,
		`[{"id":"n1","kind":"stage","items":[{"id":"n2"`,
	} {
		rec := `{"id":"b1","company_id":"c1","code":"ORC","state":"MG","bdi":"25","bdi_mode":"unit_price","rounding":"truncate","items":` + tree + `}`
		err := s.db.Update(func(btx *bolt.Tx) error { return btx.Bucket(bucketBudgets).Put([]byte("b1"), []byte(rec)) })
		if err != nil {
			t.Fatal(err)
		}
		err = s.View(ctx, func(tx app.Tx) error {
			_, walk, err := tx.(app.BudgetStreamer).BudgetStream("b1")
			if err != nil {
				return err
			}
			return walk(func(*domain.BudgetNode, int) error { return nil })
		})
		if err == nil || !strings.Contains(err.Error(), `corrupt record "b1"`) {
			t.Fatalf("tree %s: err %v, want a corrupt record", tree, err)
		}
	}
}

// TestSplitItemsFindsTheTree: a record as PutBudget writes it, its budget's
// description holding both markers, is split without reading the tree; the
// rest decodes to the budget without its tree.
func TestSplitItemsFindsTheTree(t *testing.T) {
	b := &domain.Budget{ID: "b1", CompanyID: "c1", Code: "ORC", Description: `"items":[ ],"created_at":`, State: "MG",
		BDI: decimal.New(25, 0), BDIMode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate,
		Items: []domain.BudgetNode{{Kind: domain.NodeStage, Description: `],"created_at":`, Items: []domain.BudgetNode{
			{Kind: domain.NodeResource, Bank: "SINAPI", Code: "1", Quantity: decimal.New(1, 0)}}}}}
	b.AssignIDs()
	data, err := json.Marshal(toBudgetRecord(b))
	if err != nil {
		t.Fatal(err)
	}
	items, rest, ok := splitItems(data)
	if !ok {
		t.Fatalf("not split: %s", data)
	}
	var nodes []budgetNodeRecord
	if err := json.Unmarshal(items, &nodes); err != nil || len(nodes) != 1 || nodes[0].Description != `],"created_at":` {
		t.Fatalf("items %s: %v", items, err)
	}
	var r budgetRecord
	if err := json.Unmarshal(rest, &r); err != nil || r.Items != nil || r.Description != b.Description || r.Code != "ORC" {
		t.Fatalf("rest %s: %v", rest, err)
	}
	if _, _, ok := splitItems([]byte(`{"id":"b1","items":null,"created_at":""}`)); ok {
		t.Fatal("a null tree split")
	}
}

// BenchmarkBudgetStreamWalk: a walk over the stored tree of a budget of
// 50,000 lines in 50 stages (R4's), nodes only.
func BenchmarkBudgetStreamWalk(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "costdb.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	bud := &domain.Budget{ID: "b1", CompanyID: "c1", Code: "ORC", State: "MG", BDI: decimal.New(25, 0),
		BDIMode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate}
	for st := range 50 {
		stage := domain.BudgetNode{Kind: domain.NodeStage, Description: fmt.Sprintf("Etapa %d", st)}
		for i := range 1000 {
			stage.Items = append(stage.Items, domain.BudgetNode{Kind: domain.NodeResource, Bank: "SINAPI",
				Code: fmt.Sprint(34500 + i%20), Quantity: decimal.New(int64(i%97*100+25), -2)})
		}
		bud.Items = append(bud.Items, stage)
	}
	bud.AssignIDs()
	ctx := context.Background()
	if err := s.Update(ctx, func(tx app.Tx) error { return tx.PutBudget(bud) }); err != nil {
		b.Fatal(err)
	}
	b.Run("scanner", func(b *testing.B) { benchStreamWalk(b, s) })
	// The library path: the whole record decoded by encoding/json
	// (tx.Budget), then its tree walked.
	b.Run("encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			err := s.View(ctx, func(tx app.Tx) error {
				bud, err := tx.Budget("b1")
				if err != nil {
					return err
				}
				n := 0
				var walk func([]domain.BudgetNode)
				walk = func(ns []domain.BudgetNode) {
					for i := range ns {
						n++
						walk(ns[i].Items)
					}
				}
				walk(bud.Items)
				if n != 50050 {
					b.Fatalf("%d nodes", n)
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

func benchStreamWalk(b *testing.B, s *Store) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		err := s.View(ctx, func(tx app.Tx) error {
			_, walk, err := tx.(app.BudgetStreamer).BudgetStream("b1")
			if err != nil {
				return err
			}
			n := 0
			err = walk(func(*domain.BudgetNode, int) error { n++; return nil })
			if n != 50050 {
				b.Fatalf("%d nodes", n)
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
