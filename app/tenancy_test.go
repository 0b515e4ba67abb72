package app_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
)

// TestUserAndDepartment reads what a record's user and sector name: only
// within the caller's company, and a user without its secret hash.
func TestUserAndDepartment(t *testing.T) {
	f := newFixture(t)
	u, err := f.svc.User(ctx, f.a, f.a.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != f.a.UserID || u.Email != "a@alfa.com" || u.DepartmentID != f.a.DepartmentID || u.SecretHash != nil {
		t.Errorf("user %+v", u)
	}
	d, err := f.svc.Department(ctx, f.a, f.a.DepartmentID)
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != f.a.DepartmentID || d.CompanyID != f.a.CompanyID || d.Name == "" {
		t.Errorf("department %+v", d)
	}
	for name, err := range map[string]error{
		"another company's user":       second(f.svc.User(ctx, f.a, f.b.UserID)),
		"another company's department": second(f.svc.Department(ctx, f.a, f.b.DepartmentID)),
		"no such user":                 second(f.svc.User(ctx, f.a, "nobody")),
		"no such department":           second(f.svc.Department(ctx, f.a, "nowhere")),
	} {
		if domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Errorf("%s: %v, want ENOTFOUND", name, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }
