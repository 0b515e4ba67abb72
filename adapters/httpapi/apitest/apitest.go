// Package apitest runs the real HTTP surface over a temporary store for
// tests: the bundled sample banks imported, users made on demand, every
// exchange checked against costdb's OpenAPI description (see Contract), and
// every v2 JSON response body validated against the official JSON:API schema.
//
// The package knows no storage engine: the service and its store come from
// the Opener set with Use. A package whose tests use the harness runs them
// through the engine matrix of cmd/enginetest from its TestMain, which sets
// the Opener and runs all of them once per engine (a bbolt file, a
// PostgreSQL database), so that every HTTP test runs on both without being
// written twice.
package apitest

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/server"
	"github.com/costdb/costdb/app"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed testdata/jsonapi-schema.json
var jsonapiSchema []byte

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// JSONAPISchema returns the compiled JSON:API response schema.
func JSONAPISchema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(jsonapiSchema))
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("jsonapi.json", doc); err != nil {
			schemaErr = err
			return
		}
		schema, schemaErr = c.Compile("jsonapi.json")
	})
	return schema, schemaErr
}

// ValidateJSONAPI reports an error when body is not a valid JSON:API document.
//
// One documented member is exempt: the attribute `type` of a composition
// (JSON:API type "compositions"), a string, which the seed's field table
// names and real clients read, although JSON:API reserves the name (the
// official schema refuses it). It is removed before the check; every other
// member is checked as the schema says. See docs/decisions.md.
func ValidateJSONAPI(body []byte) error {
	s, err := JSONAPISchema()
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return err
	}
	exemptSeedType(doc)
	return s.Validate(doc)
}

// exemptSeedType removes the attribute `type` (a string) of every
// composition in the primary data and `included` of a document.
func exemptSeedType(doc any) {
	top, ok := doc.(map[string]any)
	if !ok {
		return
	}
	var objs []any
	switch d := top["data"].(type) {
	case map[string]any:
		objs = append(objs, d)
	case []any:
		objs = append(objs, d...)
	}
	if inc, ok := top["included"].([]any); ok {
		objs = append(objs, inc...)
	}
	for _, o := range objs {
		ro, ok := o.(map[string]any)
		if !ok || ro["type"] != "compositions" {
			continue
		}
		if a, ok := ro["attributes"].(map[string]any); ok {
			if _, isText := a["type"].(string); isText {
				delete(a, "type")
			}
		}
	}
}

// Harness is a running costdb over a temporary store.
type Harness struct {
	T     *testing.T
	URL   string
	App   *app.Service
	Store app.Store
	// Engine is the engine of Store ("bolt" or "postgres"), Path the bbolt
	// file or the database URL.
	Engine string
	Path   string
	Env    *httpapi.Env
	server *httptest.Server
}

// Option changes the harness's environment before the server starts.
type Option func(*httpapi.Env)

// New starts a harness; it is closed when the test ends.
func New(t *testing.T, opts ...Option) *Harness {
	t.Helper()
	return NewWithConfig(t, app.Config{}, opts...)
}

// NewWithConfig starts a harness whose service has the settings cfg (zero
// values take the defaults).
func NewWithConfig(t *testing.T, cfg app.Config, opts ...Option) *Harness {
	t.Helper()
	if opener == nil {
		t.Fatal("apitest: no storage engine: run the package's tests through cmd/enginetest (func TestMain(m *testing.M) { enginetest.Main(m) })")
	}
	b := opener(t, cfg)
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	env := &httpapi.Env{
		App:          b.App,
		Speed:        b.Speed,
		Location:     loc,
		MaxBodyBytes: 1 << 20,
		Limiter:      httpapi.NewAuthLimiter(20, time.Minute),
		Log:          slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	for _, o := range opts {
		o(env)
	}
	srv := httptest.NewServer(server.Handler(env))
	h := &Harness{T: t, URL: srv.URL, App: b.App, Store: b.Store, Engine: b.Engine, Path: b.Path, Env: env, server: srv}
	// Cleanups run last first: the server stops before the Opener's
	// cleanup closes the store.
	t.Cleanup(srv.Close)
	return h
}

// User is a user made by the harness, with a ready access token.
type User struct {
	Email        string
	Secret       string
	UserID       string
	CompanyID    string
	DepartmentID string
	Token        string
}

// AddUser creates a user in company (made when new) and authenticates it.
func (h *Harness) AddUser(company, email string) User {
	h.T.Helper()
	nu, err := h.App.AddUser(context.Background(), app.NewUserInput{Company: company, Email: email})
	if err != nil {
		h.T.Fatal(err)
	}
	s, err := h.App.Authenticate(context.Background(), email, nu.SecretToken)
	if err != nil {
		h.T.Fatal(err)
	}
	return User{Email: nu.User.Email, Secret: nu.SecretToken, UserID: nu.User.ID, CompanyID: nu.Company.ID, DepartmentID: nu.Department.ID, Token: s.Token}
}

// Response is an HTTP answer, read whole.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test when it is not JSON.
func (r *Response) JSON(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("response body is not JSON: %v\n%s", err, r.Body)
	}
}

// Map decodes the body as a JSON object.
func (r *Response) Map(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	r.JSON(t, &m)
	return m
}

// Do sends a request to the harness. token, when not empty, is sent as
// "Bearer <token>"; headers may override anything. The body is sent as
// application/json unless headers say otherwise. The exchange is checked
// against the OpenAPI description (Contract.Check), and every response to a
// v2 path that has a JSON body against the JSON:API schema: the test fails
// otherwise.
func (h *Harness) Do(method, path, token, body string, headers ...string) *Response {
	h.T.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.URL+path, rd)
	if err != nil {
		h.T.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.T.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.T.Fatal(err)
	}
	r := &Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
	h.checkContract(req, body, r)
	// A file the answer hands over (Content-Disposition: attachment, such as
	// a frozen version's content) is the file, not a JSON:API document.
	attachment := strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment")
	if strings.HasPrefix(path, "/api/public/v2") && len(bytes.TrimSpace(b)) > 0 && isJSON(resp.Header.Get("Content-Type")) && !attachment {
		if err := ValidateJSONAPI(b); err != nil {
			h.T.Errorf("%s %s: the response is not a valid JSON:API document: %v\n%s", method, path, err, b)
		}
	}
	return r
}

// isJSON reports whether a media type is JSON (the exports, CSV and SVG,
// are not JSON:API documents).
func isJSON(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.TrimSpace(mt)
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// checkContract fails the test when the exchange departs from the OpenAPI
// description.
func (h *Harness) checkContract(req *http.Request, body string, r *Response) {
	h.T.Helper()
	c, err := LoadContract()
	if err != nil {
		h.T.Fatal(err)
	}
	err = c.Check(Exchange{
		Method:      req.Method,
		Target:      req.URL.RequestURI(),
		Header:      req.Header,
		RequestBody: []byte(body),
		Status:      r.Status,
		RespHeader:  r.Header,
		RespBody:    r.Body,
	})
	if err != nil {
		h.T.Errorf("the exchange departs from the API description (adapters/httpapi/openapi/openapi.yaml):\n%v", err)
	}
}
