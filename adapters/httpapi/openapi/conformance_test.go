package openapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/domain"
	"github.com/getkin/kin-openapi/openapi3"
)

// defaultSeed makes the generated requests repeatable; to explore, set
// COSTDB_DOCGEN_SEED to another integer.
const defaultSeed = 16

// knownGaps are rules the document states and the service does not
// enforce yet, each with why: a broken request whose description matches
// one ("rule at …/member": the rule, then the end of the member's pointer)
// and that is accepted is logged, not failed. A gap that matches no broken
// request fails the test; one whose requests are all refused is logged, so
// that it can be taken out.
var knownGaps = map[string]string{}

// knownGap returns the known gap a broken request's description matches.
func knownGap(what string) (string, bool) {
	for k := range knownGaps {
		rule, member, _ := strings.Cut(k, "…")
		if strings.Contains(what, rule) && strings.HasSuffix(what, member) {
			return k, true
		}
	}
	return "", false
}

// TestDocumentDrivenRequests generates from the document a valid example of
// every request body and every parameter set of every operation, sends each
// to a real server (the sample banks imported, real ids in the paths) and
// checks that it is accepted; then it breaks one rule of each (a required
// member removed, a wrong JSON type, a value outside an enum, a bound, a
// length or a pattern, a required parameter left out, a bad parameter
// value) and checks that the server refuses it with a 4xx. The harness
// checks every exchange against the document as well.
func TestDocumentDrivenRequests(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Gerada", "gerada@example.com")
	c, err := apitest.LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	d, err := loadSchemaDoc()
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(defaultSeed)
	if v := os.Getenv("COSTDB_DOCGEN_SEED"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("COSTDB_DOCGEN_SEED: %v", err)
		}
		seed = n
	}
	rng := rand.New(rand.NewSource(seed))
	fx := &fixtures{h: h, tok: u.Token, t: t, kept: map[string]string{}, user: u.UserID, sector: u.DepartmentID, company: u.CompanyID}
	// The index series the readjustment examples name (ReadjustInput):
	// INCC-DI from 03/2025 to 04/2026.
	if r := h.Do("PUT", "/api/public/v2/indexes/INCC-DI", u.Token, `{"points":[{"month":"03/2025","value":1000},{"month":"03/2026","value":1057.321},{"month":"04/2026","value":1060}]}`); r.Status != 200 {
		t.Fatalf("fixture index: %d %s", r.Status, r.Body)
	}
	override := func(component string) (any, bool) {
		if component == "Authentication" || component == "AuthenticationAttributes" {
			return map[string]any{"email": u.Email, "secret_token": u.Secret}, true
		}
		return nil, false
	}

	type request struct {
		op, what, method, path, mediaType string
		body                              any
		hasBody                           bool
		mutated                           bool
	}
	var valid, mutated []request
	paths := d.root["paths"].(map[string]any)
	pathNames := make([]string, 0, len(paths))
	for p := range paths {
		pathNames = append(pathNames, p)
	}
	sort.Strings(pathNames)
	ops := 0
	agreed := 0 // valid requests sending both names of one field, agreeing
	gapsUsed := map[string]bool{}
	for _, path := range pathNames {
		item := paths[path].(map[string]any)
		for _, method := range []string{"get", "post", "put", "patch", "delete"} {
			o, ok := item[method].(map[string]any)
			if !ok {
				continue
			}
			opID, _ := o["operationId"].(string)
			if imageOps[opID] || strings.HasPrefix(path, "/api/public/v2/contracts") {
				// Contracts need a chain of records in given states
				// (a frozen version, a contract, a submitted measurement):
				// their requests are tested in adapters/httpapi/v2.
				continue
			}
			ops++
			params, err := operationParams(d, item, o)
			if err != nil {
				t.Fatalf("%s: %v", opID, err)
			}
			g := &generator{doc: d, rng: rng, branch: -1, override: override}

			// Parameter sets: the required ones; every one (but the other
			// names of a parameter); each other name with the required ones.
			type paramSet struct {
				what   string
				values url.Values
				path   map[string]string
			}
			makeSet := func(what string, include func(p param) bool) paramSet {
				ps := paramSet{what: what, values: url.Values{}, path: map[string]string{}}
				for _, p := range params {
					if p.in == "path" {
						ps.path[p.name] = ""
						continue
					}
					if p.in != "query" || !(p.required || include(p)) {
						continue
					}
					v, err := g.paramValue(p.schema)
					if err != nil {
						t.Fatalf("%s: parameter %s: %v", opID, p.name, err)
					}
					ps.values.Set(p.name, v)
				}
				return ps
			}
			sets := []paramSet{makeSet("required parameters", func(param) bool { return false })}
			hasOptional := false
			for _, p := range params {
				if p.in == "query" && !p.required {
					hasOptional = true
				}
			}
			if hasOptional {
				sets = append(sets, makeSet("every parameter", func(p param) bool { return p.aliasOf == "" }))
				for _, p := range params {
					if p.aliasOf != "" {
						name := p.name
						sets = append(sets, makeSet("parameter "+name, func(q param) bool { return q.name == name }))
					}
				}
			}

			// Bodies: per media type, per branch of the outermost oneOf,
			// the required members and every member.
			type body struct {
				what, mediaType string
				value           any
				sites           []site
			}
			var bodies []body
			if rb, ok := o["requestBody"].(map[string]any); ok {
				content := rb["content"].(map[string]any)
				mts := make([]string, 0, len(content))
				for mt := range content {
					mts = append(mts, mt)
				}
				sort.Strings(mts)
				for _, mt := range mts {
					if mt == "text/csv" {
						// A CSV upload (an index series as SGS exports it)
						// is no JSON value to generate: adapters/httpapi/v2
						// tests it (indexes_test.go).
						continue
					}
					s := content[mt].(map[string]any)["schema"].(map[string]any)
					fs, err := d.flatten(s)
					if err != nil {
						t.Fatal(err)
					}
					branches := 1
					if l, ok := fs["oneOf"].([]any); ok {
						branches = len(l)
					}
					for br := 0; br < branches; br++ {
						for _, full := range []bool{false, true} {
							g := &generator{doc: d, rng: rng, branch: br, full: full, override: override}
							v, err := g.value(s, nil)
							if err != nil {
								t.Fatalf("%s %s: %v", opID, mt, err)
							}
							what := fmt.Sprintf("%s branch %d", mt, br)
							if full {
								what += " every member"
							} else {
								what += " required members"
							}
							bodies = append(bodies, body{what: what, mediaType: mt, value: v, sites: g.sites})
						}
					}
				}
			}
			for _, ps := range sets {
				if len(bodies) == 0 {
					valid = append(valid, request{op: opID, what: ps.what, method: strings.ToUpper(method), path: fill(path, ps.path, ps.values)})
					continue
				}
				for i, b := range bodies {
					if ps.what != "required parameters" && i > 0 {
						break
					}
					valid = append(valid, request{op: opID, what: ps.what + ", " + b.what, method: strings.ToUpper(method),
						path: fill(path, ps.path, ps.values), mediaType: b.mediaType, body: b.value, hasBody: true})
				}
			}

			// Broken requests: each body mutation with the required
			// parameters; each parameter broken with the first body.
			base := sets[0]
			for _, b := range bodies {
				schema := c.Doc.Paths.Find(path).GetOperation(strings.ToUpper(method)).RequestBody.Value.Content.Get(b.mediaType).Schema.Value
				if err := visit(schema, b.value); err != nil {
					t.Errorf("%s %s: the generated body does not match the document: %v\n%s", opID, b.what, err, mustJSON(b.value))
					continue
				}
				for _, m := range agreeing(b.value, b.sites, true) {
					if err := visit(schema, m.body); err != nil {
						t.Errorf("%s %s: the document refuses two names of one field that agree (%s): %v", opID, b.what, m.what, err)
						continue
					}
					agreed++
					valid = append(valid, request{op: opID, what: b.mediaType + ": " + m.what, method: strings.ToUpper(method),
						path: fill(path, base.path, base.values), mediaType: b.mediaType, body: m.body, hasBody: true})
				}
				for _, m := range append(mutations(d, b.value, b.sites), agreeing(b.value, b.sites, false)...) {
					if visit(schema, m.body) == nil {
						continue // still valid (another branch takes it): not a broken rule
					}
					mutated = append(mutated, request{op: opID, what: b.mediaType + ": " + m.what, method: strings.ToUpper(method),
						path: fill(path, base.path, base.values), mediaType: b.mediaType, body: m.body, hasBody: true, mutated: true})
				}
			}
			var firstBody *body
			if len(bodies) > 0 {
				firstBody = &bodies[0]
			}
			for _, p := range params {
				if p.in != "query" {
					continue
				}
				var broken []struct{ what, value string }
				if p.required {
					broken = append(broken, struct{ what, value string }{"without required parameter " + p.name, "\x00drop"})
				}
				for _, bv := range badParamValues(d, p.schema) {
					broken = append(broken, struct{ what, value string }{"parameter " + p.name + " " + bv[0], bv[1]})
				}
				for _, br := range broken {
					vals := url.Values{}
					for k, v := range base.values {
						vals[k] = v
					}
					if br.value == "\x00drop" {
						vals.Del(p.name)
					} else {
						vals.Set(p.name, br.value)
					}
					r := request{op: opID, what: br.what, method: strings.ToUpper(method), path: fill(path, base.path, vals), mutated: true}
					if firstBody != nil {
						r.mediaType, r.body, r.hasBody = firstBody.mediaType, firstBody.value, true
					}
					mutated = append(mutated, r)
				}
			}
		}
	}

	imports := 0 // budgets made by sheet imports
	send := func(r request) *apitest.Response {
		target, id := fx.resolve(r.path, r.body, r.mutated)
		body := r.body
		if m, ok := body.(map[string]any); ok && id != "" && !strings.HasSuffix(r.what, " at /data/id") {
			// A JSON:API update names the record of the URL (unless the
			// request breaks that id on purpose).
			if data, ok := m["data"].(map[string]any); ok {
				if _, ok := data["id"]; ok {
					body = with(body, []any{"data", "id"}, id)
				}
			}
		}
		if _, gap := knownGap(r.what); gap && r.mutated {
			// Accepted by the service, against the document: sent
			// around the harness, whose contract check would fail it.
			return rawDo(t, h.URL, r.method, target, fx.tok, mustJSON(body), r.mediaType)
		}
		if !r.hasBody {
			return h.Do(r.method, target, fx.tok, "")
		}
		if path, query, ok := strings.Cut(target, "?"); ok && path == "/api/public/v2/budgets/import" && !r.mutated {
			// A tender's sheet (the body the document describes as a
			// string): one line of the sample edition, sent as CSV, under
			// a code of its own (each import creates a budget).
			q, _ := url.ParseQuery(query)
			imports++
			q.Set("code", "IMP-"+strconv.Itoa(imports))
			// The fixture holds one edition in MG: more editions are
			// tested by the v2 tests (TestImportSheetSeveralEditions).
			q.Del("editions")
			return h.Do(r.method, path+"?"+q.Encode(), fx.tok, "Item;Fonte;Código;Descrição;Unid.;Quant.\n1;SINAPI;"+sampleComposition+";ALVENARIA;M2;10\n", "Content-Type", "text/csv")
		}
		return h.Do(r.method, target, fx.tok, mustJSON(body), "Content-Type", r.mediaType)
	}
	for _, r := range valid {
		resp := send(r)
		if resp.Status >= 200 && resp.Status < 300 || resp.Status == 404 && lookupOp(r.op) {
			continue
		}
		t.Errorf("%s (%s): %s %s %s: answered %d, want it accepted\n%s", r.op, r.what, r.method, r.path, mustJSON(r.body), resp.Status, excerpt(resp.Body))
	}
	refused := 0
	gapsSeen := map[string]bool{}
	for _, r := range mutated {
		resp := send(r)
		key := r.op + " " + r.what
		gap, isGap := knownGap(r.what)
		if isGap {
			gapsSeen[gap] = true
		}
		switch {
		case resp.Status >= 400 && resp.Status < 500:
			refused++
		case isGap:
			fx.forget()
			gapsUsed[gap] = true
			t.Logf("known gap, accepted (%d): %s: %s", resp.Status, key, knownGaps[gap])
		default:
			fx.forget()
			t.Errorf("%s: %s %s %s: answered %d, want a 4xx\n%s", key, r.method, r.path, mustJSON(r.body), resp.Status, excerpt(resp.Body))
		}
	}
	for gap := range knownGaps {
		switch {
		case !gapsSeen[gap]:
			t.Errorf("knownGaps has %q, which no broken request names: remove it", gap)
		case !gapsUsed[gap]:
			t.Logf("knownGaps has %q, but every request that breaks it was refused: it may be taken out", gap)
		}
	}
	kinds := map[string]int{}
	for _, r := range mutated {
		kind := r.what
		if _, rest, ok := strings.Cut(kind, ": "); ok {
			kind = rest
		}
		for _, k := range []string{"without required parameter", "parameter", "without required", "both", "wrong type", "outside the enum", "not the const", "below the minimum", "above the maximum", "at the exclusive", "shorter than", "longer than", "not matching"} {
			if strings.HasPrefix(kind, k) {
				kinds[k]++
				break
			}
		}
	}
	t.Logf("broken requests by rule: %v", kinds)
	t.Logf("seed %d: %d operations, %d valid requests, %d broken requests (%d refused, %d known gaps)",
		seed, ops, len(valid), len(mutated), refused, len(gapsUsed))
	t.Logf("valid requests with both names of one field, agreeing: %d", agreed)
	if agreed == 0 || kinds["both"] == 0 {
		t.Errorf("no request sent both names of one field (agreeing: %d, disagreeing or forbidden: %d): are the document's dependentSchemas read?", agreed, kinds["both"])
	}
	if len(valid) < ops {
		t.Errorf("only %d valid requests for %d operations", len(valid), ops)
	}
}

