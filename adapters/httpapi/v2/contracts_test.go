package v2_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/shopspring/decimal"
)

const contractsPath = base + "/contracts"

// contractFixture freezes a budget of the SINAPI MG 08/2026 sample (two
// stages: 89306 × 120.5 and 87286 × 8.25; 89478 × 12) and makes a contract
// of its version 1 with 5% retention.
func contractFixture(t *testing.T, h *apitest.Harness, tok string) (id string, lines []obj) {
	t.Helper()
	bud := create(t, h, budgets, tok, `{"code":"ORC-CT","description":"Escola","location":"MG","bdi":25,
	  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
	  "items":[{"kind":"stage","description":"Alvenaria","items":[
	    {"kind":"composition","bank":"SINAPI","code":"89306","quantity":120.5},
	    {"kind":"composition","bank":"SINAPI","code":"87286","quantity":8.25}]},
	   {"kind":"stage","description":"Vedação","items":[
	    {"kind":"composition","bank":"SINAPI","code":"89478","quantity":12}]}]}`)
	bid := str(data(t, bud)["id"])
	expect(t, h.Do("POST", budgets+"/"+bid+"/versions", tok, ""), 201)
	c := create(t, h, contractsPath, tok, fmt.Sprintf(`{"data":{"type":"contracts","attributes":{"budget_id":%q,"version":1,
	  "number":"CT-012/2026","contractor":"Construtora Exemplo","start_date":"2026-09-01","base_month":"2026-08",
	  "retention":5,"index":"INCC"}}}`, bid))
	a := attrs(t, c)
	for _, l := range a["lines"].([]any) {
		lines = append(lines, l.(obj))
	}
	if len(lines) != 3 {
		t.Fatalf("contract lines: %v", a["lines"])
	}
	return str(data(t, c)["id"]), lines
}

