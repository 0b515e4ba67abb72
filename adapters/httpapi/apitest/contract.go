package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/costdb/costdb/adapters/httpapi/openapi"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Contract is costdb's OpenAPI document (adapters/httpapi/openapi), parsed
// and ready to check HTTP exchanges against: the HTTP tests check every
// request they send and every answer they get, so that the document cannot
// drift from what the server does.
//
// The validation is kin-openapi's openapi3filter, which validates OpenAPI
// 3.1 documents with a JSON Schema 2020-12 validator.
type Contract struct {
	Doc    *openapi3.T
	router routers.Router
}

var (
	contractOnce sync.Once
	contract     *Contract
	contractErr  error
)

// LoadContract returns the parsed, validated document (parsed once).
func LoadContract() (*Contract, error) {
	contractOnce.Do(func() {
		ctx := context.Background()
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(openapi.YAML())
		if err != nil {
			contractErr = fmt.Errorf("openapi.yaml does not load: %w", err)
			return
		}
		if err := doc.Validate(ctx); err != nil {
			contractErr = fmt.Errorf("openapi.yaml is not a valid OpenAPI document: %w", err)
			return
		}
		r, err := gorillamux.NewRouter(doc)
		if err != nil {
			contractErr = fmt.Errorf("openapi.yaml: %w", err)
			return
		}
		contract = &Contract{Doc: doc, router: r}
	})
	return contract, contractErr
}

func init() {
	// The reference page and its script are text; kin-openapi decodes
	// neither by itself.
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder("text/javascript", openapi3filter.PlainBodyDecoder)
	// The exports are checked as text: kin-openapi's own CSV decoder reads
	// commas, and the CSV exports are separated by semicolons.
	openapi3filter.RegisterBodyDecoder("text/csv", openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder("image/svg+xml", openapi3filter.PlainBodyDecoder)
}

// Exchange is one request and the answer to it, as a test made them.
type Exchange struct {
	Method string
	// Target is the path and query the request was sent to.
	Target      string
	Header      http.Header
	RequestBody []byte
	Status      int
	RespHeader  http.Header
	RespBody    []byte
}

// Check reports how an exchange departs from the document:
//
//   - The path and method must be documented, or the server must have
//     answered a path it does not have with 404, and a method a documented
//     path does not take with 405, in the generation's error format (the
//     components V1NotFound, V2NotFound, V1MethodNotAllowed,
//     V2MethodNotAllowed); an Allow header must then list exactly the
//     documented methods.
//   - A request the server accepted (2xx) must be valid: parameters, every
//     query parameter documented, body and media type, security. Requests
//     the server refused are not checked: tests send bad requests on
//     purpose, and the document describes what the server does with them.
//   - Every answer must be documented: its status, its media type, its
//     headers and its body's schema; a status documented without a body must
//     have none.
func (c *Contract) Check(x Exchange) error {
	ctx := context.Background()
	req, err := x.request()
	if err != nil {
		return err
	}
	route, params, err := c.router.FindRoute(req)
	switch {
	case errors.Is(err, routers.ErrPathNotFound):
		if x.Status != http.StatusNotFound {
			return fmt.Errorf("%s %s is not in the API description, but the server answered %d", x.Method, req.URL.Path, x.Status)
		}
		return c.checkShared(x, req.URL.Path, "NotFound")
	case errors.Is(err, routers.ErrMethodNotAllowed):
		if x.Status != http.StatusMethodNotAllowed {
			return fmt.Errorf("%s is not documented on %s, but the server answered %d", x.Method, req.URL.Path, x.Status)
		}
		if err := c.checkShared(x, req.URL.Path, "MethodNotAllowed"); err != nil {
			return err
		}
		return c.checkAllow(x, req)
	case err != nil:
		return fmt.Errorf("%s %s: %w", x.Method, req.URL.Path, err)
	}

	reqOpts := &openapi3filter.Options{MultiError: true, AuthenticationFunc: authenticated}
	reqOpts.WithCustomSchemaErrorFunc(schemaError)
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: reqOpts}
	var problems []string
	if x.Status >= 200 && x.Status < 300 {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			problems = append(problems, "the request the server accepted does not match the description: "+err.Error())
		}
		if err := undocumentedQuery(route, req); err != nil {
			problems = append(problems, err.Error())
		}
	}
	record(route.Operation.OperationID, x.Status)
	if err := c.checkResponse(ctx, in, route, x); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s %s (operation %s): %s", x.Method, x.Target, route.Operation.OperationID, strings.Join(problems, "\n"))
	}
	return nil
}

