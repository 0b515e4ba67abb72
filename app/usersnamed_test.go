package app_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestLosingPricesNamesTwentyUsers: dropping the states of a resource that
// 25 compositions of those states use (and one of a kept state) is refused,
// naming the first 20 in creation order across both states, the states and
// the number left; nothing changes. The users are found by the store's
// index, state by state, and merged.
func TestLosingPricesNamesTwentyUsers(t *testing.T) {
	f := newFixture(t)
	line := domain.PriceLine{PND: dec("1"), PD: dec("1"), PNDI: dec("1"), PDI: dec("1")}
	r, err := f.svc.CreateResource(ctx, f.a, app.ResourceInput{
		Code: "R-1", Description: "Areia", Type: domain.TypeMaterial, Unit: "M3", Status: true,
		Locals: map[string]domain.PriceLine{"MG": line, "SP": line, "RJ": line},
	})
	if err != nil {
		t.Fatal(err)
	}
	use := func(code, state string) {
		t.Helper()
		c, err := f.svc.CreateComposition(ctx, f.a, app.CompositionInput{Code: code, Description: "Composição " + code, Unit: "M2", State: state})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.AddItems(ctx, f.a, c.ID, []app.ItemInput{{Bank: domain.BankMyBase, Code: "R-1", Kind: domain.KindResource, Quantity: dec("1")}}); err != nil {
			t.Fatal(err)
		}
	}
	var named []string
	for i := 1; i <= 25; i++ {
		state := []string{"MG", "SP"}[i%2]
		code := fmt.Sprintf("C-%02d", i)
		use(code, state)
		if i <= 20 {
			named = append(named, "composition "+code+" ("+state+")")
		}
		if i == 3 {
			use("C-RJ", "RJ") // a kept state: not named, not counted
		}
	}
	_, err = f.svc.UpdateResource(ctx, f.a, r.ID, app.ResourcePatch{Locals: map[string]domain.PriceLine{"RJ": line}})
	wantCode(t, err, domain.ECONFLICT)
	want := "resource R-1 cannot lose its prices in MG, SP: 25 compositions or budgets of that state use it (" +
		strings.Join(named, ", ") + " and 5 more)"
	if msg := domain.ErrorMessage(err); msg != want {
		t.Errorf("message:\n got %s\nwant %s", msg, want)
	}
	got, err := f.svc.Resource(ctx, f.a, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Locals) != 3 {
		t.Errorf("locals after the refused change = %v, want MG, RJ and SP", got.States())
	}
}
