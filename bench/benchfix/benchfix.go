// Package benchfix builds the fixed data set of costdb's load script and
// benchmarks (issue 11): the bundled sample banks, a company with a 20-item
// composition, 150 resources and a composition per writer, served over
// loopback with and without the response cache.
package benchfix

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/server"
	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
)

// ItemCodes are 20 items of the sample SINAPI MG 08/2026 edition: 14
// resources and 6 compositions.
var ItemCodes = []struct {
	Code     string
	Resource bool
}{
	{"7153", true}, {"12868", true}, {"34556", true}, {"34564", true}, {"34565", true}, {"34586", true},
	{"34588", true}, {"34649", true}, {"34655", true}, {"34781", true}, {"34788", true}, {"37666", true},
	{"37873", true}, {"38588", true},
	{"87286", false}, {"88309", false}, {"88316", false}, {"89282", false}, {"89290", false}, {"89298", false},
}

// Store is the storage the fixture serves from: a bbolt file (Setup) or a
// PostgreSQL database (SetupStore with a pgstore.Store).
type Store interface {
	app.Store
	io.Closer
}

type Fixture struct {
	Dir   string // removed by Close; "" when the store has no directory
	Store Store
	URL   string
	Srv   *http.Server
	H     http.Handler
	// renderURL and renderH serve the same service without the response
	// cache (where the code has one): every answer is rendered.
	RenderURL string
	RenderH   http.Handler
	RenderSrv *http.Server
	BudgetID  string
	Token     string
	CompID    string
	Comps     []string // one composition per writer
	// Svc is the service the servers run (with the response cache's
	// store), for setting up more data in process.
	Svc *app.Service
}

func Must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

