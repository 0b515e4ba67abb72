package v2_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

func TestAuthenticate(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")

	for _, body := range []string{
		`{"email":"ana@alfa.com.br","secret_token":"` + u.Secret + `"}`,
		`{"data":{"type":"access-tokens","attributes":{"email":"ANA@alfa.com.br","secret_token":"` + u.Secret + `"}}}`,
	} {
		doc := expect(t, h.Do("POST", base+"/authenticate", "", body), 200)
		if diff := cmp.Diff([]string{"data", "meta"}, keys(doc)); diff != "" {
			t.Errorf("top-level members (-want +got):\n%s", diff)
		}
		d := data(t, doc)
		if d["type"] != "access-tokens" || str(d["id"]) == "" {
			t.Errorf("data: type %v id %v", d["type"], d["id"])
		}
		a := d["attributes"].(obj)
		if diff := cmp.Diff([]string{"access_token", "expires_in_seconds"}, keys(a)); diff != "" {
			t.Errorf("attributes (-want +got):\n%s", diff)
		}
		if got := num(t, a["expires_in_seconds"]); got != "86400" {
			t.Errorf("expires_in_seconds = %s, want 86400", got)
		}
		wantUser := obj{"id": u.UserID, "name": "ana", "email": "ana@alfa.com.br", "company_name": "Construtora Alfa", "company_id": u.CompanyID}
		if diff := cmp.Diff(obj{"user": wantUser}, doc["meta"]); diff != "" {
			t.Errorf("meta (-want +got):\n%s", diff)
		}
		// The token works.
		expect(t, h.Do("GET", compositions, str(a["access_token"]), ""), 200)
	}

	for name, body := range map[string]string{
		"wrong secret":  `{"email":"ana@alfa.com.br","secret_token":"cdb_wrong"}`,
		"unknown email": `{"email":"nobody@alfa.com.br","secret_token":"` + u.Secret + `"}`,
		"no secret":     `{"email":"ana@alfa.com.br"}`,
	} {
		t.Run(name, func(t *testing.T) {
			got := errorsOf(t, h.Do("POST", base+"/authenticate", "", body), 401)
			if diff := cmp.Diff([]apiError{{Status: "401", Code: "unauthorized"}}, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
	errorsOf(t, h.Do("POST", base+"/authenticate", "", `{"email":`), 400)
}

func TestUnauthorized(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	disabled := h.AddUser("Construtora Alfa", "ze@alfa.com.br")
	if err := h.App.SetUserDisabled(context.Background(), disabled.Email, true); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		token   string
		headers []string
	}{
		{"no Authorization", "", nil},
		{"garbage token", "not-a-jwt", nil},
		{"forged token", u.Token[:len(u.Token)-4] + "AAAA", nil},
		{"bare token without Bearer", "", []string{"Authorization", u.Token}},
		{"other scheme", "", []string{"Authorization", "Token " + u.Token}},
		{"disabled user", disabled.Token, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, path := range []string{compositions, resources, groups + "/x"} {
				got := errorsOf(t, h.Do("GET", path, tt.token, "", tt.headers...), 401)
				if diff := cmp.Diff([]apiError{{Status: "401", Code: "unauthorized"}}, got); diff != "" {
					t.Errorf("%s: errors (-want +got):\n%s", path, diff)
				}
			}
		})
	}
}

// TestOtherCompany checks that another company's records answer 404, as
// missing ones do, for every operation on them.
func TestOtherCompany(t *testing.T) {
	h := apitest.New(t)
	owner := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	other := h.AddUser("Construtora Beta", "bia@beta.com.br")
	comp := sinapiComposition(t, h, owner.Token, "ALV-001")
	res := str(data(t, create(t, h, resources, owner.Token, `{"code":"001","description":"Bloco","unit":"UN","type":4}`))["id"])
	grp := str(data(t, create(t, h, groups, owner.Token, `{"description":"Alvenarias"}`))["id"])

	tests := []struct{ method, path, body string }{
		{"GET", compositions + "/" + comp, ""},
		{"PATCH", compositions + "/" + comp, `{"description":"x"}`},
		{"DELETE", compositions + "/" + comp, ""},
		{"POST", compositions + "/" + comp + "/add_banks", `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`},
		{"POST", compositions + "/" + comp + "/add_items", `{"items":[{"bank":"SINAPI","code":"88309","quantity":1}]}`},
		{"DELETE", compositions + "/" + comp + "/remove_items", `{"items":[{"bank":"SINAPI","code":"88309"}]}`},
		{"GET", compositions + "/find_by_code?code=ALV-001&state=MG", ""},
		{"GET", resources + "/" + res, ""},
		{"PATCH", resources + "/" + res, `{"note":"x"}`},
		{"DELETE", resources + "/" + res, ""},
		{"GET", resources + "/find_by_code?code=001", ""},
		{"GET", groups + "/" + grp, ""},
		{"PATCH", groups + "/" + grp, `{"description":"x"}`},
		{"DELETE", groups + "/" + grp, ""},
		{"GET", compositions + "/no-such-id", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			got := errorsOf(t, h.Do(tt.method, tt.path, other.Token, tt.body), 404)
			if diff := cmp.Diff([]apiError{{Status: "404", Code: "not_found"}}, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
	// And the owner's records are untouched.
	expect(t, h.Do("GET", compositions+"/"+comp, owner.Token, ""), 200)
	expect(t, h.Do("GET", resources+"/"+res, owner.Token, ""), 200)
	expect(t, h.Do("GET", groups+"/"+grp, owner.Token, ""), 200)
}

func TestMediaTypes(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	body := `{"description":"Alvenarias"}`
	tests := []struct {
		name    string
		method  string
		path    string
		headers []string
		status  int
	}{
		{"plain JSON", "POST", groups, nil, 201},
		{"JSON:API", "POST", groups, []string{"Content-Type", jsonapiType}, 201},
		{"JSON:API with a profile", "POST", groups, []string{"Content-Type", jsonapiType + `; profile="https://example.com/p"`}, 201},
		{"JSON:API with charset", "POST", groups, []string{"Content-Type", jsonapiType + "; charset=utf-8"}, 415},
		{"JSON:API with an extension", "POST", groups, []string{"Content-Type", jsonapiType + `; ext="https://jsonapi.org/ext/atomic"`}, 415},
		{"415 before authentication", "POST", base + "/authenticate", []string{"Content-Type", jsonapiType + "; v=1"}, 415},
		{"Accept JSON:API", "GET", groups, []string{"Accept", jsonapiType}, 200},
		{"Accept JSON", "GET", groups, []string{"Accept", "application/json"}, 200},
		{"Accept anything", "GET", groups, []string{"Accept", "*/*"}, 200},
		{"Accept JSON:API only with a parameter", "GET", groups, []string{"Accept", jsonapiType + "; charset=utf-8"}, 406},
		{"Accept JSON:API with a parameter or anything", "GET", groups, []string{"Accept", jsonapiType + "; charset=utf-8, */*;q=0.1"}, 200},
		{"Accept JSON:API with and without a parameter", "GET", groups, []string{"Accept", jsonapiType + "; charset=utf-8, " + jsonapiType}, 200},
		{"Accept only HTML", "GET", groups, []string{"Accept", "text/html"}, 406},
		{"Accept JSON at q=0", "GET", groups, []string{"Accept", "application/json;q=0"}, 406},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := ""
			if tt.method == "POST" {
				b = strings.Replace(body, "Alvenarias", "Grupo "+string(rune('A'+i)), 1)
			}
			r := h.Do(tt.method, tt.path, u.Token, b, tt.headers...)
			if r.Status != tt.status {
				t.Fatalf("status %d, want %d\n%s", r.Status, tt.status, r.Body)
			}
			if ct := r.Header.Get("Content-Type"); ct != jsonapiType {
				t.Errorf("Content-Type %q", ct)
			}
			if tt.status == 406 || tt.status == 415 {
				errorsOf(t, r, tt.status)
			}
		})
	}
}

func TestBadRequests(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	id := sinapiComposition(t, h, u.Token, "ALV-001")
	tests := []struct {
		name   string
		method string
		path   string
		body   string
		status int
		want   []apiError
	}{
		{"unknown query parameter", "GET", compositions + "?fieldset=code", "", 400, []apiError{{"400", "bad_request", "", "fieldset"}}},
		{"unknown query parameter on a detail", "GET", compositions + "/" + id + "?fieldset=code", "", 400, []apiError{{"400", "bad_request", "", "fieldset"}}},
		{"unknown include path on a detail", "GET", compositions + "/" + id + "?include=user,owner,group.user,owner", "", 400, []apiError{{"400", "bad_request", "", "include"}}},
		{"empty include", "GET", compositions + "/" + id + "?include=", "", 400, []apiError{{"400", "bad_request", "", "include"}}},
		{"include a relationship the record type lacks", "GET", base + "/budgets?include=group", "", 400, []apiError{{"400", "bad_request", "", "include"}}},
		{"include on a write", "PATCH", compositions + "/" + id + "?include=user", `{}`, 400, []apiError{{"400", "bad_request", "", "include"}}},
		{"unknown query parameter on an action", "POST", compositions + "/" + id + "/add_items?x=1", `{"items":[]}`, 400, []apiError{{"400", "bad_request", "", "x"}}},
		{"page size too large", "GET", resources + "?page[size]=101", "", 400, []apiError{{"400", "bad_request", "", "page[size]"}}},
		{"page number not a number", "GET", groups + "?page[number]=two&page[size]=0", "", 400, []apiError{
			{"400", "bad_request", "", "page[number]"}, {"400", "bad_request", "", "page[size]"},
		}},
		{"parameter given twice", "GET", groups + "?page[size]=1&page[size]=2", "", 400, []apiError{{"400", "bad_request", "", "page[size]"}}},
		{"find_by_code without code", "GET", resources + "/find_by_code", "", 400, []apiError{{"400", "bad_request", "", "code"}}},
		{"malformed JSON", "POST", compositions + "/" + id + "/add_banks", `{"banks":[{]}`, 400, []apiError{{"400", "bad_request", "", ""}}},
		{"empty body", "POST", compositions + "/" + id + "/add_items", ``, 400, []apiError{{"400", "bad_request", "", ""}}},
		{"wrong JSON type", "POST", compositions + "/" + id + "/add_items", `{"items":{}}`, 400, []apiError{{"400", "bad_request", "/items", ""}}},
		{"unknown path", "GET", base + "/my_database/budgets", "", 404, []apiError{{"404", "not_found", "", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, h.Do(tt.method, tt.path, u.Token, tt.body), tt.status)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMethodNotAllowed(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	id := sinapiComposition(t, h, u.Token, "ALV-001")
	for path, allow := range map[string]string{
		compositions + "/" + id:                "GET, PATCH, DELETE",
		compositions:                           "GET, POST",
		compositions + "/" + id + "/add_items": "POST",
	} {
		r := h.Do("PUT", path, u.Token, `{}`)
		errorsOf(t, r, 405)
		if got := r.Header.Get("Allow"); got != allow {
			t.Errorf("PUT %s: Allow %q, want %q", path, got, allow)
		}
	}
}

func TestBodyTooLarge(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	id := sinapiComposition(t, h, u.Token, "ALV-001")
	big := `{"description":"` + strings.Repeat("a", 1<<20) + `"}`
	for _, tt := range []struct{ method, path string }{
		{"POST", compositions},
		{"PATCH", compositions + "/" + id},
		{"POST", compositions + "/" + id + "/add_items"},
	} {
		got := errorsOf(t, h.Do(tt.method, tt.path, u.Token, big), 413)
		if diff := cmp.Diff([]apiError{{Status: "413", Code: "too_large"}}, got); diff != "" {
			t.Errorf("%s %s: errors (-want +got):\n%s", tt.method, tt.path, diff)
		}
	}
}

// TestInternalError checks that a failure no client caused answers a
// JSON:API 500 that shows nothing of it.
func TestInternalError(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	h.Store.Close() // every transaction now fails
	r := h.Do("GET", compositions, u.Token, "")
	got := errorsOf(t, r, 500)
	if diff := cmp.Diff([]apiError{{Status: "500", Code: "internal"}}, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(r.Body), `"detail":"internal error"`) {
		t.Errorf("500 shows more than \"internal error\": %s", r.Body)
	}
}

// TestPanic checks that a panic in a handler answers a JSON:API 500 and
// that the server keeps serving.
func TestPanic(t *testing.T) {
	h := apitest.New(t, func(env *httpapi.Env) { env.App = nil }) // any use of the app panics
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	for i := 0; i < 2; i++ {
		got := errorsOf(t, h.Do("GET", compositions, u.Token, ""), 500)
		if diff := cmp.Diff([]apiError{{Status: "500", Code: "internal"}}, got); diff != "" {
			t.Errorf("errors (-want +got):\n%s", diff)
		}
	}
}

// TestAuthenticateRateLimited checks that repeated failures are slowed.
func TestAuthenticateRateLimited(t *testing.T) {
	h := apitest.New(t, func(env *httpapi.Env) { env.Limiter = httpapi.NewAuthLimiter(3, time.Minute) })
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	for i := 0; i < 3; i++ {
		errorsOf(t, h.Do("POST", base+"/authenticate", "", `{"email":"ana@alfa.com.br","secret_token":"wrong"}`), 401)
	}
	got := errorsOf(t, h.Do("POST", base+"/authenticate", "", `{"email":"ana@alfa.com.br","secret_token":"`+u.Secret+`"}`), 429)
	if diff := cmp.Diff([]apiError{{Status: "429", Code: "too_many"}}, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}
