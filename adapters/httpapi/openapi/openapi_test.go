package openapi_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/adapters/httpapi/openapi"
	"github.com/costdb/costdb/adapters/httpapi/server"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"
	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite docs/openapi.yaml from adapters/httpapi/openapi/openapi.yaml")

// docsCopy is the copy of the document kept in docs/.
var docsCopy = filepath.Join("..", "..", "..", "docs", "openapi.yaml")

// TestDocsCopy checks that docs/openapi.yaml is the embedded document, byte
// for byte. The embedded one is the source of truth.
func TestDocsCopy(t *testing.T) {
	if *update {
		if err := os.WriteFile(docsCopy, openapi.YAML(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(docsCopy)
	if err != nil {
		t.Fatalf("%v (run: go test ./adapters/httpapi/openapi -run TestDocsCopy -update)", err)
	}
	if !bytes.Equal(got, openapi.YAML()) {
		t.Errorf("docs/openapi.yaml differs from adapters/httpapi/openapi/openapi.yaml, the source of truth; run: go test ./adapters/httpapi/openapi -run TestDocsCopy -update")
	}
}

// TestDocumentIsValid checks that the document is valid OpenAPI 3.1: it
// loads, it passes kin-openapi's validation with the 3.1 rules, every $ref
// resolves, and what the seed and the house rules ask of it is there.
func TestDocumentIsValid(t *testing.T) {
	if v := version(t); v != "3.1.0" {
		t.Fatalf("openapi: %q, want 3.1.0", v)
	}
	c, err := apitest.LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	doc := c.Doc
	if !doc.IsOpenAPI31OrLater() {
		t.Fatal("kin-openapi does not read the document as OpenAPI 3.1")
	}
	if err := doc.Validate(context.Background(), openapi3.EnableExamplesValidation()); err != nil {
		t.Fatalf("the document is not valid (examples included): %v", err)
	}

	// The seed's named schemas.
	for _, name := range []string{"Authentication", "Relationship", "Enum", "ErrorObject", "ErrorsDocument", "ResourceInput", "CompositionInput"} {
		if doc.Components.Schemas[name] == nil {
			t.Errorf("components.schemas has no %s (a schema the API description names)", name)
		}
	}

	// Every operation has a unique id, a summary, a tag, and answers of its
	// generation's media type.
	ids := map[string]string{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			where := method + " " + path
			if op.OperationID == "" || op.Summary == "" || len(op.Tags) == 0 {
				t.Errorf("%s: needs an operationId, a summary and a tag", where)
			}
			if other, dup := ids[op.OperationID]; dup {
				t.Errorf("%s: operationId %s is also %s's", where, op.OperationID, other)
			}
			ids[op.OperationID] = where
			want := ""
			switch {
			case strings.HasPrefix(path, "/api/v1/"):
				want = "application/json"
			case strings.HasPrefix(path, "/api/public/v2/"):
				want = "application/vnd.api+json"
			}
			for status, r := range op.Responses.Map() {
				for mt := range r.Value.Content {
					// The budget reports are also exports: CSV files, an SVG
					// chart, a workbook and a PDF; the company's logo is an
					// image; a frozen version's content is a JSON file.
					if status == "200" && (mt == "text/csv" || mt == "image/svg+xml" || mt == "application/pdf" ||
						mt == "image/png" || mt == "image/jpeg" ||
						mt == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" ||
						(mt == "application/json" && strings.HasSuffix(path, "/versions/{version}/content"))) {
						continue
					}
					if want != "" && mt != want {
						t.Errorf("%s %s: media type %s, want %s", where, status, mt, want)
					}
				}
			}
		}
	}

	// Every schema is used, so that nothing described is dead.
	used := refs(t)
	for name := range doc.Components.Schemas {
		if !used["#/components/schemas/"+name] {
			t.Errorf("components.schemas.%s is never referred to", name)
		}
	}
}

// TestRoutesAreDocumented walks the router and checks that every route it
// serves is in the document and every path and method of the document is
// served.
func TestRoutesAreDocumented(t *testing.T) {
	h := apitest.New(t)
	routes, ok := server.Handler(h.Env).(chi.Routes)
	if !ok {
		t.Fatal("server.Handler is not a chi router")
	}
	served := map[string]bool{}
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		served[method+" "+normalize(route)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := apitest.LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for path, item := range c.Doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+normalize(path)] = true
		}
	}
	if diff := cmp.Diff(sortedKeys(documented), sortedKeys(served)); diff != "" {
		t.Errorf("routes (-documented +served):\n%s", diff)
	}
}

// normalize makes a chi route and an OpenAPI path comparable: no trailing
// slash, and every path parameter written {}.
func normalize(p string) string {
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(p, "{}")
}

func TestJSON(t *testing.T) {
	b, err := openapi.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON any
	if err := json.Unmarshal(b, &fromJSON); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	var fromYAML any
	if err := yaml.Unmarshal(openapi.YAML(), &fromYAML); err != nil {
		t.Fatal(err)
	}
	// JSON numbers decode as float64, YAML integers as int: compare as JSON.
	y, err := json.Marshal(fromYAML)
	if err != nil {
		t.Fatal(err)
	}
	var yaml2 any
	if err := json.Unmarshal(y, &yaml2); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(yaml2, fromJSON); diff != "" {
		t.Errorf("the JSON says something else than the YAML (-yaml +json):\n%s", diff)
	}
	// The order of the paths is the document's.
	paths := regexp.MustCompile(`(?m)^    "(/[^"]*)": \{`).FindAllSubmatch(b, -1)
	if len(paths) < 2 || string(paths[0][1]) != "/healthz" {
		t.Errorf("paths are not in the document's order: %q…", paths[:min(3, len(paths))])
	}
}

