package v1_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
	v1 "github.com/costdb/costdb/adapters/httpapi/v1"
	"github.com/google/go-cmp/cmp"
)

const loginPath = "/api/v1/login/authenticate_user"

func TestLogin(t *testing.T) {
	h, u := setup(t)
	got := call(t, h, "POST", loginPath, "", jsonBody(t, map[string]string{"email": u.Email, "secret_token": u.Secret}), 200)

	token, _ := got["auth_token"].(string)
	if token == "" {
		t.Fatalf("no auth_token: %v", got)
	}
	want := map[string]any{
		"auth_token": token,
		"user": map[string]any{
			"id":                       u.UserID,
			"email":                    "ana@alfa.example",
			"name":                     "ana",
			"company_name":             "Construtora Alfa",
			"company_id":               u.CompanyID,
			"department_id":            u.DepartmentID,
			"token_timeout_in_seconds": num("86400"),
		},
		"company":    map[string]any{"id": u.CompanyID, "name": "Construtora Alfa"},
		"department": map[string]any{"id": u.DepartmentID, "name": "Geral"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("login answer (-want +got):\n%s", diff)
	}

	// The token works, bare (as v1 clients send it) and as a Bearer token.
	for _, header := range []string{token, "Bearer " + token} {
		r := h.Do("GET", base+"/groups", "", "", "Authorization", header)
		checkStatus(t, r, "GET groups with "+header[:6], 200)
	}
}

func TestLoginErrors(t *testing.T) {
	h, u := setup(t)
	other := h.AddUser("Construtora Alfa", "bruno@alfa.example")
	if err := h.App.SetUserDisabled(context.Background(), other.Email, true); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		body   string
		status int
		fields []string
	}{
		{"wrong secret", jsonBody(t, map[string]string{"email": u.Email, "secret_token": u.Secret + "x"}), 401, nil},
		{"unknown e-mail", jsonBody(t, map[string]string{"email": "nobody@alfa.example", "secret_token": u.Secret}), 401, nil},
		{"empty secret", jsonBody(t, map[string]string{"email": u.Email, "secret_token": ""}), 401, nil},
		{"disabled user", jsonBody(t, map[string]string{"email": other.Email, "secret_token": other.Secret}), 401, nil},
		{"malformed JSON", `{"email": `, 400, nil},
		{"empty body", ``, 400, nil},
		{"secret is a number", `{"email":"ana@alfa.example","secret_token":12}`, 400, []string{"secret_token"}},
	}
	var messages []string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := call(t, h, "POST", loginPath, "", tt.body, tt.status)
			checkError(t, got, tt.fields...)
			if tt.status == 401 {
				messages = append(messages, got["message"].(string))
			}
		})
	}
	// Bad credentials never hint which part was wrong.
	for _, m := range messages[1:] {
		if m != messages[0] {
			t.Errorf("401 messages differ: %q and %q", messages[0], m)
		}
	}
}

func TestLoginRateLimit(t *testing.T) {
	h, u := setup(t)
	bad := jsonBody(t, map[string]string{"email": u.Email, "secret_token": "wrong"})
	for i := 0; i < 20; i++ {
		call(t, h, "POST", loginPath, "", bad, 401)
	}
	// Even the right secret is refused while the e-mail is throttled at this address.
	good := jsonBody(t, map[string]string{"email": u.Email, "secret_token": u.Secret})
	checkError(t, call(t, h, "POST", loginPath, "", good, 429))
}

func TestAuthorization(t *testing.T) {
	h, u := setup(t)
	disabled := h.AddUser("Construtora Alfa", "carla@alfa.example")
	if err := h.App.SetUserDisabled(context.Background(), disabled.Email, true); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		header string
		status int
	}{
		{"no header", "", 401},
		{"garbage", "garbage", 401},
		{"Bearer garbage", "Bearer garbage", 401},
		{"forged token", "Bearer " + u.Token[:len(u.Token)-4] + "AAAA", 401},
		{"other scheme", "Token " + u.Token, 401},
		{"Bearer token", "Bearer " + u.Token, 200},
		{"bearer in lower case", "bearer " + u.Token, 200},
		{"bare token", u.Token, 200},
		{"disabled user, Bearer", "Bearer " + disabled.Token, 401},
		{"disabled user, bare", disabled.Token, 401},
	}
	paths := []struct{ method, path, body string }{
		{"GET", base + "/groups", ""},
		{"GET", base + "/resources", ""},
		{"POST", base + "/resources", `{}`},
		{"PUT", base + "/resources/x", `{}`},
		{"GET", base + "/compositions", ""},
		{"POST", base + "/compositions/x/add-items", `{"items":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, p := range paths {
				r := h.Do(p.method, p.path, "", p.body, "Authorization", tt.header)
				if tt.status == 200 {
					if r.Status == 401 {
						t.Errorf("%s %s: 401 with a valid token: %s", p.method, p.path, r.Body)
					}
					continue
				}
				checkStatus(t, r, p.method+" "+p.path, tt.status)
				checkError(t, object(t, r.Body))
				if r.Header.Get("WWW-Authenticate") == "" {
					t.Errorf("%s %s: 401 without WWW-Authenticate", p.method, p.path)
				}
			}
		})
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	h, u := setup(t)
	checkError(t, call(t, h, "GET", "/api/v1/base/mybase/nothing", u.Token, "", 404))
	checkError(t, call(t, h, "PATCH", base+"/groups/x", u.Token, `{}`, 405))
}

// TestPanic checks that a panic in a handler answers 500 in the v1 error
// format, without details, and that the router keeps serving.
func TestPanic(t *testing.T) {
	// An Env without an app: the login handler panics on the nil service.
	routes := v1.Routes(&httpapi.Env{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for i := 0; i < 2; i++ {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/login/authenticate_user", strings.NewReader(`{"email":"a@b.c","secret_token":"x"}`))
		routes.ServeHTTP(rec, req)
		if rec.Code != http.StatusInternalServerError {
			t.Fatalf("status %d, want 500: %s", rec.Code, rec.Body)
		}
		var got map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"message": "internal error", "errors": map[string]any{}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("panic answer (-want +got):\n%s", diff)
		}
	}
}