// request rebuilds the request for the validator. A trailing slash is
// dropped: both generations answer a collection with one as without.
func (x Exchange) request() (*http.Request, error) {
	u, err := url.Parse(x.Target)
	if err != nil {
		return nil, err
	}
	if len(u.Path) > 1 {
		u.Path = strings.TrimSuffix(u.Path, "/")
		u.RawPath = ""
	}
	req, err := http.NewRequest(x.Method, u.String(), bytes.NewReader(x.RequestBody))
	if err != nil {
		return nil, err
	}
	req.Header = x.Header.Clone()
	return req, nil
}

// checkResponse validates the answer against the operation's response for
// its status.
func (c *Contract) checkResponse(ctx context.Context, in *openapi3filter.RequestValidationInput, route *routers.Route, x Exchange) error {
	ref := route.Operation.Responses.Status(x.Status)
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("status %d is not documented: %s", x.Status, bodyExcerpt(x.RespBody))
	}
	if len(ref.Value.Content) == 0 && len(x.RespBody) > 0 {
		return fmt.Errorf("status %d is documented without a body, but the answer has one: %s", x.Status, bodyExcerpt(x.RespBody))
	}
	if len(ref.Value.Content) > 0 && len(x.RespBody) == 0 {
		return fmt.Errorf("status %d is documented with a body, but the answer has none", x.Status)
	}
	opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}
	opts.WithCustomSchemaErrorFunc(schemaError)
	// A sparse answer (fields[TYPE]) has only the members asked for: the
	// operation's schema, whose required lists describe the full answer,
	// does not apply to its body, which must still be a JSON:API document.
	sparse := x.Status == http.StatusOK && hasSparseFields(in.Request)
	if sparse {
		opts.ExcludeResponseBody = true
		if err := ValidateJSONAPI(x.RespBody); err != nil {
			return fmt.Errorf("the sparse %d answer is not a JSON:API document: %v\n%s", x.Status, err, bodyExcerpt(x.RespBody))
		}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 x.Status,
		Header:                 x.RespHeader,
		Options:                opts,
	}
	out.SetBodyBytes(x.RespBody)
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return fmt.Errorf("the %d answer does not match the description: %v\n%s", x.Status, err, bodyExcerpt(x.RespBody))
	}
	return nil
}

// hasSparseFields says whether req asks for a sparse fieldset.
func hasSparseFields(req *http.Request) bool {
	for k := range req.URL.Query() {
		if strings.HasPrefix(k, "fields[") {
			return true
		}
	}
	return false
}

// checkShared validates the answer to a path or method the document does
// not have against the shared response of the path's generation
// (V1NotFound, V2MethodNotAllowed…).
func (c *Contract) checkShared(x Exchange, path, kind string) error {
	var gen string
	switch {
	case strings.HasPrefix(path, "/api/v1/"):
		gen = "V1"
	case strings.HasPrefix(path, "/api/public/v2/"):
		gen = "V2"
	default:
		return fmt.Errorf("%s %s: not in the API description, and outside both generations (answered %d)", x.Method, path, x.Status)
	}
	name := gen + kind
	ref := c.Doc.Components.Responses[name]
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("the API description has no response %s", name)
	}
	resp := ref.Value
	for h, hr := range resp.Headers {
		if hr.Value != nil && hr.Value.Required && x.RespHeader.Get(h) == "" {
			return fmt.Errorf("%s %s: the %d answer has no %s header, which %s says it always has", x.Method, path, x.Status, h, name)
		}
	}
	ct := x.RespHeader.Get("Content-Type")
	mt := resp.Content.Get(ct)
	if mt == nil {
		return fmt.Errorf("%s %s: the %d answer's Content-Type %q is not that of %s", x.Method, path, x.Status, ct, name)
	}
	var v any
	if err := json.Unmarshal(x.RespBody, &v); err != nil {
		return fmt.Errorf("%s %s: the %d answer is not JSON: %v", x.Method, path, x.Status, err)
	}
	if err := mt.Schema.Value.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors(), openapi3.SetSchemaErrorMessageCustomizer(schemaError)); err != nil {
		return fmt.Errorf("%s %s: the %d answer does not match %s: %v\n%s", x.Method, path, x.Status, name, err, bodyExcerpt(x.RespBody))
	}
	return nil
}

