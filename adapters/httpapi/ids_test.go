package httpapi_test

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// TestOldAndNewIDs: a database written before keeps its 26-character ids.
// A record with such an id is served by both generations, and a list holds
// it before the records made now, whose ids are 24 lower-case hex
// characters, as clients of the original API check them.
func TestOldAndNewIDs(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	const oldID = "01jd3v8k6q7w2x9y4z5a6b7c8d"
	err := h.Store.Update(context.Background(), func(tx app.Tx) error {
		return tx.PutGroup(&domain.Group{ID: oldID, CompanyID: u.CompanyID, UserID: u.UserID, DepartmentID: u.DepartmentID,
			Description: "Antigo", CreatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)})
	})
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		ID string `json:"id"`
	}
	r := h.Do("POST", "/api/v1/base/mybase/groups", u.Token, `{"description":"Novo"}`)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &created)
	if !regexp.MustCompile(`^[a-f\d]{24}$`).MatchString(created.ID) {
		t.Errorf("new id %q does not match /^[a-f\\d]{24}$/", created.ID)
	}

	for _, path := range []string{"/api/v1/base/mybase/groups/" + oldID, "/api/public/v2/my_database/groups/" + oldID} {
		if r := h.Do("GET", path, u.Token, ""); r.Status != 200 {
			t.Errorf("GET %s: %d %s", path, r.Status, r.Body)
		}
	}
	var v1 struct {
		Records []struct {
			ID string `json:"id"`
		} `json:"records"`
	}
	h.Do("GET", "/api/v1/base/mybase/groups", u.Token, "").JSON(t, &v1)
	var v2 struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	h.Do("GET", "/api/public/v2/my_database/groups", u.Token, "").JSON(t, &v2)
	var got1, got2 []string
	for _, rec := range v1.Records {
		got1 = append(got1, rec.ID)
	}
	for _, rec := range v2.Data {
		got2 = append(got2, rec.ID)
	}
	want := []string{oldID, created.ID}
	if diff := cmp.Diff(want, got1); diff != "" {
		t.Errorf("v1 list order (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, got2); diff != "" {
		t.Errorf("v2 list order (-want +got):\n%s", diff)
	}
}
