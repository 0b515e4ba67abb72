// Command migratedb writes a large bbolt database for timing `costdb
// migrate` (issue 29): a company with many resources and compositions, a
// few large budgets, and generated bank editions (per-state SINAPI-like
// editions of resources and compositions with structures), all through the
// store's own puts.
//
//	go run ./bench/migratedb -db big.db -resources 100000 -compositions 10000 -items 20 -editions 20
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

func main() {
	path := flag.String("db", "", "the bbolt file to create (must not exist)")
	resources := flag.Int("resources", 100000, "own resources of the company")
	compositions := flag.Int("compositions", 10000, "own compositions of the company")
	items := flag.Int("items", 20, "items of each own composition")
	budgets := flag.Int("budgets", 10, "budgets of the company")
	lines := flag.Int("lines", 5000, "lines of each budget")
	editions := flag.Int("editions", 20, "generated bank editions (states)")
	bankRes := flag.Int("bank-resources", 5000, "resources of each edition")
	bankComp := flag.Int("bank-compositions", 7500, "compositions of each edition, 10 structure items each")
	flag.Parse()
	if *path == "" {
		log.Fatal("-db is required")
	}
	if _, err := os.Stat(*path); err == nil {
		log.Fatalf("%s exists", *path)
	}
	ctx := context.Background()
	st, err := boltstore.Open(*path, boltstore.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	start := time.Now()
	at := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	id := func(kind string, i int) string { return fmt.Sprintf("01J%s%021d", kind, i) }
	price := func(i int) decimal.Decimal { return decimal.New(int64(100+(i*7919)%99991), -2) }
	states := []string{"AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA", "PB", "PE", "PI", "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO"}
	words := []string{"alvenaria", "bloco", "cerâmico", "argamassa", "concreto", "tubo", "pvc", "cimento", "areia", "brita", "aço", "forma"}
	desc := func(i int) string {
		return fmt.Sprintf("%s %s %s %d", words[i%len(words)], words[(i/12)%len(words)], words[(i/144)%len(words)], i)
	}
	must := func(err error) {
		if err != nil {
			log.Fatal(err)
		}
	}
	co, us, de := id("CO", 1), id("US", 1), id("DE", 1)
	must(st.Update(ctx, func(tx app.Tx) error {
		must(tx.PutCompany(&domain.Company{ID: co, Name: "Grande", CreatedAt: at}))
		must(tx.PutDepartment(&domain.Department{ID: de, CompanyID: co, Name: "Obras", CreatedAt: at}))
		return tx.PutUser(&domain.User{ID: us, CompanyID: co, DepartmentID: de, Email: "a@grande.com", Name: "A", CreatedAt: at})
	}))
	// Bank editions, one transaction each.
	for e := 0; e < *editions; e++ {
		ed := &domain.Edition{Bank: "SINAPI", State: states[e%len(states)], Month: fmt.Sprintf("%02d/2026", 1+e/len(states)),
			Regimes: []domain.Regime{domain.NaoDesonerado, domain.Desonerado}, Resources: *bankRes, Compositions: *bankComp, ImportedAt: at, Source: "generated"}
		k := ed.Key()
		must(st.Update(ctx, func(tx app.Tx) error {
			for i := 0; i < *bankRes; i++ {
				p := price(i + e)
				must(tx.PutBankResource(k, &domain.BankResource{Code: fmt.Sprint(10000 + i), Description: desc(i), Unit: "UN", Type: domain.TypeMaterial,
					Prices: domain.PriceLine{PND: p, PD: p, PNDI: p, PDI: p}}))
			}
			for i := 0; i < *bankComp; i++ {
				c := &domain.BankComposition{Code: fmt.Sprint(80000 + i), Description: desc(i + 7), Unit: "M2", Class: "ALVE",
					Cost: domain.UnitPrice{PND: price(i), PD: price(i + 1)}}
				for j := 0; j < 10; j++ {
					c.Items = append(c.Items, domain.StructureItem{Kind: domain.KindResource, Code: fmt.Sprint(10000 + (i*10+j)%*bankRes), Coefficient: decimal.New(int64(j+1), -3)})
				}
				must(tx.PutBankComposition(k, c))
			}
			return tx.PutEdition(ed)
		}))
	}
	// The company's own records, in one batch.
	must(st.Update(ctx, func(tx app.Tx) error {
		b, _ := app.Optional[app.BatchTx](tx)
		return b.Batch(func() error {
			for i := 0; i < *resources; i++ {
				p := price(i)
				must(tx.PutResource(&domain.Resource{ID: id("RE", i), CompanyID: co, UserID: us, DepartmentID: de, Code: fmt.Sprintf("R%06d", (i*7919)%*resources),
					Description: desc(i), Type: domain.TypeMaterial, Unit: "UN", Status: true, CreatedAt: at.Add(time.Duration(i) * time.Second),
					Locals: map[string]domain.PriceLine{"MG": {PND: p, PD: p, PNDI: p, PDI: p}, "SP": {PND: p, PD: p, PNDI: p, PDI: p}}}))
			}
			for i := 0; i < *compositions; i++ {
				c := &domain.Composition{ID: id("CM", i), CompanyID: co, UserID: us, DepartmentID: de, Code: fmt.Sprintf("C%06d", i), Description: desc(i + 3),
					Unit: "M2", State: "MG", Rounding: domain.Truncate4, CreatedAt: at, TeamProduction: decimal.NewFromInt(1),
					Banks: []domain.BankRef{{Name: "SINAPI", State: "AC", Month: "01/2026"}}}
				for j := 0; j < *items; j++ {
					c.Items = append(c.Items, domain.Item{Bank: domain.BankMyBase, Code: fmt.Sprintf("R%06d", (i*(*items)+j)%*resources), Kind: domain.KindResource, Quantity: decimal.New(int64(j+1), -2)})
				}
				must(tx.PutComposition(c))
			}
			return nil
		})
	}))
	for bI := 0; bI < *budgets; bI++ {
		must(st.Update(ctx, func(tx app.Tx) error {
			bu := &domain.Budget{ID: id("BU", bI), CompanyID: co, UserID: us, DepartmentID: de, Code: fmt.Sprintf("ORC-%03d", bI), Description: "Obra " + fmt.Sprint(bI),
				State: "MG", BDI: decimal.NewFromInt(25), BDIMode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate,
				CreatedAt: at, UpdatedAt: at, Banks: []domain.BankRef{{Name: "SINAPI", State: "AC", Month: "01/2026"}}}
			var stage domain.BudgetNode
			for l := 0; l < *lines; l++ {
				if l%100 == 0 {
					if l > 0 {
						bu.Items = append(bu.Items, stage)
					}
					bu.NodeSeq++
					stage = domain.BudgetNode{ID: fmt.Sprintf("n%d", bu.NodeSeq), Kind: domain.NodeStage, Description: fmt.Sprintf("Etapa %d", l/100)}
				}
				bu.NodeSeq++
				stage.Items = append(stage.Items, domain.BudgetNode{ID: fmt.Sprintf("n%d", bu.NodeSeq), Kind: domain.NodeComposition, Bank: domain.BankMyBase,
					Code: fmt.Sprintf("C%06d", l%*compositions), Quantity: decimal.New(int64(l+1), -1)})
			}
			bu.Items = append(bu.Items, stage)
			return tx.PutBudget(bu)
		}))
	}
	fi, _ := os.Stat(*path)
	fmt.Printf("wrote %s: %d bytes in %.1f s\n", *path, fi.Size(), time.Since(start).Seconds())
}
