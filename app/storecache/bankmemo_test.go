package storecache_test

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
)

// TestBankMemoFollowsReimports prices a composition again and again (the
// decoded bank records are then remembered across reads) while the
// edition is re-imported with new prices, by this service and by another
// one over the same store (another server): every read after an import
// shows the new price, never a remembered one.
func TestBankMemoFollowsReimports(t *testing.T) {
	st := newStore(t)
	svc := app.New(storecache.New(st), nil, app.Config{})
	other := app.New(storecache.New(st), nil, app.Config{}) // another server, its own memo
	both := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	edition := func(price string) []app.EditionData {
		return []app.EditionData{{
			Edition: domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026", Regimes: both},
			Resources: []*domain.BankResource{
				{Code: "0001", Description: "AREIA MEDIA", Unit: "M3", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: dec(price), PD: dec(price)}},
			},
		}}
	}
	if _, err := svc.ImportEditions(ctx, edition("100")); err != nil {
		t.Fatal(err)
	}
	nu, err := svc.AddUser(ctx, app.NewUserInput{Company: "Alfa", Email: "a@alfa.com"})
	if err != nil {
		t.Fatal(err)
	}
	p := domain.Principal{UserID: nu.User.ID, CompanyID: nu.Company.ID, DepartmentID: nu.Department.ID}
	c, err := svc.CreateComposition(ctx, p, app.CompositionInput{Code: "C1", Description: "Composição", Unit: "M2", State: "MG"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddBanks(ctx, p, c.ID, []app.BankInput{{Name: "SINAPI", State: "MG", Month: "08/2026"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddItems(ctx, p, c.ID, []app.ItemInput{{Bank: "SINAPI", Code: "0001", Kind: domain.KindResource, Quantity: dec("2")}}); err != nil {
		t.Fatal(err)
	}
	for i, step := range []struct {
		importer *app.Service
		price    string
		want     string
	}{
		{nil, "", "200"},
		{svc, "150", "300"},
		{other, "120", "240"},
		{svc, "120", "240"},
		{other, "99.5", "199"},
	} {
		if step.importer != nil {
			if _, err := step.importer.ImportEditions(ctx, edition(step.price)); err != nil {
				t.Fatal(err)
			}
		}
		for _, reader := range []*app.Service{svc, other, svc} {
			pc, err := reader.Composition(ctx, p, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !pc.Prices.PND.Equal(dec(step.want)) {
				t.Fatalf("step %d: pnd %s, want %s", i, pc.Prices.PND, step.want)
			}
		}
	}
}
