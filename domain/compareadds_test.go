package domain_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// randomQty is a quantity with up to 4 places, 0.0001 to 999.9999.
func randomQty(rng *rand.Rand) decimal.Decimal {
	return decimal.New(rng.Int64N(9999999)+1, -4)
}

// randomLine is a line naming something of the small world, or now and
// then something it does not have (a line without a price).
func randomLine(rng *rand.Rand) domain.BudgetNode {
	n := []domain.BudgetNode{
		{Kind: domain.NodeComposition, Bank: "MYBASE", Code: "OUTER"},
		{Kind: domain.NodeComposition, Bank: "MYBASE", Code: "INNER"},
		{Kind: domain.NodeComposition, Bank: "SINAPI", Code: "BC1"},
		{Kind: domain.NodeComposition, Bank: "SINAPI", Code: "BC2"},
		{Kind: domain.NodeResource, Bank: "SINAPI", Code: "R1"},
		{Kind: domain.NodeResource, Bank: "SINAPI", Code: "R2"},
		{Kind: domain.NodeResource, Bank: "SINAPI", Code: "E1"},
		{Kind: domain.NodeResource, Bank: "SINAPI", Code: "R404"},
	}[rng.IntN(8)]
	n.Quantity = randomQty(rng)
	return n
}

// nodeIDs returns the ids of the budget's stages and of its lines.
func nodeIDs(b *domain.Budget) (stages, lines []string) {
	for _, e := range b.Outline() {
		if e.Node.Kind.IsLine() {
			lines = append(lines, e.Node.ID)
		} else {
			stages = append(stages, e.Node.ID)
		}
	}
	return stages, lines
}

// randomEdit adds, removes or changes a line or a stage of b, or moves a
// line in or out of the supply lines.
func randomEdit(t *testing.T, rng *rand.Rand, b *domain.Budget, supply bool) {
	stages, lines := nodeIDs(b)
	var err error
	switch k := rng.IntN(10); {
	case k < 3 || len(lines) == 0: // add a line
		parent := ""
		if len(stages) > 0 {
			parent = stages[rng.IntN(len(stages))]
		}
		_, err = b.AddNode(parent, -1, randomLine(rng))
	case k < 5: // remove a line
		err = b.RemoveNode(lines[rng.IntN(len(lines))])
	case k < 8: // change a quantity
		n, _ := b.Node(lines[rng.IntN(len(lines))])
		n.Quantity = randomQty(rng)
	case k == 8 && len(stages) > 1: // remove a stage with what it holds
		err = b.RemoveNode(stages[rng.IntN(len(stages))])
	case k == 8: // add a stage with a line
		_, err = b.AddNode("", -1, stage("Nova", randomLine(rng)))
	default: // a line takes, or no longer takes, the supply BDI
		if supply {
			b.SupplyNodes = append(b.SupplyNodes, lines[rng.IntN(len(lines))])
		} else {
			n, _ := b.Node(lines[rng.IntN(len(lines))])
			n.Quantity = n.Quantity.Add(decimal.New(1, -2))
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestComparePricesAddsUp: on random budgets edited at random (lines and
// stages added and removed, quantities changed, supply lines), in both
// roundings and both BDI modes, with and without the supply BDI, the
// comparison lists every line and stage of either side once, says rightly
// whether it was added, removed, changed or not, and the lines' differences
// plus the residual add up to the total's difference exactly; the residual
// is zero with the BDI on the unit price and the footer's BDI value on the
// final total.
func TestComparePricesAddsUp(t *testing.T) {
	seeds := 400
	if testing.Short() {
		seeds = 100
	}
	pricer := domain.NewBudgetPricer(worldSource())
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 24))
		mode := []domain.BDIMode{domain.BDIOnUnitPrice, domain.BDIOnFinalTotal}[seed%2]
		rounding := []domain.BudgetRounding{domain.BudgetTruncate, domain.BudgetRound}[seed/2%2]
		supply := seed/4%2 == 1
		before := worldBudget(mode)
		before.Rounding, before.BDI = rounding, decimal.New(rng.Int64N(4000)+1, -2)
		if supply {
			before.SupplyBDI = decimal.New(rng.Int64N(2000)+1, -2)
		}
		for range rng.IntN(8) {
			randomEdit(t, rng, before, supply)
		}
		after := before.Clone()
		for range rng.IntN(6) + 1 {
			randomEdit(t, rng, after, supply)
		}
		rb, err := pricer.Synthetic(before)
		if err != nil {
			t.Fatal(err)
		}
		ra, err := pricer.Synthetic(after)
		if err != nil {
			t.Fatal(err)
		}
		d := domain.ComparePrices(rb, ra)
		name := "seed " + strconv.Itoa(seed) + " " + string(mode) + " " + string(rounding)

		// Every node of either side once, its change right.
		rows := map[string][2]*domain.SyntheticRow{}
		for i, r := range [2]*domain.SyntheticReport{rb, ra} {
			for j := range r.Rows {
				p := rows[r.Rows[j].NodeID]
				p[i] = &r.Rows[j]
				rows[r.Rows[j].NodeID] = p
			}
		}
		listed := map[string]domain.Change{}
		sum := decimal.Zero
		for _, l := range d.Lines {
			if _, dup := listed[l.NodeID]; dup {
				t.Fatalf("%s: line %s listed twice", name, l.NodeID)
			}
			listed[l.NodeID] = l.Change
			sum = sum.Add(l.TotalDiff)
			if !l.TotalAfter.Sub(l.TotalBefore).Equal(l.TotalDiff) {
				t.Errorf("%s: line %s: %s - %s != %s", name, l.NodeID, l.TotalAfter, l.TotalBefore, l.TotalDiff)
			}
		}
		for _, s := range d.Stages {
			if _, dup := listed[s.NodeID]; dup {
				t.Fatalf("%s: stage %s listed twice", name, s.NodeID)
			}
			listed[s.NodeID] = s.Change
		}
		if len(listed) != len(rows) {
			t.Errorf("%s: %d nodes listed, %d in either side", name, len(listed), len(rows))
		}
		for id, p := range rows {
			want := domain.Changed
			switch {
			case p[0] == nil:
				want = domain.Added
			case p[1] == nil:
				want = domain.Removed
			case p[0].TotalWithBDI.Equal(p[1].TotalWithBDI):
				want = domain.Unchanged
			}
			if listed[id] != want {
				t.Errorf("%s: node %s is %q, want %q", name, id, listed[id], want)
			}
		}

		// The lines and the residual add up to the total's difference.
		if !sum.Add(d.Residual.Diff).Equal(d.Total.Diff) {
			t.Errorf("%s: lines %s + residual %s != total %s", name, sum, d.Residual.Diff, d.Total.Diff)
		}
		wantBefore, wantAfter := decimal.Zero, decimal.Zero
		if mode == domain.BDIOnFinalTotal {
			wantBefore, wantAfter = rb.BDIValue, ra.BDIValue
		}
		if !d.Residual.Before.Equal(wantBefore) || !d.Residual.After.Equal(wantAfter) {
			t.Errorf("%s: residual %s → %s, want %s → %s", name, d.Residual.Before, d.Residual.After, wantBefore, wantAfter)
		}
	}
}
