package app_test

import (
	"context"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// An import marked Replace makes the edition exactly its data: codes it no
// longer lists go, the other regime's prices do not linger, the counts are
// the new ones; without Replace the same data merges.
func TestImportReplacesEdition(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	svc := app.New(st, nil, app.Config{})
	res := func(code, price string) *domain.BankResource {
		p := decimal.RequireFromString(price)
		return &domain.BankResource{Code: code, Description: "Areia " + code, Unit: "M3", Type: domain.TypeMaterial,
			Prices: domain.PriceLine{PND: p, PD: p, PNDI: p, PDI: p}}
	}
	com := &domain.BankComposition{Code: "89306", Description: "Alvenaria", Unit: "M2",
		Cost:  domain.UnitPrice{PND: decimal.RequireFromString("2"), PD: decimal.RequireFromString("1.9")},
		Items: []domain.StructureItem{{Kind: domain.KindResource, Code: "1", Coefficient: decimal.RequireFromString("1.5")}}}
	meta := domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026", Regimes: []domain.Regime{domain.NaoDesonerado, domain.Desonerado}}
	if _, err := svc.ImportEditions(ctx, []app.EditionData{{Edition: meta, Resources: []*domain.BankResource{res("1", "10"), res("2", "20")}, Compositions: []*domain.BankComposition{com}}}); err != nil {
		t.Fatal(err)
	}
	nd := meta
	nd.Regimes = []domain.Regime{domain.NaoDesonerado}
	sums, err := svc.ImportEditions(ctx, []app.EditionData{{Edition: nd, Resources: []*domain.BankResource{res("1", "11")}, Replace: true}})
	if err != nil {
		t.Fatal(err)
	}
	ed := sums[0].Edition
	if ed.Resources != 1 || ed.Compositions != 0 || ed.Structures != 0 || len(ed.Regimes) != 1 || ed.Regimes[0] != domain.NaoDesonerado {
		t.Errorf("edition after the replace: %+v", ed)
	}
	if err := st.View(ctx, func(tx app.Tx) error {
		got, err := tx.BankResources(meta.Key())
		if err != nil {
			return err
		}
		if len(got) != 1 || got[0].Code != "1" || got[0].Prices.PND.String() != "11" {
			t.Errorf("resources after the replace: %+v", got)
		}
		if c, err := tx.BankCompositions(meta.Key()); err != nil || len(c) != 0 {
			t.Errorf("compositions after the replace: %v, %v", c, err)
		}
		stored, err := tx.Edition(meta.Key())
		if err != nil || stored.Resources != 1 || len(stored.Regimes) != 1 {
			t.Errorf("stored edition %+v, %v", stored, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// ImportEditionsFunc asks for each edition inside the one transaction: an
// edition that fails (or fails to build) leaves nothing of the others.
func TestImportEditionsFuncIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	svc := app.New(st, nil, app.Config{})
	res := &domain.BankResource{Code: "1", Description: "Areia", Unit: "M3", Type: domain.TypeMaterial,
		Prices: domain.PriceLine{PND: decimal.RequireFromString("10"), PD: decimal.RequireFromString("10")}}
	both := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	var asked []int
	_, err := svc.ImportEditionsFunc(ctx, 3, func(i int) (*app.EditionData, error) {
		asked = append(asked, i)
		switch i {
		case 0:
			return &app.EditionData{Edition: domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026", Regimes: both},
				Resources: []*domain.BankResource{res}, Replace: true}, nil
		case 1:
			return &app.EditionData{Edition: domain.Edition{Bank: "SINAPI", State: "XX", Month: "08/2026", Regimes: both}, Replace: true}, nil
		}
		t.Fatal("asked for an edition after one failed")
		return nil, nil
	})
	if err == nil || len(asked) != 2 {
		t.Fatalf("err %v, asked %v", err, asked)
	}
	if err := st.View(ctx, func(tx app.Tx) error {
		eds, err := tx.Editions()
		if err != nil || len(eds) != 0 {
			t.Errorf("editions after a failed import: %v, %v", eds, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// ImportEditionsFunc skips an index whose data is nil, and stores records
// given in any order as they are, leaving the caller's slices unsorted.
func TestImportEditionsFuncSkipsNilAndTakesAnyOrder(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	svc := app.New(st, nil, app.Config{})
	res := func(code string) *domain.BankResource {
		return &domain.BankResource{Code: code, Description: "Areia " + code, Unit: "M3", Type: domain.TypeMaterial,
			Prices: domain.PriceLine{PND: decimal.RequireFromString("10"), PD: decimal.RequireFromString("10")}}
	}
	both := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	for _, replace := range []bool{false, true} {
		resources := []*domain.BankResource{res("9"), res("10"), res("1"), res("2")}
		sums, err := svc.ImportEditionsFunc(ctx, 3, func(i int) (*app.EditionData, error) {
			if i != 1 {
				return nil, nil
			}
			return &app.EditionData{Edition: domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026", Regimes: both},
				Resources: resources, Replace: replace}, nil
		})
		if err != nil || len(sums) != 1 || sums[0].Resources != 4 || sums[0].Edition.Resources != 4 {
			t.Fatalf("replace %v: %+v, %v", replace, sums, err)
		}
		if got := []string{resources[0].Code, resources[1].Code, resources[2].Code, resources[3].Code}; got[0] != "9" || got[3] != "2" {
			t.Errorf("replace %v: the caller's slice was reordered: %v", replace, got)
		}
		if err := st.View(ctx, func(tx app.Tx) error {
			stored, err := tx.BankResources(domain.EditionKey("SINAPI", "MG", "08/2026", ""))
			if err != nil || len(stored) != 4 || stored[0].Code != "1" || stored[1].Code != "10" || stored[3].Code != "9" {
				t.Errorf("replace %v: stored %v, %v", replace, stored, err)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}
