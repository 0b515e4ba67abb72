package storetest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

type walkedNode struct {
	Node  domain.BudgetNode
	Depth int
}

func walkAll(t *testing.T, walk domain.NodeWalk) []walkedNode {
	t.Helper()
	var out []walkedNode
	err := walk(func(n *domain.BudgetNode, depth int) error {
		c := *n
		c.Items = nil
		out = append(out, walkedNode{c, depth})
		return nil
	})
	if err != nil {
		t.Fatalf("walk: %v", err)
	}
	return out
}

// testBudgetStream: a store that offers app.BudgetStreamer gives, for a
// budget, what Budget gives without its tree, and a walk that visits the
// nodes of that tree in order with their depths, alike each time it is
// called within the transaction: random trees (stages nested five deep,
// empty stages, texts with quotes, backslashes, HTML and control
// characters, the markers of a stored record, accents; quantities of every
// size), one of 4,500 nodes. Another company's budget is found (the
// caller checks the company, as for Budget); a missing one is ENOTFOUND.
func testBudgetStream(t *testing.T, s app.Store) {
	var streams bool
	view(t, s, func(tx app.Tx) error { _, streams = tx.(app.BudgetStreamer); return nil })
	if !streams {
		t.Skip("the store reads budgets whole (no app.BudgetStreamer)")
	}
	r := rand.New(rand.NewPCG(3, 5))
	texts := []string{"Etapa", `Aspas "duplas" e \ barra`, "<b>&amp;</b>", "linha\nnova\ttab\x01", "Fundação – açaí ✓", "",
		`"items":[`, `],"created_at":"x"`, `{"items":[{"id":"n9"}],"created_at":""}`}
	quantities := []string{"1", "0.0001", "12.50", "123456789012345678", "1234567890123456789.123", "99999999999999999999999"}
	var nodes func(depth, width int) []domain.BudgetNode
	nodes = func(depth, width int) []domain.BudgetNode {
		var out []domain.BudgetNode
		for range r.IntN(width) {
			if depth < 5 && r.IntN(3) == 0 {
				out = append(out, domain.BudgetNode{Kind: domain.NodeStage, Description: texts[r.IntN(len(texts))], Items: nodes(depth+1, width)})
				continue
			}
			kind := domain.NodeResource
			if r.IntN(2) == 0 {
				kind = domain.NodeComposition
			}
			out = append(out, domain.BudgetNode{Kind: kind, Bank: []string{"SINAPI", "SICRO3", "MYBASE"}[r.IntN(3)],
				Code: fmt.Sprint(r.IntN(50)), Quantity: dec(quantities[r.IntN(len(quantities))])})
		}
		return out
	}
	var budgets []*domain.Budget
	for i := range 40 {
		b := newBudget(fmt.Sprintf("%s-%02d", buA1, i), coA, fmt.Sprintf("ORC-S%02d", i))
		b.Description = texts[i%len(texts)]
		b.Items = nodes(1, 6)
		if i == 0 {
			b.Items = nil
		}
		budgets = append(budgets, b)
	}
	big := newBudget(buB1, coB, "ORC-BIG")
	big.Items = nil
	for st := range 9 {
		stage := domain.BudgetNode{Kind: domain.NodeStage, Description: fmt.Sprint("Etapa ", st)}
		for i := range 499 {
			stage.Items = append(stage.Items, domain.BudgetNode{Kind: domain.NodeResource, Bank: "SINAPI", Code: fmt.Sprint(i % 20),
				Quantity: decimal.New(int64(i), -2)})
		}
		big.Items = append(big.Items, stage)
	}
	budgets = append(budgets, big)
	update(t, s, func(tx app.Tx) error {
		for _, b := range budgets {
			b.AssignIDs()
			if err := tx.PutBudget(b); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx app.Tx) error {
		for _, b := range budgets {
			whole, err := tx.Budget(b.ID)
			if err != nil {
				return err
			}
			header, walk, err := tx.(app.BudgetStreamer).BudgetStream(b.ID)
			if err != nil {
				return err
			}
			want := walkAll(t, whole.Walk)
			if diff := cmp.Diff(want, walkAll(t, walk)); diff != "" {
				t.Fatalf("%s: walk differs (-Budget +BudgetStream):\n%s", b.ID, diff)
			}
			if diff := cmp.Diff(want, walkAll(t, walk)); diff != "" {
				t.Fatalf("%s: second walk differs:\n%s", b.ID, diff)
			}
			if b == big && len(want) != 9*500 {
				t.Fatalf("%s: %d nodes", b.ID, len(want))
			}
			whole.Items = nil
			if diff := cmp.Diff(whole, header); diff != "" {
				t.Fatalf("%s: budget differs (-Budget +BudgetStream):\n%s", b.ID, diff)
			}
		}
		_, _, err := tx.(app.BudgetStreamer).BudgetStream("no-such-budget")
		if domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Fatalf("BudgetStream of a missing budget: %v, want ENOTFOUND", err)
		}
		return nil
	})
}
