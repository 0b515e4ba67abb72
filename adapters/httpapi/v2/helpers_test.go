package v2_test

import (
	"bytes"
	"encoding/json"
	"sort"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
)

const (
	base         = "/api/public/v2"
	compositions = base + "/my_database/compositions"
	resources    = base + "/my_database/resources"
	groups       = base + "/my_database/groups"
	jsonapiType  = "application/vnd.api+json"
)

// obj is a decoded JSON object; numbers stay json.Number, so that their text
// can be compared exactly.
type obj = map[string]any

// decode decodes a body with UseNumber.
func decode(t *testing.T, body []byte) obj {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var m obj
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, body)
	}
	return m
}

// expect checks the status and media type of an answer and decodes it.
func expect(t *testing.T, r *apitest.Response, status int) obj {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d\n%s", r.Status, status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != jsonapiType {
		t.Errorf("Content-Type %q, want %q", ct, jsonapiType)
	}
	return decode(t, r.Body)
}

// data returns the primary data of a one-resource document.
func data(t *testing.T, doc obj) obj {
	t.Helper()
	d, ok := doc["data"].(obj)
	if !ok {
		t.Fatalf("data is not an object: %v", doc)
	}
	return d
}

// attrs returns the attributes of a one-resource document.
func attrs(t *testing.T, doc obj) obj {
	t.Helper()
	a, ok := data(t, doc)["attributes"].(obj)
	if !ok {
		t.Fatalf("data.attributes is not an object: %v", doc)
	}
	return a
}

// keys lists the keys of an object, sorted.
func keys(m any) []string {
	o, _ := m.(obj)
	out := make([]string, 0, len(o))
	for k := range o {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// apiError is what a test checks of an error object.
type apiError struct {
	Status, Code, Pointer, Parameter string
}

// errorsOf checks that an answer is an errors document with the status and
// returns its error objects, detail left out.
func errorsOf(t *testing.T, r *apitest.Response, status int) []apiError {
	t.Helper()
	doc := expect(t, r, status)
	list, ok := doc["errors"].([]any)
	if !ok || len(list) == 0 {
		t.Fatalf("not an errors document: %s", r.Body)
	}
	var out []apiError
	for _, e := range list {
		o := e.(obj)
		if o["title"] == "" || o["detail"] == "" {
			t.Errorf("error object without title or detail: %v", o)
		}
		ae := apiError{Status: str(o["status"]), Code: str(o["code"])}
		if src, ok := o["source"].(obj); ok {
			ae.Pointer, ae.Parameter = str(src["pointer"]), str(src["parameter"])
		}
		out = append(out, ae)
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// num is the text of a JSON number.
func num(t *testing.T, v any) string {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("%v (%T) is not a JSON number", v, v)
	}
	return n.String()
}

// create POSTs a body to a collection, checks 201 and the Location, and
// returns the document.
func create(t *testing.T, h *apitest.Harness, path, token, body string) obj {
	t.Helper()
	r := h.Do("POST", path, token, body)
	doc := expect(t, r, 201)
	id := str(data(t, doc)["id"])
	if id == "" {
		t.Fatalf("created record has no id: %s", r.Body)
	}
	if loc := r.Header.Get("Location"); loc != path+"/"+id {
		t.Errorf("Location %q, want %q", loc, path+"/"+id)
	}
	return doc
}

// sinapiComposition creates a SINAPI-model composition in MG and returns its id.
func sinapiComposition(t *testing.T, h *apitest.Harness, token, code string) string {
	t.Helper()
	doc := create(t, h, compositions, token, `{"code":"`+code+`","description":"ALVENARIA ESTRUTURAL 14X19X29","unit":"M2","type":"PARE","location":"MG"}`)
	return str(data(t, doc)["id"])
}
