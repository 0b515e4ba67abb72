package app_test

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// generatedExport is a company export of n own resources (each with one
// state's prices, every tenth in a group) and n/20 compositions of five of
// them each.
func generatedExport(n int) *app.CompanyExport {
	exp := &app.CompanyExport{Format: app.CompanyExportFormat, Version: app.CompanyExportV1,
		Groups: []*domain.Group{{ID: "g1", Description: "Grupo 1"}}}
	for i := 0; i < n; i++ {
		p := decimal.New(int64(100+i%997), -2)
		r := &domain.Resource{ID: fmt.Sprintf("r%d", i), Code: fmt.Sprintf("R%06d", i), Description: fmt.Sprintf("Recurso %d de alvenaria", i),
			Type: domain.TypeMaterial, Unit: "UN", Locals: map[string]domain.PriceLine{"MG": {PND: p, PD: p, PNDI: p, PDI: p}}}
		if i%10 == 0 {
			r.GroupID = "g1"
		}
		exp.Resources = append(exp.Resources, r)
	}
	for i := 0; i < n/20; i++ {
		c := &domain.Composition{ID: fmt.Sprintf("c%d", i), Code: fmt.Sprintf("C%06d", i), Description: "Composição", Unit: "M2", State: "MG", Rounding: 1}
		for j := 0; j < 5; j++ {
			c.Items = append(c.Items, domain.Item{Code: fmt.Sprintf("R%06d", (i*5+j)%n), Bank: domain.BankMyBase, Kind: domain.KindResource, Quantity: decimal.NewFromInt(int64(j + 1))})
		}
		exp.Compositions = append(exp.Compositions, c)
	}
	return exp
}

// BenchmarkImportCompany imports a generated export of 5,000 and 20,000
// resources (100,000 with -benchtime 1x and COSTDB_BENCH_LARGE set) into a
// fresh company: the time per resource must stay flat.
func BenchmarkImportCompany(b *testing.B) {
	for _, n := range []int{5000, 20000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			if n > 20000 && (testing.Short() || os.Getenv("COSTDB_BENCH_LARGE") == "") {
				b.Skip("large: set COSTDB_BENCH_LARGE")
			}
			exp := generatedExport(n)
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				f := newSampleFixture(b)
				before := cpuTime()
				b.StartTimer()
				if _, err := f.svc.ImportCompany(ctx, f.a, exp); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += cpuTime() - before
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
