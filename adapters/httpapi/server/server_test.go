package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
)

// TestMediaTypeOfBodies: a request body that is not JSON is refused with 415
// in both generations, before anything is read or written.
func TestMediaTypeOfBodies(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Alfa", "a@alfa.com")
	for _, c := range []struct{ path, contentType string }{
		{"/api/v1/base/mybase/groups", "text/plain"},
		{"/api/v1/base/mybase/groups", "application/x-www-form-urlencoded"},
		{"/api/public/v2/my_database/groups", "text/plain"},
	} {
		r := h.Do("POST", c.path, u.Token, `{"description":"Alvenaria"}`, "Content-Type", c.contentType)
		if r.Status != http.StatusUnsupportedMediaType {
			t.Errorf("%s as %s: %d %s, want 415", c.path, c.contentType, r.Status, r.Body)
		}
	}
	if r := h.Do("GET", "/api/v1/base/mybase/groups", u.Token, ""); !strings.Contains(string(r.Body), `"total":0`) {
		t.Errorf("a refused body wrote something: %s", r.Body)
	}
	// JSON with a charset, and no Content-Type at all, are read as JSON.
	if r := h.Do("POST", "/api/v1/base/mybase/groups", u.Token, `{"description":"A"}`, "Content-Type", "application/json; charset=utf-8"); r.Status != 201 {
		t.Errorf("application/json; charset=utf-8: %d %s", r.Status, r.Body)
	}
}

func TestMethodNotAllowedListsMethods(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Alfa", "a@alfa.com")
	for _, c := range []struct{ method, path, allow string }{
		{"PATCH", "/api/v1/base/mybase/groups/x", "GET, PUT, DELETE"},
		{"PUT", "/api/v1/base/mybase/compositions/x/add-items", "POST"},
		{"PUT", "/api/public/v2/my_database/groups/x", "GET, PATCH, DELETE"},
	} {
		r := h.Do(c.method, c.path, u.Token, "")
		if r.Status != 405 || r.Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: %d Allow %q, want 405 %q", c.method, c.path, r.Status, r.Header.Get("Allow"), c.allow)
		}
	}
}

func TestUnauthorizedNamesTheScheme(t *testing.T) {
	h := apitest.New(t)
	for _, p := range []string{"/api/v1/base/mybase/groups", "/api/public/v2/my_database/groups"} {
		r := h.Do("GET", p, "", "")
		if r.Status != 401 || !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: %d WWW-Authenticate %q", p, r.Status, r.Header.Get("WWW-Authenticate"))
		}
	}
}

// TestUnknownPathsAnswerJSON: paths outside both generations are in no API
// description, so they are requested directly, not through the contract
// check of h.Do.
func TestUnknownPathsAnswerJSON(t *testing.T) {
	h := apitest.New(t)
	for _, p := range []string{"/api/nothing", "/nothing"} {
		resp, err := http.Get(h.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]string
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != 404 || err != nil || body["message"] == "" || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %v %q, want a JSON 404", p, resp.StatusCode, err, body)
		}
	}
}

// TestSicroResourceHasOnePricePerState: whatever generation creates it, a
// SICRO resource's four prices in a state are its one price.
func TestSicroResourceHasOnePricePerState(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Alfa", "a@alfa.com")
	r := h.Do("POST", "/api/public/v2/my_database/resources", u.Token,
		`{"code":"E1","description":"Escavadeira","resource_type":1,"unit":"h","is_sicro":true,"status":true,"locals":{"AL":{"pnd":180.1234}}}`)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var doc struct {
		Data struct {
			Attributes struct {
				Locals map[string]map[string]json.Number `json:"locals"`
			} `json:"attributes"`
		} `json:"data"`
	}
	r.JSON(t, &doc)
	for _, k := range []string{"pnd", "pd", "pndi", "pdi"} {
		if got := doc.Data.Attributes.Locals["AL"][k]; got != "180.1234" {
			t.Errorf("locals.AL.%s = %q, want 180.1234 (a SICRO resource has one price per state)", k, got)
		}
	}
}
