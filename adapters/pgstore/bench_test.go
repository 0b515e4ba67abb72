package pgstore_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
)

// pageBench is a database with one company of n resources and a second
// company of 1000.
type pageBench struct {
	store *pgstore.Store
	svc   *app.Service
	who   domain.Principal
}

var (
	pageBenchMu sync.Mutex
	pageBenches = map[int]*pageBench{}
)

func pageDB(b *testing.B, n int) *pageBench {
	pageBenchMu.Lock()
	defer pageBenchMu.Unlock()
	if pb := pageBenches[n]; pb != nil {
		return pb
	}
	if err := pgtest.Available(); err != nil {
		b.Skip(err)
	}
	// The database outlives the benchmark (the runs of -count reuse it);
	// the cluster goes with the test binary.
	url := pgtest.NewDatabase(&testing.T{})
	st, err := pgstore.Open(bg, url, pgstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	svc := app.New(storecache.New(st), nil, app.Config{})
	nu, err := svc.AddUser(bg, app.NewUserInput{Company: "Bench", Email: "bench@example.com"})
	if err != nil {
		b.Fatal(err)
	}
	other, err := svc.AddUser(bg, app.NewUserInput{Company: "Other", Email: "other@example.com"})
	if err != nil {
		b.Fatal(err)
	}
	fill := func(companyID string, n int) {
		const batch = 5000
		for done := 0; done < n; done += batch {
			err := st.Update(bg, func(tx app.Tx) error {
				for i := done; i < min(done+batch, n); i++ {
					now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
					r := &domain.Resource{
						ID: app.NewID(now), CompanyID: companyID, UserID: nu.User.ID, DepartmentID: nu.Department.ID,
						Code: fmt.Sprintf("R-%d", (i*7919)%n), Description: fmt.Sprintf("Insumo de teste número %d", i),
						Type: domain.TypeMaterial, Unit: "KG", Status: true,
						Locals: map[string]domain.PriceLine{
							"MG": {PND: domain.Dec("10.50"), PD: domain.Dec("10.00"), PNDI: domain.Dec("10.50"), PDI: domain.Dec("10.00")},
						},
						CreatedAt: now,
					}
					if err := tx.PutResource(r); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	fill(nu.Company.ID, n)
	fill(other.Company.ID, 1000)
	if _, err := st.Pool().Exec(bg, `ANALYZE`); err != nil {
		b.Fatal(err)
	}
	pb := &pageBench{store: st, svc: svc, who: domain.Principal{UserID: nu.User.ID, CompanyID: nu.Company.ID, DepartmentID: nu.Department.ID}}
	pageBenches[n] = pb
	return pb
}

// BenchmarkListPage measures one page of 100 resources of a company of 1k
// and of 100k resources on PostgreSQL, through the store (in ID order,
// sorted by code, by description descending, and filtered by a text
// search) and through the use case. The figures and the command are in
// docs/performance.md.
func BenchmarkListPage(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("resources=%d", n), func(b *testing.B) {
			pb := pageDB(b, n)
			for _, q := range []struct {
				name  string
				query app.Query
			}{
				{"store", app.Query{Limit: 100}},
				{"store_sort_code", app.Query{Sort: []app.Order{{Field: app.FieldCode}}, Limit: 100}},
				{"store_sort_-description", app.Query{Sort: []app.Order{{Field: app.FieldDescription, Desc: true}}, Limit: 100}},
				{"store_filter_search", app.Query{Where: []app.Cond{{Op: app.Contains, Fields: []app.Field{app.FieldCode, app.FieldDescription}, Text: "TESTE"}}, Limit: 100}},
			} {
				b.Run(q.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						err := pb.store.View(bg, func(tx app.Tx) error {
							page, total, err := tx.Resources(pb.who.CompanyID, q.query)
							if err == nil && (len(page) != 100 || total != n) {
								err = fmt.Errorf("page of %d, total %d", len(page), total)
							}
							return err
						})
						if err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			b.Run("app", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					page, total, err := pb.svc.Resources(bg, pb.who, app.ListQuery{Page: app.Page{Limit: 100}})
					if err != nil || len(page) != 100 || total != n {
						b.Fatalf("page of %d, total %d, %v", len(page), total, err)
					}
				}
			})
		})
	}
}

// BenchmarkConcurrentWrites64 runs 64 writers at once, each creating one
// resource of the same company through the use case (a SERIALIZABLE
// transaction: a code check and the insert), and reports the time for all
// 64 and the transactions the server aborted and the store ran again. Run
// it with COSTDB_PGTEST_DURABLE=1 for commits synced to disk (see
// docs/performance.md).
func BenchmarkConcurrentWrites64(b *testing.B) {
	if err := pgtest.Available(); err != nil {
		b.Skip(err)
	}
	if !pgtest.Durable() {
		b.Log("the test cluster runs with fsync off: set COSTDB_PGTEST_DURABLE=1 for durable writes")
	}
	var retries atomic.Int64
	url := pgtest.NewDatabase(b)
	st, err := pgstore.Open(context.Background(), url+"&pool_max_conns=64", pgstore.Options{OnRetry: func(int, error) { retries.Add(1) }})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := app.New(storecache.New(st), nil, app.Config{})
	nu, err := svc.AddUser(bg, app.NewUserInput{Company: "Bench", Email: "bench@example.com"})
	if err != nil {
		b.Fatal(err)
	}
	who := domain.Principal{UserID: nu.User.ID, CompanyID: nu.Company.ID, DepartmentID: nu.Department.ID}
	round := 0
	b.ReportAllocs()
	for b.Loop() {
		round++
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for w := range 64 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := svc.CreateResource(bg, who, app.ResourceInput{
					Code: fmt.Sprintf("W-%d-%d", round, w), Description: "Escrita concorrente", Type: domain.TypeMaterial, Unit: "KG",
					Locals: map[string]domain.PriceLine{"MG": {PND: domain.Dec("1.50"), PD: domain.Dec("1.50"), PNDI: domain.Dec("1.50"), PDI: domain.Dec("1.50")}},
				})
				if err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(retries.Load())/float64(round), "retries/op")
	b.ReportMetric(float64(64*round)/b.Elapsed().Seconds(), "writes/s")
}
