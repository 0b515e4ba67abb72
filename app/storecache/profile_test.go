package storecache_test

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
)

// TestProfileWriteBumpsItsCompany: a company's profile (a setting of that
// company) changes that company's write generation, not the global one
// nor another company's: cached answers of other companies stay valid,
// this company's are dropped.
func TestProfileWriteBumpsItsCompany(t *testing.T) {
	speed := storecache.New(newStore(t))
	svc := app.New(speed, nil, app.Config{})
	a := domain.Principal{CompanyID: "company-a", UserID: "ua"}
	before, err := speed.Generation(ctx, "company-a", "")
	if err != nil {
		t.Fatal(err)
	}
	otherBefore, err := speed.Generation(ctx, "company-b", "")
	if err != nil {
		t.Fatal(err)
	}
	name := "Alfa Ltda"
	if _, err := svc.UpdateCompanyProfile(ctx, a, app.ProfilePatch{LegalName: &name}); err != nil {
		t.Fatal(err)
	}
	after, err := speed.Generation(ctx, "company-a", "")
	if err != nil {
		t.Fatal(err)
	}
	otherAfter, err := speed.Generation(ctx, "company-b", "")
	if err != nil {
		t.Fatal(err)
	}
	if after.Company == before.Company || after.Global != before.Global {
		t.Errorf("company A: %+v → %+v; want its company generation bumped, the global one not", before, after)
	}
	if otherAfter != otherBefore {
		t.Errorf("company B: %+v → %+v; want it unchanged", otherBefore, otherAfter)
	}
}

func TestSettingCompany(t *testing.T) {
	for key, want := range map[string]string{"company/abc/profile": "abc", "company/abc/logo": "abc"} {
		if got, ok := app.SettingCompany(key); !ok || got != want {
			t.Errorf("SettingCompany(%q) = %q, %v", key, got, ok)
		}
	}
	for _, key := range []string{"signing-key", "gen/global", "company//profile", "company/abc", "companyx/abc/profile"} {
		if got, ok := app.SettingCompany(key); ok {
			t.Errorf("SettingCompany(%q) = %q; want none", key, got)
		}
	}
}