func Do(url, method, token, body string, hdr ...string) (int, http.Header, []byte) {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	Must(err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

func Expect(st int, want int, b []byte, what string) {
	if st != want {
		log.Fatalf("%s: status %d, want %d: %s", what, st, want, b)
	}
}

func IDOf(b []byte) string {
	var doc struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	Must(json.Unmarshal(b, &doc))
	return doc.Data.ID
}

// Setup builds the fixture on a new bbolt file in a temporary directory.
func Setup(writers int) *Fixture {
	dir, err := os.MkdirTemp("", "costdb-load-")
	Must(err)
	st, err := boltstore.Open(filepath.Join(dir, "costdb.db"), boltstore.Options{})
	Must(err)
	return SetupStore(st, dir, writers)
}

// SetupStore builds the fixture on st, which must be empty; Close closes it
// and removes dir unless dir is "".
func SetupStore(st Store, dir string, writers int) *Fixture {
	ctx := context.Background()
	speed := storecache.New(st)
	key, err := app.New(speed, nil, app.Config{}).SigningKey(ctx)
	Must(err)
	tokens, err := jwtauth.New(key)
	Must(err)
	svc := app.New(speed, tokens, app.Config{})
	eds, err := sample.Load()
	Must(err)
	data := make([]app.EditionData, len(eds))
	for i, e := range eds {
		data[i] = app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}
	}
	_, err = svc.ImportEditions(ctx, data)
	Must(err)
	nu, err := svc.AddUser(ctx, app.NewUserInput{Company: "Bench", Email: "bench@example.com"})
	Must(err)
	env := &httpapi.Env{
		App: svc, Speed: speed, Location: time.UTC, MaxBodyBytes: 1 << 20,
		Limiter: httpapi.NewAuthLimiter(20, time.Minute),
		Log:     slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	env.MaxBodyBytes = 64 << 20 // the R4 budget is one request
	h := server.Handler(env)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Must(err)
	srv := server.New("", h, server.DefaultTimeouts)
	go func() { _ = srv.Serve(ln) }()
	f := &Fixture{Dir: dir, Store: st, URL: "http://" + ln.Addr().String(), Srv: srv, H: h, Svc: svc}
	renv := *env
	if fv := reflect.ValueOf(&renv).Elem().FieldByName("NoResponseCache"); fv.IsValid() {
		fv.SetBool(true)
	}
	f.RenderH = server.Handler(&renv)
	rln, err := net.Listen("tcp", "127.0.0.1:0")
	Must(err)
	f.RenderSrv = server.New("", f.RenderH, server.DefaultTimeouts)
	go func() { _ = f.RenderSrv.Serve(rln) }()
	f.RenderURL = "http://" + rln.Addr().String()
	v2 := f.URL + "/api/public/v2"
	st2, _, b := Do(v2+"/authenticate", "POST", "", `{"email":"bench@example.com","secret_token":"`+nu.SecretToken+`"}`)
	Expect(st2, 200, b, "authenticate")
	var auth struct {
		Data struct {
			Attributes struct {
				AccessToken string `json:"access_token"`
			} `json:"attributes"`
		} `json:"data"`
	}
	Must(json.Unmarshal(b, &auth))
	f.Token = auth.Data.Attributes.AccessToken
	var items []string
	for _, it := range ItemCodes {
		items = append(items, fmt.Sprintf(`{"bank":"SINAPI","code":"%s","quantity":1.25,"resource":%v}`, it.Code, it.Resource))
	}
	newComp := func(code string, withItems bool) string {
		st, _, b := Do(v2+"/my_database/compositions", "POST", f.Token, `{"code":"`+code+`","description":"ALVENARIA ESTRUTURAL 14X19X29","unit":"M2","type":"PARE","location":"MG"}`)
		Expect(st, 201, b, "create composition")
		id := IDOf(b)
		st, _, b = Do(v2+"/my_database/compositions/"+id+"/add_banks", "POST", f.Token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`)
		Expect(st, 200, b, "add_banks")
		if withItems {
			st, _, b = Do(v2+"/my_database/compositions/"+id+"/add_items", "POST", f.Token, `{"items":[`+strings.Join(items, ",")+`]}`)
			Expect(st, 200, b, "add_items")
		}
		return id
	}
	f.CompID = newComp("BENCH-20", true)
	for i := 0; i < 150; i++ {
		if st, _, _ := Do(v2+"/my_database/resources", "POST", f.Token, fmt.Sprintf(`{"data":{"type":"resources","attributes":{"code":"R-%03d","description":"Areia média %d","unit":"M3","resource_type":4,"locals":{"MG":{"pnd":101.25,"pd":100}}}}}`, i, i)); st != 201 {
			// the v1 shape, should the v2 body be refused
			st, _, b := Do(f.URL+"/api/v1/base/mybase/resources", "POST", f.Token, fmt.Sprintf(`{"code":"R-%03d","description":"Areia média %d","type":4,"unit":"M3","local":"MG","pnd":101.25,"pd":100,"pndi":0,"pdi":0,"status":true,"note":""}`, i, i))
			Expect(st, 201, b, "create resource")
		}
	}
	for i := 0; i < writers; i++ {
		f.Comps = append(f.Comps, newComp(fmt.Sprintf("W-%03d", i), false))
	}
	f.Store = st
	return f
}

// target is one read the script measures.

// BudgetBody is the v2 request that creates a budget of n lines, in stages
// of 1000, over the 20 items of ItemCodes.
func BudgetBody(lines int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"data":{"type":"budgets","attributes":{"code":"BENCH-%d","description":"Obra grande",`, lines)
	b.WriteString(`"location":"MG","desonerado":false,"bdi":25,"bdi_mode":"unit_price","rounding":"truncate",` +
		`"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],"items":[`)
	per := 1000 // lines per stage
	for s := 0; s*per < lines; s++ {
		if s > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"kind":"stage","description":"Etapa %d","items":[`, s)
		for i := s * per; i < min((s+1)*per, lines); i++ {
			if i > s*per {
				b.WriteString(",")
			}
			it := ItemCodes[i%len(ItemCodes)]
			kind := "composition"
			if it.Resource {
				kind = "resource"
			}
			fmt.Fprintf(&b, `{"kind":"%s","bank":"SINAPI","code":"%s","quantity":%d.25}`, kind, it.Code, i%97+1)
		}
		b.WriteString("]}")
	}
	b.WriteString("]}}}")
	return b.String()
}

// Close stops the servers and removes the database.
func (f *Fixture) Close() {
	_ = f.Srv.Close()
	_ = f.RenderSrv.Close()
	_ = f.Store.Close()
	if f.Dir != "" {
		_ = os.RemoveAll(f.Dir)
	}
}
