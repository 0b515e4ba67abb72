package openapi_test

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/getkin/kin-openapi/openapi3"
)

// op is one documented operation, with a path a request can be sent to.
type op struct {
	id, method, path string
	body             bool // it takes a request body
	secured          bool
	v2               bool
	document         bool // its body may be a JSON:API document (data.type)
	create           bool
}

// operations lists the document's operations, each with a path made from
// its template ({id} is "nope") and its required query parameters.
func operations(t *testing.T) []op {
	t.Helper()
	c, err := apitest.LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	var out []op
	for path, item := range c.Doc.Paths.Map() {
		for method, o := range item.Operations() {
			var query []string
			for _, p := range append(append(openapi3.Parameters{}, item.Parameters...), o.Parameters...) {
				if p.Value.In == openapi3.ParameterInQuery && p.Value.Required {
					query = append(query, p.Value.Name+"=MG")
				}
			}
			target := strings.ReplaceAll(path, "{id}", "nope")
			if len(query) > 0 {
				sort.Strings(query)
				target += "?" + strings.Join(query, "&")
			}
			secured := len(c.Doc.Security) > 0
			if o.Security != nil {
				secured = len(*o.Security) > 0
			}
			x := op{
				id: o.OperationID, method: method, path: target, secured: secured,
				// A body of JSON (the logo's, an image, is probed by its own tests).
				body: o.RequestBody != nil && o.RequestBody.Value.Content.Get("application/json") != nil,
				v2:   strings.HasPrefix(path, "/api/public/v2/"),
			}
			if x.body && x.v2 {
				// The bodies that may be JSON:API documents are those whose
				// schema says so (AuthenticationRequest, …CreateRequest,
				// …UpdateRequest).
				ref := o.RequestBody.Value.Content.Get("application/json").Schema.Ref
				x.document = strings.HasSuffix(ref, "Request") && (strings.Contains(ref, "Create") || strings.Contains(ref, "Update") || strings.Contains(ref, "Authentication"))
				x.create = method == http.MethodPost && (strings.Contains(ref, "Create") || strings.Contains(ref, "Authentication"))
			}
			out = append(out, x)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// jsonapiType is the JSON:API type an operation's documents carry.
func jsonapiType(o op) string {
	for _, t := range []string{"groups", "resources", "compositions", "budgets", "webhooks"} {
		if strings.Contains(o.path, "/"+t) {
			return t
		}
	}
	return "access-tokens"
}

// TestErrorTour sends every documented operation the requests that every
// operation of its kind must refuse, and checks the status. The harness
// checks each answer against the document, so this proves the error
// answers the document gives every operation (401, 400, 406, 413, 415, 403,
// 409, 500) are the server's.
func TestErrorTour(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	big := `{"description":"` + strings.Repeat("a", 1<<20) + `"}`
	ops := operations(t)

	type probe struct {
		name    string
		applies func(op) bool
		token   string
		body    func(op) string
		headers []string
		query   string
		status  int
	}
	none := func(op) string { return "" }
	probes := []probe{
		{"no token", func(o op) bool { return o.secured }, "", func(o op) string {
			if o.body {
				return `{}`
			}
			return ""
		}, nil, "", 401},
		{"malformed body", func(o op) bool { return o.body }, u.Token, func(op) string { return `{"x":` }, nil, "", 400},
		{"body over the cap", func(o op) bool { return o.body }, u.Token, func(op) string { return big }, nil, "", 413},
		{"unknown query parameter", func(o op) bool { return o.v2 }, u.Token, none, nil, "nope=1", 400},
		{"nothing acceptable", func(o op) bool { return o.v2 }, u.Token, none, []string{"Accept", "text/html"}, "", 406},
		{"JSON:API with a parameter", func(o op) bool { return o.v2 }, u.Token, func(op) string { return `{}` },
			[]string{"Content-Type", "application/vnd.api+json; charset=utf-8"}, "", 415},
		{"document of another type", func(o op) bool { return o.document }, u.Token, func(op) string {
			return `{"data":{"type":"widgets","attributes":{}}}`
		}, nil, "", 409},
		{"document naming its own id", func(o op) bool { return o.create }, u.Token, func(o op) string {
			return `{"data":{"type":"` + jsonapiType(o) + `","id":"mine","attributes":{}}}`
		}, nil, "", 403},
	}
	for _, p := range probes {
		for _, o := range ops {
			if !p.applies(o) {
				continue
			}
			t.Run(p.name+"/"+o.id, func(t *testing.T) {
				path := o.path
				if p.query != "" {
					sep := "?"
					if strings.Contains(path, "?") {
						sep = "&"
					}
					path += sep + p.query
				}
				r := h.Do(o.method, path, p.token, p.body(o), p.headers...)
				if r.Status != p.status {
					t.Errorf("%s %s: %d, want %d\n%s", o.method, path, r.Status, p.status, r.Body)
				}
			})
		}
	}

	// Field rules the probes above do not reach.
	for _, tt := range []struct{ method, path, body string }{
		{"POST", "/api/public/v2/authenticate", `{"email":"ana@alfa.com.br","secret_token":"x","remember":true}`},
		{"POST", "/api/public/v2/my_database/groups", `{"description":" "}`},
	} {
		if r := h.Do(tt.method, tt.path, u.Token, tt.body); r.Status != 422 {
			t.Errorf("%s %s %s: %d, want 422\n%s", tt.method, tt.path, tt.body, r.Status, r.Body)
		}
	}

	// Health, then every operation when the store has gone.
	if r := h.Do("GET", "/healthz", "", ""); r.Status != 200 {
		t.Errorf("GET /healthz: %d", r.Status)
	}
	h.Store.Close()
	if r := h.Do("GET", "/readyz", "", ""); r.Status != 503 {
		t.Errorf("GET /readyz with the store closed: %d, want 503", r.Status)
	}
	if r := h.Do("GET", "/healthz", "", ""); r.Status != 200 {
		t.Errorf("GET /healthz with the store closed: %d, want 200 (the process is alive)", r.Status)
	}
	for _, o := range ops {
		if strings.HasPrefix(o.path, "/api/docs") || o.path == "/healthz" || o.path == "/readyz" {
			continue
		}
		t.Run("store closed/"+o.id, func(t *testing.T) {
			body := ""
			if o.body {
				body = `{"email":"ana@alfa.com.br","secret_token":"` + u.Secret + `"}`
			}
			if r := h.Do(o.method, o.path, u.Token, body); r.Status != 500 {
				t.Errorf("%s %s: %d, want 500\n%s", o.method, o.path, r.Status, r.Body)
			}
		})
	}
}

// TestConflictTour checks the 409 answers of records in use, in both
// generations: a resource used by composition A, A used by B.
func TestConflictTour(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	const v1, v2 = "/api/v1/base/mybase", "/api/public/v2/my_database"
	must := func(r *apitest.Response, status int) map[string]any {
		t.Helper()
		if r.Status != status {
			t.Fatalf("%d, want %d\n%s", r.Status, status, r.Body)
		}
		if len(r.Body) == 0 {
			return nil
		}
		return r.Map(t)
	}
	res := must(h.Do("POST", v1+"/resources", u.Token, `{"code":"R1","description":"Bloco","type":4,"unit":"UN","local":"MG","pnd":1,"pd":1,"pndi":1,"pdi":1,"status":true,"note":""}`), 201)["id"].(string)
	comp := func(code string) string {
		return must(h.Do("POST", v1+"/compositions", u.Token, `{"code":"`+code+`","description":"Parede","unit":"M2","local":"MG"}`), 201)["id"].(string)
	}
	a, b := comp("A"), comp("B")
	must(h.Do("POST", v1+"/compositions/"+a+"/add-items", u.Token, `{"items":[{"bank":"MYBASE","code":"R1","qty":2}]}`), 200)
	must(h.Do("POST", v1+"/compositions/"+b+"/add-items", u.Token, `{"items":[{"bank":"MYBASE","code":"A","qty":1}]}`), 200)

	for _, tt := range []struct{ method, path, body string }{
		{"PUT", v1 + "/resources/" + res, `{"code":"R2"}`},
		{"PUT", v1 + "/compositions/" + a, `{"code":"A2"}`},
		{"PATCH", v2 + "/resources/" + res, `{"code":"R2"}`},
		{"PATCH", v2 + "/compositions/" + a, `{"location":"SP"}`},
		{"DELETE", v2 + "/compositions/" + a, ""},
		{"POST", v2 + "/compositions/" + a + "/add_items", `{"items":[{"bank":"MYBASE","code":"B","quantity":1,"resource":false}]}`},
	} {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			if r := h.Do(tt.method, tt.path, u.Token, tt.body); r.Status != 409 {
				t.Errorf("%d, want 409\n%s", r.Status, r.Body)
			}
		})
	}
}

// TestHealthPanic checks the answer of a health check that fails
// unexpectedly (the handler panics without an app).
func TestHealthPanic(t *testing.T) {
	h := apitest.New(t, func(env *httpapi.Env) { env.App = nil })
	r := h.Do("GET", "/readyz", "", "")
	if r.Status != 500 || strings.TrimSpace(string(r.Body)) != `{"message":"internal error"}` {
		t.Errorf("GET /readyz without an app: %d %s", r.Status, r.Body)
	}
}
