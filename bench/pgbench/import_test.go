package pgbench

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// companyExport is a company export of n own resources (one state's
// prices each) and n/20 compositions of five of them (the shape of app's
// BenchmarkImportCompany).
func companyExport(n int) *app.CompanyExport {
	exp := &app.CompanyExport{Format: app.CompanyExportFormat, Version: app.CompanyExportV1}
	for i := 0; i < n; i++ {
		p := decimal.New(int64(100+i%997), -2)
		exp.Resources = append(exp.Resources, &domain.Resource{ID: fmt.Sprintf("r%d", i), Code: fmt.Sprintf("R%06d", (i*7919)%n),
			Description: fmt.Sprintf("Recurso %d de alvenaria", i), Type: domain.TypeMaterial, Unit: "UN",
			Locals: map[string]domain.PriceLine{"MG": {PND: p, PD: p, PNDI: p, PDI: p}}})
	}
	for i := 0; i < n/20; i++ {
		c := &domain.Composition{ID: fmt.Sprintf("c%d", i), Code: fmt.Sprintf("C%06d", i), Description: "Composição", Unit: "M2", State: "MG", Rounding: 1}
		for j := 0; j < 5; j++ {
			c.Items = append(c.Items, domain.Item{Bank: domain.BankMyBase, Code: exp.Resources[(i*5+j)%n].Code, Kind: domain.KindResource, Quantity: decimal.NewFromInt(int64(j + 1))})
		}
		exp.Compositions = append(exp.Compositions, c)
	}
	return exp
}

// BenchmarkImportCompanyPG imports a generated export of 5,000, 20,000 and
// 100,000 resources into a fresh company on PostgreSQL (the last one
// skipped with -short): ns/resource must stay flat. cpu-s/op is this
// process's CPU (the server's is not counted).
func BenchmarkImportCompanyPG(b *testing.B) {
	if err := pgtest.Available(); err != nil {
		b.Skip(err)
	}
	ctx := context.Background()
	tokens, err := jwtauth.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{5000, 20000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			if n > 20000 && testing.Short() {
				b.Skip("large")
			}
			exp := companyExport(n)
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				st, err := pgstore.Open(ctx, pgtest.NewDatabase(b), pgstore.Options{})
				if err != nil {
					b.Fatal(err)
				}
				svc := app.New(st, tokens, app.Config{})
				nu, err := svc.AddUser(ctx, app.NewUserInput{Company: "Grande", Email: "a@grande.com"})
				if err != nil {
					b.Fatal(err)
				}
				s, err := svc.Authenticate(ctx, "a@grande.com", nu.SecretToken)
				if err != nil {
					b.Fatal(err)
				}
				p, err := svc.Authorize(ctx, s.Token)
				if err != nil {
					b.Fatal(err)
				}
				before := cpuTime()
				b.StartTimer()
				if _, err := svc.ImportCompany(ctx, p, exp); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += cpuTime() - before
				st.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/resource")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