// checkAllow checks that an Allow header, when the server sends one, lists
// exactly the methods the document gives the path.
func (c *Contract) checkAllow(x Exchange, req *http.Request) error {
	allow := x.RespHeader.Get("Allow")
	if allow == "" {
		return nil
	}
	var documented []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions} {
		r := req.Clone(req.Context())
		r.Method = m
		if _, _, err := c.router.FindRoute(r); err == nil {
			documented = append(documented, m)
		}
	}
	var got []string
	for _, m := range strings.Split(allow, ",") {
		got = append(got, strings.TrimSpace(m))
	}
	sort.Strings(got)
	sort.Strings(documented)
	if !slices.Equal(got, documented) {
		return fmt.Errorf("%s %s: Allow is %q, but the description gives the path %s", x.Method, req.URL.Path, allow, strings.Join(documented, ", "))
	}
	return nil
}

// undocumentedQuery refuses a query parameter the operation does not
// document: a request that used one and was accepted shows a parameter the
// description lacks.
func undocumentedQuery(route *routers.Route, req *http.Request) error {
	known, deep := map[string]bool{}, map[string]bool{}
	for _, ps := range []openapi3.Parameters{route.PathItem.Parameters, route.Operation.Parameters} {
		for _, p := range ps {
			if p.Value != nil && p.Value.In == openapi3.ParameterInQuery {
				known[p.Value.Name] = true
				deep[p.Value.Name] = p.Value.Style == openapi3.SerializationDeepObject
			}
		}
	}
	var unknown []string
	for k := range req.URL.Query() {
		// A deepObject parameter (fields) is sent as name[key].
		if name, _, ok := strings.Cut(k, "["); ok && deep[name] && strings.HasSuffix(k, "]") {
			continue
		}
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return fmt.Errorf("the server accepted the query parameters %s, which the description does not give", strings.Join(unknown, ", "))
}

// authenticated checks that an accepted request carried the credentials a
// security scheme of the operation describes (not that they are good: the
// server decides that).
func authenticated(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	h := strings.TrimSpace(in.RequestValidationInput.Request.Header.Get("Authorization"))
	s := in.SecurityScheme
	switch {
	case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
		if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
			return nil
		}
		return errors.New("no Authorization: Bearer <token>")
	case s.Type == "apiKey" && s.In == "header":
		if in.RequestValidationInput.Request.Header.Get(s.Name) != "" {
			return nil
		}
		return fmt.Errorf("no %s header", s.Name)
	}
	return fmt.Errorf("security scheme %s is not one the tests know", in.SecuritySchemeName)
}

// record notes that a test saw the status of the operation, in the file
// $COSTDB_CONTRACT_COVERAGE when it is set, so that the documented answers
// no test produces can be listed:
//
//	COSTDB_CONTRACT_COVERAGE=/tmp/cov go test ./adapters/httpapi/...
func record(operationID string, status int) {
	path := os.Getenv("COSTDB_CONTRACT_COVERAGE")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %d\n", operationID, status)
}

// schemaError says where a value departs from a schema and why, without
// the schema itself (kin-openapi prints it whole, which buries the point).
func schemaError(err *openapi3.SchemaError) string {
	return "at /" + strings.Join(err.JSONPointer(), "/") + ": " + err.Reason
}

func bodyExcerpt(b []byte) string {
	const max = 2000
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
