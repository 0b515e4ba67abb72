package app

import (
	"context"
	"errors"
	"testing"

	"github.com/costdb/costdb/domain"
)

// TestWalkUntilDone: a streamed report's first pass stops within walkEvery
// nodes of its context being cancelled, with the context's error; a
// context that is never done walks every node.
func TestWalkUntilDone(t *testing.T) {
	const nodes = 10 * walkEvery
	walk := func(visit func(*domain.BudgetNode, int) error) error {
		for range nodes {
			if err := visit(&domain.BudgetNode{Kind: domain.NodeResource}, 1); err != nil {
				return err
			}
		}
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	visited := 0
	err := walkUntilDone(ctx, walk)(func(*domain.BudgetNode, int) error {
		visited++
		if visited == 300 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || visited != 2*walkEvery {
		t.Errorf("visited %d nodes, %v; want %d, context.Canceled", visited, err, 2*walkEvery)
	}
	visited = 0
	if err := walkUntilDone(context.Background(), walk)(func(*domain.BudgetNode, int) error { visited++; return nil }); err != nil || visited != nodes {
		t.Errorf("visited %d nodes, %v; want all %d", visited, err, nodes)
	}
}
