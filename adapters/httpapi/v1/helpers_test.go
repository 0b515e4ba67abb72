package v1_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// base is the prefix of the company database's routes.
const base = "/api/v1/base/mybase"

// createdAtPattern is how created_at must look: RFC 3339 with the numeric
// offset of America/Sao_Paulo, never "Z".
var createdAtPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$`)

// setup starts a harness with one user.
func setup(t *testing.T) (*apitest.Harness, apitest.User) {
	t.Helper()
	h := apitest.New(t)
	return h, h.AddUser("Construtora Alfa", "ana@alfa.example")
}

// decode reads a JSON value keeping numbers as their exact text.
func decode(t *testing.T, body []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("response body is not JSON: %v\n%s", err, body)
	}
	return v
}

// object reads a JSON object keeping numbers as their exact text.
func object(t *testing.T, body []byte) map[string]any {
	t.Helper()
	m, ok := decode(t, body).(map[string]any)
	if !ok {
		t.Fatalf("response body is not a JSON object:\n%s", body)
	}
	return m
}

// call sends a request, checks the status and the media type, and returns the
// body as an object.
func call(t *testing.T, h *apitest.Harness, method, path, token, body string, want int) map[string]any {
	t.Helper()
	r := h.Do(method, path, token, body)
	checkStatus(t, r, method+" "+path, want)
	return object(t, r.Body)
}

func checkStatus(t *testing.T, r *apitest.Response, what string, want int) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("%s: status %d, want %d\n%s", what, r.Status, want, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: Content-Type %q, want application/json", what, ct)
	}
}

// checkError checks a v1 error body: exactly "message" (not empty) and
// "errors", whose keys are exactly fields.
func checkError(t *testing.T, body map[string]any, fields ...string) {
	t.Helper()
	if diff := cmp.Diff([]string{"errors", "message"}, keys(body)); diff != "" {
		t.Errorf("error body keys (-want +got):\n%s\n%v", diff, body)
		return
	}
	if msg, _ := body["message"].(string); msg == "" {
		t.Errorf("error body has no message: %v", body)
	}
	errs, ok := body["errors"].(map[string]any)
	if !ok {
		t.Fatalf("errors is not an object: %v", body)
	}
	if fields == nil {
		fields = []string{}
	}
	sort.Strings(fields)
	if diff := cmp.Diff(fields, keys(errs)); diff != "" {
		t.Errorf("error fields (-want +got):\n%s\nbody: %v", diff, body)
	}
	for k, v := range errs {
		msgs, ok := v.([]any)
		if !ok || len(msgs) == 0 {
			t.Errorf("errors[%q] is not a list of messages: %v", k, v)
		}
		for _, m := range msgs {
			if s, ok := m.(string); !ok || s == "" {
				t.Errorf("errors[%q] holds %v, not a message", k, m)
			}
		}
	}
}

// keys returns the sorted keys of m.
func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// num is a JSON number as the decoder keeps it.
func num(s string) json.Number { return json.Number(s) }

// jsonBody marshals v for a request body.
func jsonBody(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkCreatedAt checks the created_at of a record and returns it.
func checkCreatedAt(t *testing.T, rec map[string]any) string {
	t.Helper()
	s, _ := rec["created_at"].(string)
	if !createdAtPattern.MatchString(s) {
		t.Errorf("created_at %q is not RFC 3339 with the -03:00 offset", s)
	}
	return s
}

// id returns the id of a record.
func id(t *testing.T, rec map[string]any) string {
	t.Helper()
	s, ok := rec["id"].(string)
	if !ok || s == "" {
		t.Fatalf("record has no id: %v", rec)
	}
	return s
}

// createComposition creates a SINAPI-model composition in MG.
func createComposition(t *testing.T, h *apitest.Harness, token, code string) map[string]any {
	t.Helper()
	body := fmt.Sprintf(`{"code":%q,"description":"Composição %s","type":"PARE","unit":"M2","local":"MG","is_sicro":false}`, code, code)
	return call(t, h, "POST", base+"/compositions", token, body, 201)
}

// attachSinapi attaches SINAPI MG 08/2026 to a composition.
func attachSinapi(t *testing.T, h *apitest.Harness, token, compID string) map[string]any {
	t.Helper()
	return call(t, h, "POST", base+"/compositions/"+compID+"/add-bases", token,
		`{"bases":[{"name":"SINAPI","local":"MG","version":"08/2026","status":true}]}`, 200)
}

// createResource creates an own resource with a price in MG.
func createResource(t *testing.T, h *apitest.Harness, token, code string, extra ...string) map[string]any {
	t.Helper()
	body := fmt.Sprintf(`{"code":%q,"description":"Insumo %s","type":4,"unit":"UN","local":"MG","pnd":10.5,"pd":10.25,"pndi":10.5,"pdi":10.25,"status":true,"note":""%s}`,
		code, code, strings.Join(extra, ""))
	return call(t, h, "POST", base+"/resources", token, body, 201)
}

// bigBody is a JSON object larger than the 1 MiB body cap.
func bigBody() string {
	return `{"description":"` + strings.Repeat("a", 1<<20+10) + `"}`
}