// TestServed checks GET /api/docs/openapi.json and GET /api/docs through the
// real router (the harness also checks both answers against the document).
func TestServed(t *testing.T) {
	h := apitest.New(t)

	r := h.Do("GET", "/api/docs/openapi.json", "", "")
	if r.Status != 200 {
		t.Fatalf("GET /api/docs/openapi.json: %d\n%s", r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(r.Body, &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Paths["/api/public/v2/my_database/compositions/{id}/add_items"]["post"] == nil {
		t.Errorf("the served document is not the description: openapi %q, %d paths", doc.OpenAPI, len(doc.Paths))
	}

	r = h.Do("GET", "/api/docs/openapi-3.0.json", "", "")
	if r.Status != 200 {
		t.Fatalf("GET /api/docs/openapi-3.0.json: %d\n%s", r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("3.0 rendition: Content-Type %q", ct)
	}
	if want, err := openapi.JSON30(); err != nil || !bytes.Equal(r.Body, want) {
		t.Errorf("the served 3.0 rendition is not JSON30()'s bytes (err %v)", err)
	}
	var doc30 struct {
		OpenAPI string `json:"openapi"`
	}
	if err := json.Unmarshal(r.Body, &doc30); err != nil || doc30.OpenAPI != "3.0.3" {
		t.Errorf("3.0 rendition: openapi %q, err %v", doc30.OpenAPI, err)
	}

	r = h.Do("GET", "/api/docs", "", "")
	if r.Status != 200 {
		t.Fatalf("GET /api/docs: %d\n%s", r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	csp := r.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("Content-Security-Policy %q: the page must load nothing from elsewhere", csp)
	}
	page := string(r.Body)
	for _, want := range []string{
		"<!DOCTYPE html>",
		"<title>costdb HTTP API</title>",
		`<script src="docs/swagger-ui-bundle.js"></script>`,
		`"docs/openapi.json"`,
		"SwaggerUIBundle(",
		"validatorUrl: null",
		".swagger-ui",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not hold %q", want)
		}
	}
	// Self-contained: nothing fetched from another origin; the one inline
	// script is the one the policy allows by its digest, and the stylesheet
	// cannot close its element early.
	for _, bad := range []string{"<link", "src=\"http", "src=\"//", "@import", "url(http", "url(//", "url(\"http"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q; it must be self-contained", bad)
		}
	}
	scripts := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1)
	if len(scripts) != 1 {
		t.Fatalf("%d inline scripts, want 1", len(scripts))
	}
	sum := sha256.Sum256([]byte(scripts[0][1]))
	if want := "script-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "';"; !strings.Contains(csp, want) {
		t.Errorf("Content-Security-Policy %q does not allow the inline script (%s)", csp, want)
	}
	if n := strings.Count(page, "</style"); n != 2 {
		t.Errorf("%d </style, want 2 (the stylesheet closes its element early)", n)
	}
	for _, want := range []string{"connect-src 'self'", "base-uri 'none'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}

	// The renderer, tagged; its tag answers 304.
	r = h.Do("GET", "/api/docs/swagger-ui-bundle.js", "", "")
	if r.Status != 200 || !bytes.Contains(r.Body, []byte("SwaggerUIBundle")) {
		t.Fatalf("GET /api/docs/swagger-ui-bundle.js: %d, %d bytes", r.Status, len(r.Body))
	}
	if ct := r.Header.Get("Content-Type"); ct != "text/javascript; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	tag := r.Header.Get("ETag")
	if tag == "" {
		t.Fatal("no ETag on the renderer")
	}
	if r = h.Do("GET", "/api/docs/swagger-ui-bundle.js", "", "", "If-None-Match", tag); r.Status != 304 || len(r.Body) != 0 {
		t.Errorf("If-None-Match %s: %d, %d bytes; want 304, none", tag, r.Status, len(r.Body))
	}
	if r = h.Do("GET", "/api/docs/swagger-ui-bundle.js", "", "", "If-None-Match", `"other"`); r.Status != 200 {
		t.Errorf("If-None-Match of another tag: %d, want 200", r.Status)
	}
}

// TestPageLinks checks that everything the page refers to (its script, its
// document) is served by this server.
func TestPageLinks(t *testing.T) {
	h := apitest.New(t)
	b, err := openapi.Page()
	if err != nil {
		t.Fatal(err)
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"|new URL\("([^"]+)"`).FindAllStringSubmatch(string(b), -1)
	if len(refs) < 3 {
		t.Fatalf("the page refers to %d things, want its script and its document at least", len(refs))
	}
	for _, m := range refs {
		ref := m[1] + m[2]
		if strings.Contains(ref, ":") || strings.HasPrefix(ref, "/") {
			t.Errorf("reference %q is not relative to the page", ref)
			continue
		}
		// The page is /api/docs: a relative reference resolves under /api/.
		if r := h.Do("GET", "/api/"+ref, "", ""); r.Status != 200 || len(r.Body) == 0 {
			t.Errorf("the page refers to %s, which answers %d", ref, r.Status)
		}
	}
}

func version(t *testing.T) string {
	t.Helper()
	var head struct {
		OpenAPI string `yaml:"openapi"`
	}
	if err := yaml.Unmarshal(openapi.YAML(), &head); err != nil {
		t.Fatal(err)
	}
	return head.OpenAPI
}

// refs returns every $ref in the document.
func refs(t *testing.T) map[string]bool {
	t.Helper()
	var root any
	if err := yaml.Unmarshal(openapi.YAML(), &root); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && k == "$ref" {
					out[s] = true
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(root)
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
