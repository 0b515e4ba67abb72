package server_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/server"
	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/cmd/enginetest"
	"github.com/costdb/costdb/domain"
)

// listBench is a database with one company of n resources (and a second
// company of 1000, so that the company's lists are not the whole file),
// served over HTTP.
type listBench struct {
	store   *boltstore.Store
	svc     *app.Service
	handler http.Handler
	token   string
	who     domain.Principal
}

var (
	listBenchMu sync.Mutex
	listBenches = map[int]*listBench{}
	benchDirs   []string
)

// TestMain removes the benchmark databases once every test and benchmark of
// the package has run.
func TestMain(m *testing.M) {
	code := enginetest.Run(m) // the package's tests on each storage engine
	for _, lb := range listBenches {
		_ = lb.store.Close()
	}
	for _, dir := range benchDirs {
		_ = os.RemoveAll(dir)
	}
	os.Exit(code)
}

// benchDB builds (once per process and size) the database of listBench.
func benchDB(b *testing.B, n int) *listBench {
	listBenchMu.Lock()
	defer listBenchMu.Unlock()
	if lb := listBenches[n]; lb != nil {
		return lb
	}
	ctx := context.Background()
	// The directory outlives the benchmark, so that the runs of -count reuse
	// the database; TestMain removes it when the package's tests end.
	dir, err := os.MkdirTemp("", "costdb-bench-")
	if err != nil {
		b.Fatal(err)
	}
	benchDirs = append(benchDirs, dir)
	st, err := boltstore.Open(filepath.Join(dir, "costdb.db"), boltstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	speed := storecache.New(st)
	key, err := app.New(speed, nil, app.Config{}).SigningKey(ctx)
	if err != nil {
		b.Fatal(err)
	}
	tokens, err := jwtauth.New(key)
	if err != nil {
		b.Fatal(err)
	}
	svc := app.New(speed, tokens, app.Config{})
	nu, err := svc.AddUser(ctx, app.NewUserInput{Company: "Bench", Email: "bench@example.com"})
	if err != nil {
		b.Fatal(err)
	}
	other, err := svc.AddUser(ctx, app.NewUserInput{Company: "Other", Email: "other@example.com"})
	if err != nil {
		b.Fatal(err)
	}
	s, err := svc.Authenticate(ctx, nu.User.Email, nu.SecretToken)
	if err != nil {
		b.Fatal(err)
	}
	fill := func(companyID string, n int) {
		const batch = 5000
		for done := 0; done < n; done += batch {
			err := st.Update(ctx, func(tx app.Tx) error {
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
	env := &httpapi.Env{
		App:          svc,
		Speed:        speed,
		Location:     time.UTC,
		MaxBodyBytes: 1 << 20,
		Limiter:      httpapi.NewAuthLimiter(20, time.Minute),
		Log:          slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	lb := &listBench{
		store: st, svc: svc, handler: server.Handler(env), token: s.Token,
		who: domain.Principal{UserID: nu.User.ID, CompanyID: nu.Company.ID, DepartmentID: nu.Department.ID},
	}
	listBenches[n] = lb
	return lb
}

// BenchmarkListPage measures one page of 100 resources of a company of 1k
// and of 100k resources: through the store, through the use case, and
// through HTTP v2 (in creation order, sorted by code and by description
// descending, and filtered by a text search). The figures and the command
// are in docs/performance.md.
func BenchmarkListPage(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("resources=%d", n), func(b *testing.B) {
			lb := benchDB(b, n)
			ctx := context.Background()
			b.Run("store", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					err := lb.store.View(ctx, func(tx app.Tx) error {
						page, err := storePage(tx, lb.who.CompanyID, 100)
						if err == nil && len(page) != 100 {
							err = fmt.Errorf("page of %d", len(page))
						}
						return err
					})
					if err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("app", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					page, total, err := lb.svc.Resources(ctx, lb.who, app.ListQuery{Page: app.Page{Limit: 100}})
					if err != nil || len(page) != 100 || total != n {
						b.Fatalf("page of %d, total %d, %v", len(page), total, err)
					}
				}
			})
			for _, q := range []struct{ name, query string }{
				{"http_v2", "page[size]=100"},
				{"http_v2_sort_code", "sort=code&page[size]=100"},
				{"http_v2_sort_-description", "sort=-description&page[size]=100"},
				// A text filter scans the company (rows in bbolt): it grows.
				{"http_v2_filter_search", "filter[search]=TESTE&page[size]=100"},
			} {
				b.Run(q.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						req := httptest.NewRequest("GET", "/api/public/v2/my_database/resources?"+q.query, nil)
						req.Header.Set("Authorization", "Bearer "+lb.token)
						req.Header.Set("Accept", "application/vnd.api+json")
						w := httptest.NewRecorder()
						lb.handler.ServeHTTP(w, req)
						if w.Code != http.StatusOK {
							b.Fatalf("status %d: %s", w.Code, w.Body.String())
						}
					}
				})
			}
		})
	}
}
