package boltstore

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
	bolt "go.etcd.io/bbolt"
)

type walked struct {
	Node  domain.BudgetNode
	Depth int
}

func walkAll(t *testing.T, walk domain.NodeWalk) []walked {
	t.Helper()
	var out []walked
	err := walk(func(n *domain.BudgetNode, depth int) error {
		c := *n
		c.Items = nil
		out = append(out, walked{c, depth})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBudgetStreamWalksTheStoredTree: for random trees (stages nested five
// deep, empty stages, descriptions with quotes, backslashes, HTML
// characters, control characters and accents, quantities of every size),
// BudgetStream gives the budget Budget gives without its tree, and its walk
// visits the nodes of that tree in order, with their depths, twice alike.
func TestBudgetStreamWalksTheStoredTree(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "costdb.db"))
	defer s.Close()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 5))
	texts := []string{"Etapa", `Aspas "duplas" e \ barra`, "<b>&amp;</b>", "linha\nnova\ttab\x01", "Fundação – açaí ✓", "",
		`"items":[`, `],"created_at":"x"`, `{"items":[{"id":"n9"}],"created_at":""}`}
	quantities := []string{"1", "0.0001", "12.50", "123456789012345678", "1234567890123456789.123", "99999999999999999999999"}
	var nodes func(depth int) []domain.BudgetNode
	nodes = func(depth int) []domain.BudgetNode {
		var out []domain.BudgetNode
		for range r.IntN(5) {
			if depth < 5 && r.IntN(3) == 0 {
				out = append(out, domain.BudgetNode{Kind: domain.NodeStage, Description: texts[r.IntN(len(texts))], Items: nodes(depth + 1)})
				continue
			}
			out = append(out, domain.BudgetNode{Kind: domain.NodeResource, Bank: "SINAPI", Code: fmt.Sprint(r.IntN(50)),
				Quantity: decimal.RequireFromString(quantities[r.IntN(len(quantities))])})
		}
		return out
	}
	for i := range 200 {
		b := &domain.Budget{ID: fmt.Sprintf("b%d", i), CompanyID: "c1", Code: fmt.Sprintf("ORC-%d", i), State: "MG",
			Description: texts[i%len(texts)], BDI: decimal.New(25, 0), BDIMode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate,
			Banks: []domain.BankRef{{Name: "SINAPI", State: "MG", Month: "08/2026"}}, Items: nodes(1)}
		b.AssignIDs()
		if err := s.Update(ctx, func(tx app.Tx) error { return tx.PutBudget(b) }); err != nil {
			t.Fatal(err)
		}
		var whole, header *domain.Budget
		err := s.View(ctx, func(tx app.Tx) error {
			var err error
			if whole, err = tx.Budget(b.ID); err != nil {
				return err
			}
			var walk domain.NodeWalk
			if header, walk, err = tx.(app.BudgetStreamer).BudgetStream(b.ID); err != nil {
				return err
			}
			want := walkAll(t, whole.Walk)
			if diff := cmp.Diff(want, walkAll(t, walk)); diff != "" {
				t.Fatalf("budget %d: walk differs (-Budget +BudgetStream):\n%s", i, diff)
			}
			if diff := cmp.Diff(want, walkAll(t, walk)); diff != "" {
				t.Fatalf("budget %d: second walk differs:\n%s", i, diff)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		whole.Items = nil
		if diff := cmp.Diff(whole, header); diff != "" {
			t.Fatalf("budget %d: header differs:\n%s", i, diff)
		}
	}
}

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
