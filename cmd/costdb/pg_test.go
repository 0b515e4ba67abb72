package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
)

// serve starts a server in-process on db, signing tokens with the keys of
// keyFile, and returns it; it is closed when the test ends.
func serve(t *testing.T, db, keyFile string) *Main {
	t.Helper()
	m := NewMain(io.Discard, io.Discard)
	if err := m.ParseFlags([]string{"--addr", "127.0.0.1:0", "--admin-addr", "off", "--db", db, "--signing-key-file", keyFile}); err != nil {
		t.Fatal(err)
	}
	if err := m.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// pgUser adds a user through the CLI and returns an access token from
// base.
func pgUser(t *testing.T, db, company, email, base string) string {
	t.Helper()
	u := addUser(t, db, company, email)
	return login(t, base, email, u["secret_token"])
}

// TestTwoServersOnePostgres runs two servers on one database: what one
// acknowledges, the other serves at once, in both directions, prices
// included.
func TestTwoServersOnePostgres(t *testing.T) {
	db := pgtest.NewDatabase(t)
	keys := filepath.Join(t.TempDir(), "keys") // one key file for both servers
	a, b := serve(t, db, keys), serve(t, db, keys)
	tok := pgUser(t, db, "Construtora Alfa", "a@alfa.com", a.URL())
	for i := range 10 {
		writer, reader := a, b
		if i%2 == 1 {
			writer, reader = b, a
		}
		code := fmt.Sprintf("TS-%02d", i)
		r := post(t, writer.URL()+"/api/v1/base/mybase/resources", tok,
			`{"code":"`+code+`","description":"Areia média","type":4,"unit":"M3","local":"MG","pnd":101.25,"pd":101.25,"pndi":0,"pdi":0,"status":true,"note":""}`)
		if r.status != 201 {
			t.Fatalf("create through one server: %d %s", r.status, r.body)
		}
		var got map[string]any
		_ = json.Unmarshal([]byte(r.body), &got)
		id, _ := got["id"].(string)
		if g := do(t, "GET", reader.URL()+"/api/v1/base/mybase/resources/"+id, tok, ""); g.status != 200 || !strings.Contains(g.body, "101.25") {
			t.Fatalf("read through the other server right after: %d %s", g.status, g.body)
		}
		// A price change acknowledged by one is what the other serves.
		price := fmt.Sprintf("1%d.75", i)
		u := do(t, "PUT", writer.URL()+"/api/v1/base/mybase/resources/"+id, tok,
			`{"locals":{"MG":{"pnd":`+price+`,"pd":101.25,"pndi":0,"pdi":0}}}`)
		if u.status != 200 {
			t.Fatalf("update through one server: %d %s", u.status, u.body)
		}
		if g := do(t, "GET", reader.URL()+"/api/v1/base/mybase/resources/"+id, tok, ""); g.status != 200 || !strings.Contains(g.body, price) {
			t.Fatalf("the other server serves a stale price (want %s): %d %s", price, g.status, g.body)
		}
	}
}

// TestImportDuringLoad imports the sample banks through the CLI while two
// servers on the same database answer reads and writes: every request is
// answered 2xx (a 503, the documented answer of a database that cannot
// serve, would be counted and reported, but none is expected).
func TestImportDuringLoad(t *testing.T) {
	db := pgtest.NewDatabase(t)
	keys := filepath.Join(t.TempDir(), "keys") // one key file for both servers
	a, b := serve(t, db, keys), serve(t, db, keys)
	tok := pgUser(t, db, "Construtora Alfa", "a@alfa.com", a.URL())
	if code, _, stderr := cli(t, "import", "sample", "--db", db); code != 0 {
		t.Fatalf("first import: %s", stderr)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var requests, unavailable atomic.Int64
	var mu sync.Mutex
	var failures []string
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			base := []string{a.URL(), b.URL()}[w%2]
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var r answer
				switch i % 3 {
				case 0:
					r = do(t, "GET", base+"/api/public/v2/banks", tok, "")
				case 1:
					r = do(t, "GET", base+"/api/public/v2/banks/SINAPI-MG-2026-08/items?page[size]=50", tok, "")
				default:
					r = post(t, base+"/api/v1/base/mybase/resources", tok,
						fmt.Sprintf(`{"code":"L-%d-%d","description":"Carga","type":4,"unit":"M3","local":"MG","pnd":1.5,"pd":1.5,"pndi":0,"pdi":0,"status":true,"note":""}`, w, i))
				}
				requests.Add(1)
				if r.status == 503 {
					unavailable.Add(1)
				}
				if r.status < 200 || r.status > 299 {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%d %s", r.status, r.body))
					mu.Unlock()
				}
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	for range 2 {
		if code, _, stderr := cli(t, "import", "sample", "--db", db); code != 0 {
			t.Errorf("import during load: %s", stderr)
		}
	}
	close(stop)
	wg.Wait()
	if len(failures) > 0 {
		t.Errorf("%d of %d requests failed (%d answered 503), e.g. %s", len(failures), requests.Load(), unavailable.Load(), failures[0])
	}
	t.Logf("%d requests during two imports", requests.Load())
	if requests.Load() < 10 {
		t.Errorf("only %d requests ran during the imports", requests.Load())
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// populate writes every kind of record into a bbolt file through the use
// cases, and returns the paths of the GETs that show them and the secret
// token of the user a@alfa.com.
func populate(t *testing.T, path string) ([]string, string) {
	t.Helper()
	ctx := context.Background()
	st, err := boltstore.Open(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tokens, err := jwtauth.New([]byte("populate-populate-populate-populate"))
	if err != nil {
		t.Fatal(err)
	}
	svc := app.New(storecache.New(st), tokens, app.Config{})
	if _, err := importSample(ctx, svc); err != nil {
		t.Fatal(err)
	}
	nu, err := svc.AddUser(ctx, app.NewUserInput{Company: "Construtora Alfa", Email: "a@alfa.com", Department: "Orçamentos"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddUser(ctx, app.NewUserInput{Company: "Construtora Beta", Email: "b@beta.com"}); err != nil {
		t.Fatal(err)
	}
	s, err := svc.Authenticate(ctx, "a@alfa.com", nu.SecretToken)
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Authorize(ctx, s.Token)
	if err != nil {
		t.Fatal(err)
	}
	g, err := svc.CreateGroup(ctx, p, app.GroupInput{Description: "Alvenaria"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := svc.CreateResource(ctx, p, app.ResourceInput{GroupID: g.ID, Code: "OWN-R", Description: "Aditivo próprio", Type: domain.TypeMaterial, Unit: "KG",
		Status: true, Note: "nota", Locals: map[string]domain.PriceLine{
			"MG": {PND: dec("12.345"), PD: dec("11.111"), PNDI: dec("12.3450"), PDI: dec("0.10")},
			"SP": {PND: dec("1"), PD: dec("2.50"), PNDI: dec("0"), PDI: dec("0.0000001")}}})
	if err != nil {
		t.Fatal(err)
	}
	mg := app.BankInput{Name: "SINAPI", State: "MG", Month: "08/2026"}
	pc, err := svc.CreateComposition(ctx, p, app.CompositionInput{GroupID: g.ID, Code: "INNER", Description: "Própria", Unit: "M2", State: "MG"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddBanks(ctx, p, pc.ID, []app.BankInput{mg}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddItems(ctx, p, pc.ID, []app.ItemInput{
		{Bank: "MYBASE", Code: "OWN-R", Quantity: dec("0.5")},
		{Bank: "SINAPI", Code: "88309", Quantity: dec("0.25")},
		{Bank: "SINAPI", Code: "34586", Quantity: dec("3.000")},
	}); err != nil {
		t.Fatal(err)
	}
	pb, err := svc.CreateBudget(ctx, p, app.BudgetInput{
		Code: "ORC-1", Description: "Edifício", Client: "Cliente", State: "mg", BDI: dec("25.5"), Banks: []app.BankInput{mg},
		Items: []app.NodeInput{
			{Kind: domain.NodeStage, Description: "Alvenaria", Items: []app.NodeInput{
				{Kind: domain.NodeComposition, Bank: "sinapi", Code: "89306", Quantity: dec("120.5")},
				{Kind: domain.NodeComposition, Bank: "MYBASE", Code: "INNER", Quantity: dec("2.25")},
			}},
			{Kind: domain.NodeResource, Bank: "sinapi", Code: "34586", Quantity: dec("1000")},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	b := pb.Budget.ID
	node := pb.Budget.Items[0].ID
	// The optional ports' records: a frozen version, a contract with a
	// measurement and an amendment, a change log, a labour charges table,
	// a webhook with a delivery (the version's event).
	wh, err := svc.CreateWebhook(ctx, p, app.WebhookInput{URL: "https://erp.example.com/hooks", Events: []string{domain.EventBudgetFrozen}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.FreezeBudget(ctx, p, b); err != nil {
		t.Fatal(err)
	}
	off := false // its delivery held, so that both servers show it as copied
	if _, err := svc.UpdateWebhook(ctx, p, wh.ID, app.WebhookPatch{Active: &off}); err != nil {
		t.Fatal(err)
	}
	ct, err := svc.CreateContract(ctx, p, b, 1, domain.ContractInput{Number: "CT-1/2026", Contractor: "Construtora", StartDate: "2026-09-01",
		BaseMonth: "2026-08", Retention: dec("5"), IndexName: "INCC"})
	if err != nil {
		t.Fatal(err)
	}
	start, end := "2026-09-01", "2026-09-30"
	if _, err := svc.CreateMeasurement(ctx, p, ct.ID, app.MeasurementInput{PeriodStart: &start, PeriodEnd: &end,
		Quantities: map[string]decimal.Decimal{ct.Lines[0].ID: dec("10")}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.CreateAmendment(ctx, p, ct.ID, app.AmendmentInput{Description: "Aditivo 1",
		Changes: []domain.AmendmentChange{{LineID: ct.Lines[0].ID, Quantity: dec("5")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.ImportChangeLog(ctx, "SINAPI", []domain.BankChange{{Month: "08/2026", Composition: true, Code: "89306",
		Kind: domain.ChangeDescription, Text: "nova"}}); err != nil {
		t.Fatal(err)
	}
	v1, v2 := "/api/v1/base/mybase", "/api/public/v2/my_database"
	optional := []string{
		"/api/public/v2/budgets/" + b + "/versions", "/api/public/v2/budgets/" + b + "/versions/1",
		"/api/public/v2/contracts", "/api/public/v2/contracts/" + ct.ID, "/api/public/v2/contracts/" + ct.ID + "/measurements",
		"/api/public/v2/contracts/" + ct.ID + "/amendments",
		"/api/public/v2/bank_changes?filter[bank]=SINAPI&filter[month]=08/2026",
		"/api/public/v2/webhooks", "/api/public/v2/webhooks/" + wh.ID, "/api/public/v2/webhooks/" + wh.ID + "/deliveries",
	}
	return append([]string{
		v1 + "/groups", v1 + "/groups/" + g.ID,
		v1 + "/resources", v1 + "/resources/" + r.ID, v1 + "/resources/find_by_code?code=OWN-R",
		v1 + "/compositions", v1 + "/compositions/" + pc.ID, v1 + "/compositions/find_by_code?code=INNER&state=MG",
		"/api/v1/banks",
		"/api/v1/bud/budgets/list", "/api/v1/bud/budgets/" + b, "/api/v1/bud/budgets/" + b + "/nodes/" + node,
		"/api/v1/bud/budgets/" + b + "/synthetic", "/api/v1/bud/budgets/" + b + "/analytical_with_unit_price",
		"/api/public/v2/users/" + nu.User.ID, "/api/public/v2/sectors/" + nu.Department.ID,
		v2 + "/groups", v2 + "/groups/" + g.ID,
		v2 + "/resources", v2 + "/resources/" + r.ID, v2 + "/resources/find_by_code?code=OWN-R",
		v2 + "/compositions", v2 + "/compositions/" + pc.ID, v2 + "/compositions/find_by_code?code=INNER&state=MG",
		"/api/public/v2/banks", "/api/public/v2/banks/SINAPI-MG-2026-08", "/api/public/v2/banks/SINAPI-MG-2026-08/items",
		"/api/public/v2/banks/SINAPI-MG-2026-08/items/89306",
		"/api/public/v2/budgets", "/api/public/v2/budgets/" + b, "/api/public/v2/budgets/" + b + "/nodes/" + node,
		"/api/public/v2/budgets/" + b + "/reports/synthetic", "/api/public/v2/budgets/" + b + "/reports/analytic",
		"/api/public/v2/budgets/" + b + "/reports/abc", "/api/public/v2/budgets/" + b + "/reports/abc.svg",
	}, optional...), nu.SecretToken
}

// TestMigrateRoundTrip copies a bbolt database holding every kind of
// record into PostgreSQL with costdb migrate, then serves both: every GET
// answers the same status and the same bytes on both engines, with a token
// issued by the bbolt server (the signing key was copied too).
func TestMigrateRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	paths, secret := populate(t, path)
	url := pgtest.NewDatabase(t)
	code, out, stderr := cli(t, "migrate", "--from", path, "--to", url)
	if code != 0 {
		t.Fatalf("migrate: %d %s %s", code, out, stderr)
	}
	for _, table := range []string{"settings", "companies", "users", "groups", "resources", "compositions", "editions", "bank_resources", "budgets",
		"budget_versions", "contracts", "contract_measurements", "contract_amendments", "bank_changes", "webhooks", "webhook_deliveries"} {
		if !regexp.MustCompile(`(?m)^` + table + ` +[1-9][0-9]* read +[1-9][0-9]* written  ok$`).MatchString(out) {
			t.Errorf("the report shows no %s copied:\n%s", table, out)
		}
	}
	// Without --from, migrate brings the schema up to date (already is).
	if code, out, stderr := cli(t, "migrate", "--db", url); code != 0 || !strings.Contains(out, "at version") {
		t.Errorf("migrate --db: exit %d, %s %s", code, out, stderr)
	}
	if code, _, stderr := cli(t, "migrate", "--from", path, "--to", url); code == 0 || !strings.Contains(stderr, "not empty") {
		t.Errorf("a second migrate into a database that is no longer empty: exit %d, %s", code, stderr)
	}

	keys := filepath.Join(t.TempDir(), "keys") // one key file for both servers
	bolt, pg := serve(t, path, keys), serve(t, url, keys)
	tok := login(t, bolt.URL(), "a@alfa.com", secret)
	for _, p := range paths {
		rb := do(t, "GET", bolt.URL()+p, tok, "")
		rp := do(t, "GET", pg.URL()+p, tok, "")
		if rb.status != 200 {
			t.Errorf("GET %s on bbolt: %d %s", p, rb.status, rb.body)
		}
		if rb.status != rp.status || rb.body != rp.body {
			t.Errorf("GET %s differs:\nbbolt    %d %s\npostgres %d %s", p, rb.status, rb.body, rp.status, rp.body)
		}
	}
}