// lookupOp reports whether an operation looks a record up by what the
// request names (a code), so that 404 is one of its accepted answers.
// imageOps send or answer an image (the company's logo), not JSON, which
// this test's generated requests cannot be: the tests of the logo in
// adapters/httpapi/v2 (profile_test.go) send real images through the
// harness, which checks each exchange against the document.
var imageOps = map[string]bool{"v2GetCompanyLogo": true, "v2PutCompanyLogo": true, "v2DeleteCompanyLogo": true}

func lookupOp(op string) bool {
	return strings.Contains(op, "Find") || op == "v2GetBankItem" || bankViewOps[op]
}

// bankViewOps read an edition their query names (state, version, region):
// one not imported is 404.
var bankViewOps = map[string]bool{
	"v1ListBankCompositions": true, "v1GetBankComposition": true, "v1ListBankResources": true, "v1GetBankResource": true,
}

// param is one parameter of an operation.
type param struct {
	name, in string
	required bool
	schema   map[string]any
	aliasOf  string // x-alias-of: another name of that parameter
}

func operationParams(d *schemaDoc, item, o map[string]any) ([]param, error) {
	var out []param
	seen := map[string]bool{}
	for _, list := range []any{o["parameters"], item["parameters"]} {
		l, _ := list.([]any)
		for _, p := range l {
			pm, err := d.resolve(p.(map[string]any))
			if err != nil {
				return nil, err
			}
			name, _ := pm["name"].(string)
			in, _ := pm["in"].(string)
			if seen[in+name] {
				continue
			}
			seen[in+name] = true
			if style, _ := pm["style"].(string); style == "deepObject" {
				// fields[TYPE] (sparse fieldsets): its members are the
				// names of a type's fields, sent as name[TYPE]; they are
				// tested in adapters/httpapi/v2 (sparse_test.go).
				continue
			}
			req, _ := pm["required"].(bool)
			s, _ := pm["schema"].(map[string]any)
			alias, _ := pm["x-alias-of"].(string)
			out = append(out, param{name: name, in: in, required: req, schema: s, aliasOf: alias})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// fill writes the query into path; path parameters stay as {name} for the
// fixtures to resolve.
func fill(path string, _ map[string]string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// visit validates v against s. The answers are kept for the test binary:
// the document and the generated requests are the same on each storage
// engine's run (and kin-openapi compiles the schema again at each call,
// which makes most of this test's own cost).
func visit(s *openapi3.Schema, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	key := visitKey{s, string(b)}
	visitMu.Lock()
	res, ok := visited[key]
	visitMu.Unlock()
	if ok {
		return res
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	res = s.VisitJSON(x, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors())
	visitMu.Lock()
	visited[key] = res
	visitMu.Unlock()
	return res
}

type visitKey struct {
	schema *openapi3.Schema
	value  string // JSON
}

var (
	visitMu sync.Mutex
	visited = map[visitKey]error{}
)

func mustJSON(v any) string {
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func excerpt(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

// fixtures makes the records a request's path names, fresh for each
// request, so that a delete or an edit never takes away what a later
// request needs.
type fixtures struct {
	h    *apitest.Harness
	tok  string
	t    *testing.T
	n    int
	kept map[string]string // kind → the record broken requests are sent to
	// user and sector are the caller and its department, the records the
	// users and sectors reads serve; company its company, the id of its
	// profile.
	user, sector, company string
}

// forget makes the next broken request get fresh records: the last one was
// accepted and may have changed its record.
func (f *fixtures) forget() { f.kept = map[string]string{} }

// Sample bank codes the fixtures use: a SINAPI MG 08/2026 composition and
// insumo (the document's examples name the same ones).
const (
	sampleComposition = "87286"
	sampleResource    = "7153"
	sampleBank        = "SINAPI-MG-2026-08"
)

func (f *fixtures) create(path, body string) string {
	f.t.Helper()
	r := f.h.Do("POST", path, f.tok, body)
	if r.Status != 201 {
		f.t.Fatalf("fixture POST %s: %d\n%s", path, r.Status, r.Body)
	}
	var doc struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	r.JSON(f.t, &doc)
	return doc.Data.ID
}

func (f *fixtures) uniq() string {
	f.n++
	return fmt.Sprintf("fx%d", f.n)
}

func (f *fixtures) group() string {
	return f.create("/api/public/v2/my_database/groups", `{"description":"Grupo `+f.uniq()+`"}`)
}

func (f *fixtures) resource() string {
	return f.create("/api/public/v2/my_database/resources", `{"code":"`+f.uniq()+`","description":"Insumo","unit":"UN","resource_type":4,"locals":{"MG":{"pnd":10,"pd":9,"pndi":10,"pdi":9}}}`)
}

func (f *fixtures) composition() string {
	f.t.Helper()
	id := f.create("/api/public/v2/my_database/compositions", `{"code":"`+f.uniq()+`","description":"Composição","unit":"M2","location":"MG"}`)
	base := "/api/public/v2/my_database/compositions/" + id
	if r := f.h.Do("POST", base+"/add_banks", f.tok, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`); r.Status != 200 {
		f.t.Fatalf("fixture add_banks: %d\n%s", r.Status, r.Body)
	}
	if r := f.h.Do("POST", base+"/add_items", f.tok, `{"items":[{"bank":"SINAPI","code":"`+sampleComposition+`","quantity":2,"resource":false},{"bank":"SINAPI","code":"`+sampleResource+`","quantity":1,"resource":true}]}`); r.Status != 200 {
		f.t.Fatalf("fixture add_items: %d\n%s", r.Status, r.Body)
	}
	return id
}

// budget makes a budget whose tree is a stage n1 holding a line n2.
func (f *fixtures) budget() string {
	return f.create("/api/public/v2/budgets", `{"code":"`+f.uniq()+`","description":"Orçamento","location":"MG",`+
		`"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],`+
		`"items":[{"kind":"stage","description":"Etapa","items":[{"kind":"composition","bank":"SINAPI","code":"`+sampleComposition+`","quantity":2}]}]}`)
}

// index makes a price index series of one month (its name as costdb
// writes it, its id).
func (f *fixtures) index() string {
	name := "IDX" + strings.ToUpper(f.uniq())
	r := f.h.Do("PUT", "/api/public/v2/indexes/"+name, f.tok, `{"points":[{"month":"03/2025","value":1000}]}`)
	if r.Status != 200 {
		f.t.Fatalf("fixture index: %d\n%s", r.Status, r.Body)
	}
	return name
}

// webhook registers a webhook of the caller's company, deleting the
// company's others first when they near the cap of 20.
func (f *fixtures) webhook() string {
	var list struct{ Data []struct{ ID string } }
	if r := f.h.Do("GET", "/api/public/v2/webhooks", f.tok, ""); r.Status == 200 {
		_ = json.Unmarshal(r.Body, &list)
	}
	if len(list.Data) >= 10 {
		for _, w := range list.Data {
			f.h.Do("DELETE", "/api/public/v2/webhooks/"+w.ID, f.tok, "")
		}
	}
	return f.create("/api/public/v2/webhooks", `{"url":"https://erp.example.com/costdb/hooks","events":["budget.frozen"]}`)
}

// delivery makes the webhook hook a delivered delivery (a budget frozen,
// its event marked delivered, as a dispatcher would) and returns its id.
func (f *fixtures) delivery(hook string) string {
	b := f.budget()
	f.create("/api/public/v2/budgets/"+b+"/versions", "")
	var list struct{ Data []struct{ ID string } }
	if r := f.h.Do("GET", "/api/public/v2/webhooks/"+hook+"/deliveries", f.tok, ""); r.Status == 200 {
		_ = json.Unmarshal(r.Body, &list)
	}
	if len(list.Data) == 0 {
		f.t.Fatalf("fixture delivery: none for webhook %s", hook)
	}
	id := list.Data[len(list.Data)-1].ID
	if err := f.h.App.FinishDelivery(context.Background(), id, true, "", domain.DefaultRetryPolicy); err != nil {
		f.t.Fatal(err)
	}
	return id
}

// schedule gives the budget at path (budget) a schedule: its stage n1 in
// one month.
func (f *fixtures) schedule(path string) {
	r := f.h.Do("PUT", path+"/schedule", f.tok, `{"start":"09/2026","periods":1,"rows":[{"node_id":"n1","shares":[100]}]}`)
	if r.Status != 200 {
		f.t.Fatalf("fixture schedule: %d\n%s", r.Status, r.Body)
	}
}

// resolve puts real values in a path's parameters: a fresh record of the
// kind the path is about for {id}, the sample edition for a bank's {id},
// the sample composition for {code}, and the stage or the line of the
// budget for {node} (the line when the body changes a quantity).
func (f *fixtures) resolve(path string, body any, reuse bool) (target, id string) {
	p, query, _ := strings.Cut(path, "?")
	if strings.Contains(p, "/base/{bank}/") {
		// A reference bank's views: the sample SINAPI, its records by code.
		p = strings.Replace(p, "{bank}", "sinapi", 1)
		code := sampleResource
		if strings.Contains(p, "/compositions/") {
			code = sampleComposition
		}
		p = strings.Replace(p, "{id}", code, 1)
	}
	if strings.Contains(p, "{id}") {
		kind := ""
		for _, k := range []string{"groups", "resources", "compositions", "budgets", "indexes", "webhooks"} {
			if strings.Contains(p, "/"+k+"/") {
				kind = k
			}
		}
		fresh := map[string]func() string{"groups": f.group, "resources": f.resource, "compositions": f.composition, "budgets": f.budget,
			"indexes": f.index, "webhooks": f.webhook}[kind]
		switch {
		case reuse && f.kept[kind] != "":
			// A broken request changes nothing, so the record a broken
			// request was sent to serves the next one (forget is called
			// when one was accepted).
			id = f.kept[kind]
		case fresh != nil:
			id = fresh()
			if reuse {
				f.kept[kind] = id
			}
		case strings.Contains(p, "/banks/"):
			id = sampleBank
		case strings.Contains(p, "/users/"):
			id = f.user
		case strings.Contains(p, "/sectors/"):
			id = f.sector
		default:
			f.t.Fatalf("no fixture for %s", p)
		}
		p = strings.Replace(p, "{id}", id, 1)
		if kind == "budgets" && strings.Contains(p, "/schedule") {
			budget := p[:strings.Index(p, "/schedule")]
			if i := strings.Index(budget, "/versions/"); i >= 0 {
				budget = budget[:i]
			}
			f.schedule(budget) // a budget's schedule: the stage n1 in one month
		}
	}
	if strings.Contains(p, "{version}") {
		// A frozen version 1 of the budget (freezing again adds 2, 3…).
		f.create(p[:strings.Index(p, "/versions/")]+"/versions", "")
		p = strings.Replace(strings.Replace(p, "{version}", "1", 1), "{other}", "1", 1)
		if strings.HasSuffix(p, "/versions/1/schedule") {
			id += ":1" // a version's own schedule is "<budget>:<version>"
		}
	}
	if strings.Contains(p, "{delivery}") {
		p = strings.Replace(p, "{delivery}", f.delivery(id), 1)
	}
	p = strings.Replace(p, "{code}", sampleComposition, 1)
	if strings.Contains(p, "{node}") {
		node := "n1"
		if m, ok := body.(map[string]any); ok {
			if _, q := m["quantity"]; q {
				node = "n2"
			}
		}
		p = strings.Replace(p, "{node}", node, 1)
	}
	p = strings.Replace(p, "{catalog}", "states", 1)
	if base, _, ok := strings.Cut(p, "/conformity"); ok && strings.Contains(p, "/budgets/") && query != "" && !reuse { // a broken request keeps its values
		// The reference is the budget itself, and its version 1.
		budget := base
		q, _ := url.ParseQuery(query)
		if q.Has("reference") {
			q.Set("reference", id)
		}
		if q.Has("reference_version") {
			f.create(budget+"/versions", "")
			q.Set("reference_version", "1")
		}
		query = q.Encode()
	}
	if strings.HasSuffix(p, "/company/profile") {
		id = f.company // a singleton: its id is the company's
	}
	if query != "" {
		return p + "?" + query, id
	}
	return p, id
}

// rawDo sends a request without the harness's contract check.
func rawDo(t *testing.T, base, method, target, token, body, mediaType string) *apitest.Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+target, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", mediaType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return &apitest.Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}