func cd(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestContractMeasurementsAndAmendment: three measurements and one
// amendment of a contract of real SINAPI compositions, through HTTP, give
// the balances and totals an independent computation from the rules of
// docs/contracts.md gives: unit price with BDI = trunc(unit price × 1.25),
// value(q) = trunc(unit price with BDI × q), this period = value(accumulated)
// − value(previous), retention = trunc(5% of the period total).
func TestContractMeasurementsAndAmendment(t *testing.T) {
	h := apitest.New(t)
	u, other := h.AddUser("Construtora Alfa", "ana@alfa.com.br"), h.AddUser("Construtora Beta", "bia@beta.com.br")
	tok := u.Token
	cid, lines := contractFixture(t, h, tok)
	cpath := contractsPath + "/" + cid
	trunc := func(x decimal.Decimal) decimal.Decimal { return x.Truncate(2) }
	uwb := map[string]decimal.Decimal{}
	ids := map[string]string{} // number → line id
	contracted := map[string]decimal.Decimal{}
	for _, l := range lines {
		n := str(l["number"])
		ids[n] = str(l["id"])
		uwb[n] = trunc(cd(num(t, l["unit_price"])).Mul(cd("1.25")))
		if got := cd(num(t, l["unit_price_with_bdi"])); !got.Equal(uwb[n]) {
			t.Errorf("line %s: unit price with BDI %s; want %s", n, got, uwb[n])
		}
		contracted[n] = cd(num(t, l["quantity"]))
	}
	value := func(n string, q decimal.Decimal) decimal.Decimal { return trunc(uwb[n].Mul(q)) }

	// Another company sees nothing.
	expect(t, h.Do("GET", cpath, other.Token, ""), 404)
	expect(t, h.Do("POST", cpath+"/measurements", other.Token, `{"period_start":"2026-09-01","period_end":"2026-09-30","quantities":{}}`), 404)

	qty := func(m map[string]string) string {
		var parts []string
		for n, q := range m {
			parts = append(parts, fmt.Sprintf("%q:%s", ids[n], q))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	periods := []map[string]string{
		{"1.1": "40", "1.2": "2.5", "2.1": "3"},
		{"1.1": "50.25", "2.1": "4"},
		{"1.1": "40.25", "1.2": "5.75", "2.1": "2", "A1.1": "6"},
	}
	acc := map[string]decimal.Decimal{}
	for i, p := range periods {
		n := i + 1
		if n == 3 {
			// Amendment 1: 1.1 + 10, 2.1 − 1, a new line 88316 × 6 H.
			doc := expect(t, h.Do("POST", cpath+"/amendments", tok, fmt.Sprintf(`{"description":"Aditivo 1","changes":[{"line":%q,"quantity":10},{"line":%q,"quantity":-1}],
			  "new_lines":[{"bank":"SINAPI","code":"88316","quantity":6}]}`, ids["1.1"], ids["2.1"])), 201)
			nl := attrs(t, doc)["new_lines"].([]any)[0].(obj)
			ids["A1.1"] = str(nl["id"])
			uwb["A1.1"] = trunc(cd(num(t, nl["unit_price"])).Mul(cd("1.25")))
			wantAdd := value("1.1", cd("10")).Add(value("A1.1", cd("6")))
			if got := cd(num(t, doc["meta"].(obj)["additions"])); !got.Equal(wantAdd) {
				t.Errorf("additions %s; want %s", got, wantAdd)
			}
			expect(t, h.Do("POST", cpath+"/amendments/1/approve", tok, ""), 409) // a draft is submitted first
			expect(t, h.Do("POST", cpath+"/amendments/1/submit", tok, ""), 200)
			expect(t, h.Do("POST", cpath+"/amendments/1/approve", tok, ""), 200)
			contracted["1.1"] = contracted["1.1"].Add(cd("10"))
			contracted["2.1"] = contracted["2.1"].Sub(cd("1"))
			contracted["A1.1"] = cd("6")
		}
		mp := cpath + fmt.Sprintf("/measurements/%d", n)
		// Beyond the balance first: each line named at once.
		over := map[string]string{}
		for ln, q := range p {
			over[ln] = contracted[ln].Sub(acc[ln]).Add(cd("0.01")).String()
			_ = q
		}
		r := h.Do("POST", cpath+"/measurements", tok, `{"data":{"type":"measurements","attributes":{"period_start":"2026-09-01","period_end":"2026-09-30","quantities":`+qty(over)+`}}}`)
		errs := expect(t, r, 422)["errors"].([]any)
		if len(errs) != len(p) {
			t.Errorf("measurement %d over the balance: %d errors; want %d\n%s", n, len(errs), len(p), r.Body)
		}
		for _, e := range errs {
			e := e.(obj)
			ptr := str(e["source"].(obj)["pointer"])
			if !strings.HasPrefix(ptr, "/data/attributes/quantities/") || !strings.Contains(str(e["detail"]), "balance of") {
				t.Errorf("error %v", e)
			}
		}
		r = h.Do("POST", cpath+"/measurements", tok, fmt.Sprintf(`{"period_start":"2026-%02d-01","period_end":"2026-%02d-28","quantities":%s}`, 8+n, 8+n, qty(p)))
		if m := attrs(t, expect(t, r, 201)); r.Header.Get("Location") != mp || num(t, m["number"]) != fmt.Sprint(n) || m["status"] != "draft" {
			t.Errorf("measurement %d: %v (Location %s)", n, m, r.Header.Get("Location"))
		}
		expect(t, h.Do("POST", cpath+"/measurements", tok, `{"period_start":"2026-12-01","period_end":"2026-12-31","quantities":{}}`), 409)
		expect(t, h.Do("POST", mp+"/submit", tok, ""), 200)
		expect(t, h.Do("POST", mp+"/reject", tok, `{"reason":""}`), 422)
		rej := attrs(t, expect(t, h.Do("POST", mp+"/reject", tok, `{"reason":"conferir 1.1"}`), 200))
		if rej["status"] != "draft" || rej["reject_reason"] != "conferir 1.1" {
			t.Errorf("rejected: %v", rej)
		}
		expect(t, h.Do("POST", mp+"/submit", tok, ""), 200)
		expect(t, h.Do("POST", mp+"/approve", tok, ""), 200)
		expect(t, h.Do("PATCH", mp, tok, `{"quantities":{}}`), 409)
		expect(t, h.Do("POST", mp+"/approve", tok, ""), 409)

		b := attrs(t, expect(t, h.Do("GET", mp+"/boletim", tok, ""), 200))
		total := decimal.Zero
		for _, row := range b["rows"].([]any) {
			row := row.(obj)
			ln := str(row["number"])
			now := acc[ln].Add(cd(orZeroQ(p[ln])))
			this := value(ln, now).Sub(value(ln, acc[ln]))
			total = total.Add(this)
			for k, want := range map[string]decimal.Decimal{"this_value": this, "accumulated": now, "balance": contracted[ln].Sub(now),
				"balance_value": value(ln, contracted[ln]).Sub(value(ln, now)), "contracted": contracted[ln], "previous": acc[ln]} {
				if got := cd(num(t, row[k])); !got.Equal(want) {
					t.Errorf("measurement %d line %s %s = %s; want %s", n, ln, k, got, want)
				}
			}
			acc[ln] = now
		}
		ret := trunc(total.Mul(cd("0.05")))
		for k, want := range map[string]decimal.Decimal{"period_total": total, "retention": ret, "net": total.Sub(ret)} {
			if got := cd(num(t, b[k])); !got.Equal(want) {
				t.Errorf("measurement %d %s = %s; want %s", n, k, got, want)
			}
		}
		if b["readjustment"] != nil {
			t.Errorf("readjustment %v; want null", b["readjustment"])
		}
		if note := str(b["readjustment_note"]); !strings.Contains(note, "no index INCC") {
			t.Errorf("readjustment note %q; want it to name the missing series", note)
		}
	}
	// With the company's INCC series the boletim is readjusted: within the
	// first year of the base month (08/2026) by 0, the net unchanged.
	expect(t, h.Do("PUT", "/api/public/v2/indexes/INCC", tok, `{"points":[{"month":"08/2026","value":1000}]}`), 200)
	b3 := attrs(t, expect(t, h.Do("GET", cpath+"/measurements/3/boletim", tok, ""), 200))
	if b3["readjustment_note"] != nil || !cd(num(t, b3["readjustment"])).IsZero() || !cd(num(t, b3["readjustment_factor"])).IsZero() ||
		!cd(num(t, b3["net"])).Equal(cd(num(t, b3["period_total"])).Sub(cd(num(t, b3["retention"])))) {
		t.Errorf("boletim 3 with the series: readjustment %v factor %v note %v net %v", b3["readjustment"], b3["readjustment_factor"], b3["readjustment_note"], b3["net"])
	}
	csv := h.Do("GET", cpath+"/measurements/3/boletim?format=csv", tok, "")
	if csv.Status != 200 || !strings.Contains(string(csv.Body), "liquido") {
		t.Errorf("boletim CSV: %d %s", csv.Status, csv.Body)
	}
	st := attrs(t, expect(t, h.Do("GET", cpath+"/statement", tok, ""), 200))
	wantAcc, wantContracted := decimal.Zero, decimal.Zero
	for n, q := range acc {
		wantAcc = wantAcc.Add(value(n, q))
		wantContracted = wantContracted.Add(value(n, contracted[n]))
	}
	for k, want := range map[string]decimal.Decimal{"accumulated": wantAcc, "contracted": wantContracted, "balance": wantContracted.Sub(wantAcc)} {
		if got := cd(num(t, st[k])); !got.Equal(want) {
			t.Errorf("statement %s = %s; want %s", k, got, want)
		}
	}
	if len(st["totals"].([]any)) != 3 {
		t.Errorf("statement totals %v", st["totals"])
	}
	if r := h.Do("GET", cpath+"/statement?format=csv", tok, ""); r.Status != 200 || !strings.Contains(string(r.Body), "medicao_3") {
		t.Errorf("statement CSV: %d %s", r.Status, r.Body)
	}
	list := expect(t, h.Do("GET", cpath+"/measurements", tok, ""), 200)
	if len(list["data"].([]any)) != 3 {
		t.Errorf("measurements: %v", list["data"])
	}
}

func orZeroQ(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// TestContractAmendmentLimit: an amendment past 25% of the initial value is
// 422 with the figures; nothing is stored.
func TestContractAmendmentLimit(t *testing.T) {
	h := apitest.New(t)
	tok := h.AddUser("Construtora Alfa", "ana@alfa.com.br").Token
	cid, lines := contractFixture(t, h, tok)
	cpath := contractsPath + "/" + cid
	r := h.Do("POST", cpath+"/amendments", tok, fmt.Sprintf(`{"changes":[{"line":%q,"quantity":1000}]}`, str(lines[0]["id"])))
	errs := expect(t, r, 422)["errors"].([]any)
	if len(errs) != 1 || !strings.Contains(str(errs[0].(obj)["detail"]), "over the limit of 25% of the updated initial value") {
		t.Errorf("limit: %s", r.Body)
	}
	if got := expect(t, h.Do("GET", cpath+"/amendments", tok, ""), 200)["data"].([]any); len(got) != 0 {
		t.Errorf("amendments after a refusal: %v", got)
	}

	// At the boundary: a new line of the own base whose value is the
	// largest amount in centavos within 25% of the initial value passes;
	// one centavo more is refused. The price p gives trunc(p × 1.25) = T
	// for p = T × 0.8 exactly.
	initial := cd(num(t, attrs(t, expect(t, h.Do("GET", cpath, tok, ""), 200))["initial_value"]))
	limit := initial.Mul(cd("0.25")).Truncate(2)
	for i, amount := range []decimal.Decimal{limit.Add(cd("0.01")), limit} {
		code := fmt.Sprintf("R-LIM-%d", i)
		price := amount.Mul(cd("0.8"))
		create(t, h, resources, tok, fmt.Sprintf(`{"code":%q,"description":"Serviço extra","type":4,"unit":"UN","status":true,"locals":{"MG":{"pnd":%s,"pd":%s,"pndi":%s,"pdi":%s}}}`,
			code, price, price, price, price))
		r := h.Do("POST", cpath+"/amendments", tok, fmt.Sprintf(`{"new_lines":[{"bank":"MYBASE","code":%q,"quantity":1}]}`, code))
		if i == 0 {
			errs := expect(t, r, 422)["errors"].([]any)
			if !strings.Contains(str(errs[0].(obj)["detail"]), "R$ "+amount.StringFixed(2)) {
				t.Errorf("25%% + R$ 0,01 (%s of %s): %s", amount, initial, r.Body)
			}
			continue
		}
		doc := expect(t, r, 201)
		if got := cd(num(t, doc["meta"].(obj)["additions"])); !got.Equal(amount) {
			t.Errorf("additions at the limit %s; want %s", got, amount)
		}
	}
}

// TestContractConcurrentMeasurements: clients opening measurements of one
// contract at once, each measuring a line's whole balance: exactly one
// passes (201), the others are 409 (one open measurement at a time); and
// then clients submitting and approving at once never approve twice.
func TestContractConcurrentMeasurements(t *testing.T) {
	h := apitest.New(t)
	tok := h.AddUser("Construtora Alfa", "ana@alfa.com.br").Token
	cid, lines := contractFixture(t, h, tok)
	cpath := contractsPath + "/" + cid
	body := fmt.Sprintf(`{"period_start":"2026-09-01","period_end":"2026-09-30","quantities":{%q:%s}}`, str(lines[0]["id"]), num(t, lines[0]["quantity"]))
	const clients = 6
	statuses := make([]int, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = h.Do("POST", cpath+"/measurements", tok, body).Status
		}()
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		switch s {
		case 201:
			created++
		case 409:
		default:
			t.Errorf("status %d", s)
		}
	}
	if created != 1 {
		t.Fatalf("%d measurements opened at once; want 1 (%v)", created, statuses)
	}
	expect(t, h.Do("POST", cpath+"/measurements/1/submit", tok, ""), 200)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = h.Do("POST", cpath+"/measurements/1/approve", tok, "").Status
		}()
	}
	wg.Wait()
	approved := 0
	for _, s := range statuses {
		if s == 200 {
			approved++
		}
	}
	if approved != 1 {
		t.Errorf("%d approvals of one measurement; want 1 (%v)", approved, statuses)
	}
	// The line is fully measured: measuring it again is over its balance.
	r := h.Do("POST", cpath+"/measurements", tok, fmt.Sprintf(`{"period_start":"2026-10-01","period_end":"2026-10-31","quantities":{%q:0.0000001}}`, str(lines[0]["id"])))
	if errs := expect(t, r, 422)["errors"].([]any); !strings.Contains(str(errs[0].(obj)["detail"]), "balance of 0") {
		t.Errorf("over a zero balance: %s", r.Body)
	}
}
