package storecache

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"unsafe"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/domain"
)

func contractOf(id string, lines, descLen int) *domain.Contract {
	c := &domain.Contract{ID: id, CompanyID: "co", BudgetID: "b", VersionHash: strings.Repeat("h", 64), Number: "12/2026",
		Contractor: "Construtora Alfa", StartDate: "2026-01-05", BaseMonth: "2026-01", Retention: decimal.RequireFromString("5"),
		BDI: domain.BDIRule{Rate: decimal.RequireFromString("25.5")}}
	for i := range lines {
		c.Lines = append(c.Lines, domain.ContractLine{ID: fmt.Sprintf("n%06d", i), Number: fmt.Sprintf("1.%d", i), Stage: "1",
			StageName: "SERVIÇOS PRELIMINARES", Bank: "SINAPI", Month: "08/2026", Code: fmt.Sprintf("%05d", i),
			Description: strings.Repeat("x", descLen), Unit: "M2", Quantity: decimal.RequireFromString("12.5"),
			UnitPrice: decimal.RequireFromString("101.27"), UnitPriceWithBDI: decimal.RequireFromString("127.09")})
	}
	return c
}

// TestContractCacheBytes: the contract cache fed more than its bound holds
// at most its bound, counted by its estimate: it keeps fewer contracts of
// long texts than of short ones, and one larger than the bound not at all.
func TestContractCacheBytes(t *testing.T) {
	if got := int(unsafe.Sizeof(domain.Contract{})); got > contractStruct {
		t.Errorf("domain.Contract is %d bytes, the estimate counts %d", got, contractStruct)
	}
	if got := int(unsafe.Sizeof(domain.ContractLine{})); got > contractLineStruct {
		t.Errorf("domain.ContractLine is %d bytes, the estimate counts %d", got, contractLineStruct)
	}
	cc := newContractCache()
	kept := func(step string) int {
		t.Helper()
		sum := 0
		for _, c := range cc.m {
			sum += contractBytes(c)
		}
		if sum != cc.bytes || sum > maxContractCacheBytes {
			t.Fatalf("%s: %d bytes counted, %d kept by the estimate, bound %d", step, cc.bytes, sum, maxContractCacheBytes)
		}
		return len(cc.m)
	}
	short, long := contractOf("", 1000, 20), contractOf("", 1000, 600)
	nShort, nLong := 0, 0 // the most kept at once
	for i, fed := 0, 0; fed <= 2*maxContractCacheBytes; i++ {
		c := *short
		c.ID = fmt.Sprintf("s%d", i)
		cc.put(&c)
		cc.put(&c) // the same contract again counts once
		fed += contractBytes(&c)
		nShort = max(nShort, kept("short texts"))
	}
	cc = newContractCache()
	for i, fed := 0, 0; fed <= 2*maxContractCacheBytes; i++ {
		c := *long
		c.ID = fmt.Sprintf("l%d", i)
		cc.put(&c)
		fed += contractBytes(&c)
		nLong = max(nLong, kept("long texts"))
	}
	if nLong == 0 || nLong*3 > nShort*2 {
		t.Errorf("kept %d contracts of short texts, %d of long ones: the bound is in bytes", nShort, nLong)
	}
	huge := contractOf("huge", maxContractCacheBytes/contractLineStruct, 0)
	cc.put(huge)
	if cc.get("huge") != nil {
		t.Errorf("a contract larger than the bound was kept")
	}
	kept("a huge contract")
}

// TestContractEstimate checks contractBytes against the heap a decoded
// contract (JSON, as the stores keep it) takes, through runtime/metrics.
func TestContractEstimate(t *testing.T) {
	b, err := json.Marshal(contractOf("c", 5000, 80))
	if err != nil {
		t.Fatal(err)
	}
	heap := func() int64 {
		runtime.GC()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(s)
		return int64(s[0].Value.Uint64())
	}
	cs := make([]*domain.Contract, 4)
	heap()
	before := heap()
	estimated := 0
	for i := range cs {
		if err := json.Unmarshal(b, &cs[i]); err != nil {
			t.Fatal(err)
		}
		estimated += contractBytes(cs[i])
	}
	held := heap() - before
	ratio := float64(estimated) / float64(held)
	t.Logf("4 contracts of 5,000 lines: %d bytes estimated, %d held (ratio %.2f)", estimated, held, ratio)
	if ratio < 0.7 || ratio > 1.5 {
		t.Errorf("estimated %d bytes, the heap holds %d (ratio %.2f)", estimated, held, ratio)
	}
	runtime.KeepAlive(cs)
}
