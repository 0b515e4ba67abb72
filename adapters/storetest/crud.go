package storetest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

const notFound = domain.ENOTFOUND

func testSettings(t *testing.T, s app.Store) {
	view(t, s, func(tx app.Tx) error {
		v, err := tx.Setting("missing")
		if err != nil || v != nil {
			t.Errorf("Setting(missing) = %q, %v; want nil, nil", v, err)
		}
		return nil
	})
	puts := []struct {
		key   string
		value []byte
	}{
		{"signing-key", []byte{0x00, 0x01, 0xfe, 0xff}},
		{"counter", []byte("1")},
		{"counter", []byte("2")}, // replaced
		{"empty", []byte{}},
		{"with\x00nul", []byte("ok")},
	}
	for _, p := range puts {
		update(t, s, func(tx app.Tx) error { return tx.PutSetting(p.key, p.value) })
	}
	checkLookups(t, s, []lookup{
		{name: "signing-key", get: func(tx app.Tx) (any, error) { return tx.Setting("signing-key") }, want: []byte{0x00, 0x01, 0xfe, 0xff}},
		{name: "counter", get: func(tx app.Tx) (any, error) { return tx.Setting("counter") }, want: []byte("2")},
		{name: "with NUL", get: func(tx app.Tx) (any, error) { return tx.Setting("with\x00nul") }, want: []byte("ok")},
	})
	view(t, s, func(tx app.Tx) error {
		v, err := tx.Setting("empty")
		if err != nil || v == nil || len(v) != 0 {
			t.Errorf("Setting(empty) = %#v, %v; want an empty, non-nil value", v, err)
		}
		return nil
	})
}

// testSettingsRead checks Store.Settings: the values under several keys,
// nil for a missing one, an empty non-nil value for an empty one, and
// every committed write seen at once.
func testSettingsRead(t *testing.T, s app.Store) {
	got, err := s.Settings(bg(), nil)
	if err != nil || len(got) != 0 {
		t.Errorf("Settings(none) = %q, %v; want nothing", got, err)
	}
	update(t, s, func(tx app.Tx) error {
		for k, v := range map[string][]byte{"a": []byte("1"), "b": {0x00, 0xff}, "empty": {}} {
			if err := tx.PutSetting(k, v); err != nil {
				return err
			}
		}
		return nil
	})
	keys := []string{"b", "missing", "a", "empty", "a"}
	got, err = s.Settings(bg(), keys)
	if err != nil {
		t.Fatalf("Settings: %v", err)
	}
	want := [][]byte{{0x00, 0xff}, nil, []byte("1"), {}, []byte("1")}
	if len(got) != len(want) {
		t.Fatalf("Settings(%q) = %q; want %q", keys, got, want)
	}
	for i := range want {
		if (got[i] == nil) != (want[i] == nil) || string(got[i]) != string(want[i]) {
			t.Errorf("Settings(%q)[%d] = %#v; want %#v", keys, i, got[i], want[i])
		}
	}
	// A value handed out is a copy.
	got[0][0] = 'x'
	for n := 2; n <= 4; n++ {
		update(t, s, func(tx app.Tx) error { return tx.PutSetting("a", []byte{byte('0' + n)}) })
		got, err := s.Settings(bg(), []string{"a", "b"})
		if err != nil || len(got) != 2 || string(got[0]) != string(rune('0'+n)) || string(got[1]) != "\x00\xff" {
			t.Errorf("Settings after write %d = %q, %v; want [%q \"\\x00\\xff\"]", n, got, err, string(rune('0'+n)))
		}
	}
}

func testCompanies(t *testing.T, s app.Store) {
	a, b := newCompany(coA, "Construtora Alfa"), newCompany(coB, "Construtora Beta")
	update(t, s, func(tx app.Tx) error {
		if err := tx.PutCompany(b); err != nil {
			return err
		}
		return tx.PutCompany(a)
	})
	checkLookups(t, s, []lookup{
		{name: "Company(A)", get: func(tx app.Tx) (any, error) { return tx.Company(coA) }, want: a},
		{name: "Company(B)", get: func(tx app.Tx) (any, error) { return tx.Company(coB) }, want: b},
		{name: "CompanyByName(Alfa)", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("Construtora Alfa") }, want: a},
		{name: "CompanyByName(Beta)", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("Construtora Beta") }, want: b},
		{name: "Company(missing)", get: func(tx app.Tx) (any, error) { return tx.Company(coZ) }, code: notFound},
		{name: "CompanyByName(missing)", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("Nenhuma") }, code: notFound},
		{name: "CompanyByName(other case)", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("construtora alfa") }, code: notFound},
	})

	// Renaming moves the name index entry.
	renamed := newCompany(coA, "Alfa Engenharia")
	update(t, s, func(tx app.Tx) error { return tx.PutCompany(renamed) })
	checkLookups(t, s, []lookup{
		{name: "Company(A) renamed", get: func(tx app.Tx) (any, error) { return tx.Company(coA) }, want: renamed},
		{name: "CompanyByName(new)", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("Alfa Engenharia") }, want: renamed},
		{name: "CompanyByName(old)", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("Construtora Alfa") }, code: notFound},
	})

	// The old name is free again; a name another company holds is not.
	update(t, s, func(tx app.Tx) error { return tx.PutCompany(newCompany(coC, "Construtora Alfa")) })
	err := s.Update(bg(), func(tx app.Tx) error { return tx.PutCompany(newCompany(coZ, "Construtora Beta")) })
	wantCode(t, "PutCompany with a taken name", err, domain.ECONFLICT)
	checkLookups(t, s, []lookup{
		{name: "CompanyByName(reused)", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("Construtora Alfa") }, want: newCompany(coC, "Construtora Alfa")},
		{name: "CompanyByName(Beta) after conflict", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("Construtora Beta") }, want: b},
		{name: "Company(conflicting)", get: func(tx app.Tx) (any, error) { return tx.Company(coZ) }, code: notFound},
	})
}

func testDepartments(t *testing.T, s app.Store) {
	a, b := newDepartment(deA1, coA, "Engenharia"), newDepartment(deB1, coB, "Engenharia")
	update(t, s, func(tx app.Tx) error {
		if err := tx.PutDepartment(a); err != nil {
			return err
		}
		return tx.PutDepartment(b)
	})
	checkLookups(t, s, []lookup{
		{name: "Department(A1)", get: func(tx app.Tx) (any, error) { return tx.Department(deA1) }, want: a},
		{name: "DepartmentByName(A)", get: func(tx app.Tx) (any, error) { return tx.DepartmentByName(coA, "Engenharia") }, want: a},
		{name: "DepartmentByName(B)", get: func(tx app.Tx) (any, error) { return tx.DepartmentByName(coB, "Engenharia") }, want: b},
		{name: "DepartmentByName(other company)", get: func(tx app.Tx) (any, error) { return tx.DepartmentByName(coZ, "Engenharia") }, code: notFound},
		{name: "DepartmentByName(missing)", get: func(tx app.Tx) (any, error) { return tx.DepartmentByName(coA, "Obras") }, code: notFound},
		{name: "Department(missing)", get: func(tx app.Tx) (any, error) { return tx.Department(deA2) }, code: notFound},
	})

	renamed := newDepartment(deA1, coA, "Obras")
	update(t, s, func(tx app.Tx) error { return tx.PutDepartment(renamed) })
	checkLookups(t, s, []lookup{
		{name: "DepartmentByName(new)", get: func(tx app.Tx) (any, error) { return tx.DepartmentByName(coA, "Obras") }, want: renamed},
		{name: "DepartmentByName(old)", get: func(tx app.Tx) (any, error) { return tx.DepartmentByName(coA, "Engenharia") }, code: notFound},
		{name: "DepartmentByName(B) untouched", get: func(tx app.Tx) (any, error) { return tx.DepartmentByName(coB, "Engenharia") }, want: b},
	})

	// Moving to another company moves the index entry too.
	moved := newDepartment(deA1, coC, "Obras")
	update(t, s, func(tx app.Tx) error { return tx.PutDepartment(moved) })
	checkLookups(t, s, []lookup{
		{name: "DepartmentByName(new company)", get: func(tx app.Tx) (any, error) { return tx.DepartmentByName(coC, "Obras") }, want: moved},
		{name: "DepartmentByName(old company)", get: func(tx app.Tx) (any, error) { return tx.DepartmentByName(coA, "Obras") }, code: notFound},
	})

	err := s.Update(bg(), func(tx app.Tx) error { return tx.PutDepartment(newDepartment(deA2, coB, "Engenharia")) })
	wantCode(t, "PutDepartment with a taken name", err, domain.ECONFLICT)
	checkLookups(t, s, []lookup{
		{name: "Department(conflicting)", get: func(tx app.Tx) (any, error) { return tx.Department(deA2) }, code: notFound},
		{name: "DepartmentByName(B) after conflict", get: func(tx app.Tx) (any, error) { return tx.DepartmentByName(coB, "Engenharia") }, want: b},
	})
}

func testUsers(t *testing.T, s app.Store) {
	count := func(want int) {
		t.Helper()
		view(t, s, func(tx app.Tx) error {
			n, err := tx.CountUsers()
			if err != nil || n != want {
				t.Errorf("CountUsers = %d, %v; want %d", n, err, want)
			}
			return nil
		})
	}
	count(0)
	a, b := newUser(usA1, coA, deA1, "ana@alfa.example"), newUser(usB1, coB, deB1, "bia@beta.example")
	b.Disabled = true
	b.TokensRevokedAt = tUTC.AddDate(0, 0, 1)
	update(t, s, func(tx app.Tx) error {
		if err := tx.PutUser(a); err != nil {
			return err
		}
		return tx.PutUser(b)
	})
	count(2)
	checkLookups(t, s, []lookup{
		{name: "User(A1)", get: func(tx app.Tx) (any, error) { return tx.User(usA1) }, want: a},
		{name: "User(B1)", get: func(tx app.Tx) (any, error) { return tx.User(usB1) }, want: b},
		{name: "UserByEmail(A1)", get: func(tx app.Tx) (any, error) { return tx.UserByEmail("ana@alfa.example") }, want: a},
		{name: "UserByEmail(B1)", get: func(tx app.Tx) (any, error) { return tx.UserByEmail("bia@beta.example") }, want: b},
		{name: "User(missing)", get: func(tx app.Tx) (any, error) { return tx.User(usA2) }, code: notFound},
		{name: "Users(A)", get: func(tx app.Tx) (any, error) { return tx.Users(coA) }, want: []*domain.User{a}},
		{name: "Users(all)", get: func(tx app.Tx) (any, error) { return tx.Users("") }, want: []*domain.User{a, b}},
		{name: "Users(none)", get: func(tx app.Tx) (any, error) { return tx.Users(coZ) }, want: []*domain.User{}},
		{name: "UserByEmail(missing)", get: func(tx app.Tx) (any, error) { return tx.UserByEmail("zed@alfa.example") }, code: notFound},
	})

	changed := newUser(usA1, coA, deA1, "ana@alfa2.example")
	changed.SecretHash = []byte{1, 2, 3}
	update(t, s, func(tx app.Tx) error { return tx.PutUser(changed) })
	count(2) // a replacement is not a new user
	checkLookups(t, s, []lookup{
		{name: "User(A1) changed", get: func(tx app.Tx) (any, error) { return tx.User(usA1) }, want: changed},
		{name: "UserByEmail(new)", get: func(tx app.Tx) (any, error) { return tx.UserByEmail("ana@alfa2.example") }, want: changed},
		{name: "UserByEmail(old)", get: func(tx app.Tx) (any, error) { return tx.UserByEmail("ana@alfa.example") }, code: notFound},
	})

	err := s.Update(bg(), func(tx app.Tx) error { return tx.PutUser(newUser(usA2, coA, deA1, "bia@beta.example")) })
	wantCode(t, "PutUser with a taken e-mail", err, domain.ECONFLICT)
	count(2)
	checkLookups(t, s, []lookup{
		{name: "UserByEmail(B1) after conflict", get: func(tx app.Tx) (any, error) { return tx.UserByEmail("bia@beta.example") }, want: b},
	})
}

func testGroups(t *testing.T, s app.Store) {
	a1, a2, b1 := newGroup(grA1, coA, "Alvenaria"), newGroup(grA2, coA, "Estruturas"), newGroup(grB1, coB, "Fundações")
	update(t, s, func(tx app.Tx) error {
		for _, g := range []*domain.Group{a2, b1, a1} { // not in ID order
			if err := tx.PutGroup(g); err != nil {
				return err
			}
		}
		return nil
	})
	checkLookups(t, s, []lookup{
		{name: "Group(A1)", get: func(tx app.Tx) (any, error) { return tx.Group(grA1) }, want: a1},
		{name: "Group(B1)", get: func(tx app.Tx) (any, error) { return tx.Group(grB1) }, want: b1},
		{name: "Groups(A)", get: func(tx app.Tx) (any, error) { return all(tx.Groups(coA, app.Query{})) }, want: []*domain.Group{a1, a2}},
		{name: "Groups(B)", get: func(tx app.Tx) (any, error) { return all(tx.Groups(coB, app.Query{})) }, want: []*domain.Group{b1}},
		{name: "Groups(none)", get: func(tx app.Tx) (any, error) { return all(tx.Groups(coZ, app.Query{})) }, want: []*domain.Group{}},
		{name: "Group(missing)", get: func(tx app.Tx) (any, error) { return tx.Group(grA3) }, code: notFound},
	})

	// Replace; move to another company.
	a1b := newGroup(grA1, coA, "Alvenaria e vedação")
	a2b := newGroup(grA2, coB, "Estruturas")
	update(t, s, func(tx app.Tx) error {
		if err := tx.PutGroup(a1b); err != nil {
			return err
		}
		return tx.PutGroup(a2b)
	})
	checkLookups(t, s, []lookup{
		{name: "Group(A1) replaced", get: func(tx app.Tx) (any, error) { return tx.Group(grA1) }, want: a1b},
		{name: "Groups(A) after move", get: func(tx app.Tx) (any, error) { return all(tx.Groups(coA, app.Query{})) }, want: []*domain.Group{a1b}},
		{name: "Groups(B) after move", get: func(tx app.Tx) (any, error) { return all(tx.Groups(coB, app.Query{})) }, want: []*domain.Group{a2b, b1}},
	})

	update(t, s, func(tx app.Tx) error { return tx.DeleteGroup(grB1) })
	err := s.Update(bg(), func(tx app.Tx) error { return tx.DeleteGroup(grB1) })
	wantCode(t, "DeleteGroup(deleted)", err, notFound)
	checkLookups(t, s, []lookup{
		{name: "Group(deleted)", get: func(tx app.Tx) (any, error) { return tx.Group(grB1) }, code: notFound},
		{name: "Groups(B) after delete", get: func(tx app.Tx) (any, error) { return all(tx.Groups(coB, app.Query{})) }, want: []*domain.Group{a2b}},
	})
}

func testResources(t *testing.T, s app.Store) {
	a1, a2, b1 := newResource(reA1, coA, "R-1"), newResource(reA2, coA, "R-2"), newResource(reB1, coB, "R-1")
	update(t, s, func(tx app.Tx) error {
		for _, r := range []*domain.Resource{b1, a2, a1} {
			if err := tx.PutResource(r); err != nil {
				return err
			}
		}
		return nil
	})
	checkLookups(t, s, []lookup{
		{name: "Resource(A1)", get: func(tx app.Tx) (any, error) { return tx.Resource(reA1) }, want: a1},
		{name: "ResourceByCode(A,R-1)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coA, "R-1") }, want: a1},
		{name: "ResourceByCode(A,R-2)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coA, "R-2") }, want: a2},
		{name: "ResourceByCode(B,R-1)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coB, "R-1") }, want: b1},
		{name: "ResourceByCode(B,R-2)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coB, "R-2") }, code: notFound},
		{name: "ResourceByCode(A,r-1)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coA, "r-1") }, code: notFound},
		{name: "Resources(A)", get: func(tx app.Tx) (any, error) { return all(tx.Resources(coA, app.Query{})) }, want: []*domain.Resource{a1, a2}},
		{name: "Resources(B)", get: func(tx app.Tx) (any, error) { return all(tx.Resources(coB, app.Query{})) }, want: []*domain.Resource{b1}},
		{name: "Resources(none)", get: func(tx app.Tx) (any, error) { return all(tx.Resources(coZ, app.Query{})) }, want: []*domain.Resource{}},
		{name: "Resource(missing)", get: func(tx app.Tx) (any, error) { return tx.Resource(reA3) }, code: notFound},
	})

	// A new code moves the code index; the old code is free again.
	recoded := newResource(reA1, coA, "R-1X")
	recoded.Locals["RJ"] = domain.PriceLine{PND: dec("3.1415926")}
	update(t, s, func(tx app.Tx) error { return tx.PutResource(recoded) })
	checkLookups(t, s, []lookup{
		{name: "ResourceByCode(new code)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coA, "R-1X") }, want: recoded},
		{name: "ResourceByCode(old code)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coA, "R-1") }, code: notFound},
		{name: "ResourceByCode(B,R-1) untouched", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coB, "R-1") }, want: b1},
		{name: "Resources(A) after recode", get: func(tx app.Tx) (any, error) { return all(tx.Resources(coA, app.Query{})) }, want: []*domain.Resource{recoded, a2}},
	})

	// A code another resource of the company holds is refused.
	err := s.Update(bg(), func(tx app.Tx) error { return tx.PutResource(newResource(reA3, coA, "R-2")) })
	wantCode(t, "PutResource with a taken code", err, domain.ECONFLICT)
	err = s.Update(bg(), func(tx app.Tx) error { return tx.PutResource(newResource(reA1, coA, "R-2")) })
	wantCode(t, "PutResource recoded to a taken code", err, domain.ECONFLICT)

	// Moving to another company moves both indexes.
	moved := newResource(reA2, coC, "R-2")
	update(t, s, func(tx app.Tx) error { return tx.PutResource(moved) })
	checkLookups(t, s, []lookup{
		{name: "ResourceByCode(old company)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coA, "R-2") }, code: notFound},
		{name: "ResourceByCode(new company)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coC, "R-2") }, want: moved},
		{name: "Resources(A) after move", get: func(tx app.Tx) (any, error) { return all(tx.Resources(coA, app.Query{})) }, want: []*domain.Resource{recoded}},
		{name: "Resources(C) after move", get: func(tx app.Tx) (any, error) { return all(tx.Resources(coC, app.Query{})) }, want: []*domain.Resource{moved}},
	})

	update(t, s, func(tx app.Tx) error { return tx.DeleteResource(reA1) })
	err = s.Update(bg(), func(tx app.Tx) error { return tx.DeleteResource(reA1) })
	wantCode(t, "DeleteResource(deleted)", err, notFound)
	checkLookups(t, s, []lookup{
		{name: "Resource(deleted)", get: func(tx app.Tx) (any, error) { return tx.Resource(reA1) }, code: notFound},
		{name: "ResourceByCode(deleted)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coA, "R-1X") }, code: notFound},
		{name: "Resources(A) after delete", get: func(tx app.Tx) (any, error) { return all(tx.Resources(coA, app.Query{})) }, want: []*domain.Resource{}},
	})
	// The code of a deleted resource can be used again.
	reused := newResource(reA3, coA, "R-1X")
	update(t, s, func(tx app.Tx) error { return tx.PutResource(reused) })
	checkLookups(t, s, []lookup{
		{name: "ResourceByCode(reused)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coA, "R-1X") }, want: reused},
	})
}

func testCompositions(t *testing.T, s app.Store) {
	a1, a2, b1 := newComposition(cpA1, coA, "C-1", "MG"), newComposition(cpA2, coA, "C-1", "SP"), newComposition(cpB1, coB, "C-1", "MG")
	update(t, s, func(tx app.Tx) error {
		for _, c := range []*domain.Composition{b1, a2, a1} {
			if err := tx.PutComposition(c); err != nil {
				return err
			}
		}
		return nil
	})
	checkLookups(t, s, []lookup{
		{name: "Composition(A1)", get: func(tx app.Tx) (any, error) { return tx.Composition(cpA1) }, want: a1},
		{name: "CompositionByCode(A,C-1,MG)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-1", "MG") }, want: a1},
		{name: "CompositionByCode(A,C-1,SP)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-1", "SP") }, want: a2},
		{name: "CompositionByCode(B,C-1,MG)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coB, "C-1", "MG") }, want: b1},
		{name: "CompositionByCode(B,C-1,SP)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coB, "C-1", "SP") }, code: notFound},
		{name: "CompositionByCode(A,C-2,MG)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-2", "MG") }, code: notFound},
		{name: "Compositions(A)", get: func(tx app.Tx) (any, error) { return all(tx.Compositions(coA, app.Query{})) }, want: []*domain.Composition{a1, a2}},
		{name: "Compositions(B)", get: func(tx app.Tx) (any, error) { return all(tx.Compositions(coB, app.Query{})) }, want: []*domain.Composition{b1}},
		{name: "Compositions(none)", get: func(tx app.Tx) (any, error) { return all(tx.Compositions(coZ, app.Query{})) }, want: []*domain.Composition{}},
		{name: "Composition(missing)", get: func(tx app.Tx) (any, error) { return tx.Composition(cpA3) }, code: notFound},
	})

	// A new state, then a new code, move the index entry.
	restated := newComposition(cpA1, coA, "C-1", "RJ")
	restated.Items = restated.Items[:1]
	update(t, s, func(tx app.Tx) error { return tx.PutComposition(restated) })
	checkLookups(t, s, []lookup{
		{name: "CompositionByCode(new state)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-1", "RJ") }, want: restated},
		{name: "CompositionByCode(old state)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-1", "MG") }, code: notFound},
		{name: "CompositionByCode(B) untouched", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coB, "C-1", "MG") }, want: b1},
	})
	recoded := newComposition(cpA1, coA, "C-9", "RJ")
	update(t, s, func(tx app.Tx) error { return tx.PutComposition(recoded) })
	checkLookups(t, s, []lookup{
		{name: "CompositionByCode(new code)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-9", "RJ") }, want: recoded},
		{name: "CompositionByCode(old code)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-1", "RJ") }, code: notFound},
		{name: "Compositions(A) after recode", get: func(tx app.Tx) (any, error) { return all(tx.Compositions(coA, app.Query{})) }, want: []*domain.Composition{recoded, a2}},
	})

	err := s.Update(bg(), func(tx app.Tx) error { return tx.PutComposition(newComposition(cpA3, coA, "C-1", "SP")) })
	wantCode(t, "PutComposition with a taken code and state", err, domain.ECONFLICT)
	err = s.Update(bg(), func(tx app.Tx) error { return tx.PutComposition(newComposition(cpA1, coA, "C-1", "SP")) })
	wantCode(t, "PutComposition moved to a taken code and state", err, domain.ECONFLICT)

	moved := newComposition(cpA2, coC, "C-1", "SP")
	update(t, s, func(tx app.Tx) error { return tx.PutComposition(moved) })
	checkLookups(t, s, []lookup{
		{name: "CompositionByCode(old company)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-1", "SP") }, code: notFound},
		{name: "CompositionByCode(new company)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coC, "C-1", "SP") }, want: moved},
		{name: "Compositions(A) after move", get: func(tx app.Tx) (any, error) { return all(tx.Compositions(coA, app.Query{})) }, want: []*domain.Composition{recoded}},
		{name: "Compositions(C) after move", get: func(tx app.Tx) (any, error) { return all(tx.Compositions(coC, app.Query{})) }, want: []*domain.Composition{moved}},
	})

	update(t, s, func(tx app.Tx) error { return tx.DeleteComposition(cpA1) })
	err = s.Update(bg(), func(tx app.Tx) error { return tx.DeleteComposition(cpA1) })
	wantCode(t, "DeleteComposition(deleted)", err, notFound)
	checkLookups(t, s, []lookup{
		{name: "Composition(deleted)", get: func(tx app.Tx) (any, error) { return tx.Composition(cpA1) }, code: notFound},
		{name: "CompositionByCode(deleted)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-9", "RJ") }, code: notFound},
		{name: "Compositions(A) after delete", get: func(tx app.Tx) (any, error) { return all(tx.Compositions(coA, app.Query{})) }, want: []*domain.Composition{}},
		{name: "Compositions(B) after delete", get: func(tx app.Tx) (any, error) { return all(tx.Compositions(coB, app.Query{})) }, want: []*domain.Composition{b1}},
	})
	// The code and state of a deleted composition can be used again.
	reused := newComposition(cpA3, coA, "C-9", "RJ")
	update(t, s, func(tx app.Tx) error { return tx.PutComposition(reused) })
	checkLookups(t, s, []lookup{
		{name: "CompositionByCode(reused)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-9", "RJ") }, want: reused},
	})
}

func testEditions(t *testing.T, s app.Store) {
	aug, jul, sicro := newEdition("SINAPI", "MG", "08/2026"), newEdition("SINAPI", "MG", "07/2026"), newEdition("SICRO3", "AL", "01/2024")
	regional := newEdition("SICRO3", "AL", "01/2024")
	regional.Region = "Sertão"
	regional.Regimes = nil
	// The official files read, kept in order with their title lines.
	aug.Files = []domain.SourceFile{
		{Name: "SINAPI_Custo_Ref_Insumos_MG_202608_NaoDesonerado.csv", Size: 123456, SHA256: strings.Repeat("ab", 32),
			Titles: []string{"SINAPI - SISTEMA NACIONAL DE PESQUISA DE CUSTOS", "Mês de coleta: 08/2026 — preços medianos"}},
		{Name: "SINAPI_Custo_Ref_Composicoes_MG_202608_NaoDesonerado.csv", Size: 7, SHA256: strings.Repeat("0f", 32)},
	}
	update(t, s, func(tx app.Tx) error {
		for _, e := range []*domain.Edition{aug, regional, jul, sicro} {
			if err := tx.PutEdition(e); err != nil {
				return err
			}
		}
		return nil
	})
	checkLookups(t, s, []lookup{
		{name: "Edition(aug)", get: func(tx app.Tx) (any, error) { return tx.Edition(aug.Key()) }, want: aug},
		{name: "Edition(regional)", get: func(tx app.Tx) (any, error) { return tx.Edition(regional.Key()) }, want: regional},
		{name: "Editions in key order", get: func(tx app.Tx) (any, error) { return tx.Editions() }, want: []*domain.Edition{sicro, regional, jul, aug}},
		{name: "Edition(missing)", get: func(tx app.Tx) (any, error) { return tx.Edition(edOrseSE) }, code: notFound},
		{name: "Edition(month not as key)", get: func(tx app.Tx) (any, error) { return tx.Edition("SINAPI/MG/08/2026/") }, code: notFound},
	})

	replaced := newEdition("SINAPI", "MG", "08/2026")
	replaced.Regimes = []domain.Regime{domain.Desonerado}
	replaced.Resources, replaced.Source = 1, "reimport"
	update(t, s, func(tx app.Tx) error { return tx.PutEdition(replaced) })
	checkLookups(t, s, []lookup{
		{name: "Edition(replaced)", get: func(tx app.Tx) (any, error) { return tx.Edition(aug.Key()) }, want: replaced},
		{name: "Editions after replace", get: func(tx app.Tx) (any, error) { return tx.Editions() }, want: []*domain.Edition{sicro, regional, jul, replaced}},
	})
}

func testBankResources(t *testing.T, s app.Store) {
	augOne, augTwo, julOne := newBankResource("00001", "10.01"), newBankResource("00002", "20.02"), newBankResource("00001", "9.99")
	// Regimes round-trip, nil (every regime) kept apart from empty (none).
	augTwo.Regimes, julOne.Regimes = []domain.Regime{domain.NaoDesonerado}, []domain.Regime{}
	update(t, s, func(tx app.Tx) error {
		if err := tx.PutBankResource(edSinapiAug, augOne); err != nil {
			return err
		}
		if err := tx.PutBankResource(edSinapiAug, augTwo); err != nil {
			return err
		}
		return tx.PutBankResource(edSinapiJul, julOne)
	})
	checkLookups(t, s, []lookup{
		{name: "BankResource(aug,1)", get: func(tx app.Tx) (any, error) { return tx.BankResource(edSinapiAug, "00001") }, want: augOne},
		{name: "BankResource(aug,2)", get: func(tx app.Tx) (any, error) { return tx.BankResource(edSinapiAug, "00002") }, want: augTwo},
		{name: "BankResource(jul,1)", get: func(tx app.Tx) (any, error) { return tx.BankResource(edSinapiJul, "00001") }, want: julOne},
		{name: "BankResource(jul,2)", get: func(tx app.Tx) (any, error) { return tx.BankResource(edSinapiJul, "00002") }, code: notFound},
		{name: "BankResource(other edition)", get: func(tx app.Tx) (any, error) { return tx.BankResource(edSicroAL, "00001") }, code: notFound},
		{name: "BankResource(code prefix)", get: func(tx app.Tx) (any, error) { return tx.BankResource(edSinapiAug, "0000") }, code: notFound},
		{name: "BankResources(aug)", get: func(tx app.Tx) (any, error) { return tx.BankResources(edSinapiAug) }, want: []*domain.BankResource{augOne, augTwo}},
		{name: "BankResources(jul)", get: func(tx app.Tx) (any, error) { return tx.BankResources(edSinapiJul) }, want: []*domain.BankResource{julOne}},
		{name: "BankResources(other edition)", get: func(tx app.Tx) (any, error) { return tx.BankResources(edSicroAL) }, want: []*domain.BankResource{}},
	})
	view(t, s, func(tx app.Tx) error {
		for _, c := range []struct {
			key  string
			none bool
		}{{edSinapiAug + " 00001", false}, {edSinapiJul + " 00001", true}} {
			key, code, _ := strings.Cut(c.key, " ")
			r, err := tx.BankResource(key, code)
			if err != nil {
				return err
			}
			if gotNone := r.Regimes != nil && len(r.Regimes) == 0; gotNone != c.none || (!c.none && r.Regimes != nil) {
				t.Errorf("BankResource(%s).Regimes = %#v: nil (every regime) and empty (none) must stay apart", c.key, r.Regimes)
			}
		}
		return nil
	})
	replaced := newBankResource("00001", "10.0100001")
	replaced.Description = "Areia grossa"
	update(t, s, func(tx app.Tx) error { return tx.PutBankResource(edSinapiAug, replaced) })
	checkLookups(t, s, []lookup{
		{name: "BankResource(replaced)", get: func(tx app.Tx) (any, error) { return tx.BankResource(edSinapiAug, "00001") }, want: replaced},
		{name: "BankResource(jul) untouched", get: func(tx app.Tx) (any, error) { return tx.BankResource(edSinapiJul, "00001") }, want: julOne},
		{name: "BankResources(aug) after replace", get: func(tx app.Tx) (any, error) { return tx.BankResources(edSinapiAug) }, want: []*domain.BankResource{replaced, augTwo}},
	})

	// Lists are in code order (byte order: "10" before "9"), and an edition
	// whose key starts with another's (a region) keeps its own records.
	regional := newEdition("SINAPI", "MG", "08/2026")
	regional.Region = "Norte"
	nine, ten, north := newBankResource("9", "9"), newBankResource("10", "10"), newBankResource("00001", "1")
	update(t, s, func(tx app.Tx) error {
		for _, r := range []*domain.BankResource{nine, ten} {
			if err := tx.PutBankResource(edSinapiJul, r); err != nil {
				return err
			}
		}
		return tx.PutBankResource(regional.Key(), north)
	})
	checkLookups(t, s, []lookup{
		{name: "BankResources(jul) in code order", get: func(tx app.Tx) (any, error) { return tx.BankResources(edSinapiJul) }, want: []*domain.BankResource{julOne, ten, nine}},
		{name: "BankResources(aug) without the region's", get: func(tx app.Tx) (any, error) { return tx.BankResources(edSinapiAug) }, want: []*domain.BankResource{replaced, augTwo}},
		{name: "BankResources(regional)", get: func(tx app.Tx) (any, error) { return tx.BankResources(regional.Key()) }, want: []*domain.BankResource{north}},
	})
}

func testBankCompositions(t *testing.T, s app.Store) {
	aug, sicro := newBankComposition("87292", "401.23"), newBankComposition("0308001", "0.0000001")
	noStructure := newBankComposition("87293", "5")
	noStructure.Items = nil
	update(t, s, func(tx app.Tx) error {
		for _, c := range []*domain.BankComposition{aug, noStructure} {
			if err := tx.PutBankComposition(edSinapiAug, c); err != nil {
				return err
			}
		}
		return tx.PutBankComposition(edSicroAL, sicro)
	})
	checkLookups(t, s, []lookup{
		{name: "BankComposition(aug)", get: func(tx app.Tx) (any, error) { return tx.BankComposition(edSinapiAug, "87292") }, want: aug},
		{name: "BankComposition(no structure)", get: func(tx app.Tx) (any, error) { return tx.BankComposition(edSinapiAug, "87293") }, want: noStructure},
		{name: "BankComposition(sicro)", get: func(tx app.Tx) (any, error) { return tx.BankComposition(edSicroAL, "0308001") }, want: sicro},
		{name: "BankComposition(other edition)", get: func(tx app.Tx) (any, error) { return tx.BankComposition(edSinapiJul, "87292") }, code: notFound},
		{name: "BankComposition(a resource code)", get: func(tx app.Tx) (any, error) { return tx.BankComposition(edSinapiAug, "00001") }, code: notFound},
		{name: "BankCompositions(aug)", get: func(tx app.Tx) (any, error) { return tx.BankCompositions(edSinapiAug) }, want: []*domain.BankComposition{aug, noStructure}},
		{name: "BankCompositions(sicro)", get: func(tx app.Tx) (any, error) { return tx.BankCompositions(edSicroAL) }, want: []*domain.BankComposition{sicro}},
		{name: "BankCompositions(other edition)", get: func(tx app.Tx) (any, error) { return tx.BankCompositions(edSinapiJul) }, want: []*domain.BankComposition{}},
	})
	replaced := newBankComposition("87292", "402")
	replaced.Items = replaced.Items[1:]
	update(t, s, func(tx app.Tx) error { return tx.PutBankComposition(edSinapiAug, replaced) })
	checkLookups(t, s, []lookup{
		{name: "BankComposition(replaced)", get: func(tx app.Tx) (any, error) { return tx.BankComposition(edSinapiAug, "87292") }, want: replaced},
		{name: "BankCompositions(aug) after replace", get: func(tx app.Tx) (any, error) { return tx.BankCompositions(edSinapiAug) }, want: []*domain.BankComposition{replaced, noStructure}},
	})
}

// testEmptyStore checks every read of an empty store: lookups say
// ENOTFOUND, lists are empty, deletes say ENOTFOUND.
func testEmptyStore(t *testing.T, s app.Store) {
	checkLookups(t, s, []lookup{
		{name: "Company", get: func(tx app.Tx) (any, error) { return tx.Company(coA) }, code: notFound},
		{name: "CompanyByName", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("Construtora Alfa") }, code: notFound},
		{name: "CompanyByName(empty)", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("") }, code: notFound},
		{name: "Department", get: func(tx app.Tx) (any, error) { return tx.Department(deA1) }, code: notFound},
		{name: "DepartmentByName", get: func(tx app.Tx) (any, error) { return tx.DepartmentByName(coA, "Engenharia") }, code: notFound},
		{name: "User", get: func(tx app.Tx) (any, error) { return tx.User(usA1) }, code: notFound},
		{name: "UserByEmail", get: func(tx app.Tx) (any, error) { return tx.UserByEmail("ana@alfa.example") }, code: notFound},
		{name: "UserByEmail(empty)", get: func(tx app.Tx) (any, error) { return tx.UserByEmail("") }, code: notFound},
		{name: "CountUsers", get: func(tx app.Tx) (any, error) { return tx.CountUsers() }, want: 0},
		{name: "Users", get: func(tx app.Tx) (any, error) { return tx.Users("") }, want: []*domain.User{}},
		{name: "Group", get: func(tx app.Tx) (any, error) { return tx.Group(grA1) }, code: notFound},
		{name: "Groups", get: func(tx app.Tx) (any, error) { return all(tx.Groups(coA, app.Query{})) }, want: []*domain.Group{}},
		{name: "Resource", get: func(tx app.Tx) (any, error) { return tx.Resource(reA1) }, code: notFound},
		{name: "Resource(empty id)", get: func(tx app.Tx) (any, error) { return tx.Resource("") }, code: notFound},
		{name: "ResourceByCode", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coA, "R-1") }, code: notFound},
		{name: "Resources", get: func(tx app.Tx) (any, error) { return all(tx.Resources(coA, app.Query{})) }, want: []*domain.Resource{}},
		{name: "Composition", get: func(tx app.Tx) (any, error) { return tx.Composition(cpA1) }, code: notFound},
		{name: "CompositionByCode", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-1", "MG") }, code: notFound},
		{name: "Compositions", get: func(tx app.Tx) (any, error) { return all(tx.Compositions(coA, app.Query{})) }, want: []*domain.Composition{}},
		{name: "Edition", get: func(tx app.Tx) (any, error) { return tx.Edition(edSinapiAug) }, code: notFound},
		{name: "Editions", get: func(tx app.Tx) (any, error) { return tx.Editions() }, want: []*domain.Edition{}},
		{name: "BankResource", get: func(tx app.Tx) (any, error) { return tx.BankResource(edSinapiAug, "00001") }, code: notFound},
		{name: "BankComposition", get: func(tx app.Tx) (any, error) { return tx.BankComposition(edSinapiAug, "87292") }, code: notFound},
		{name: "BankResources", get: func(tx app.Tx) (any, error) { return tx.BankResources(edSinapiAug) }, want: []*domain.BankResource{}},
		{name: "BankResources(no key)", get: func(tx app.Tx) (any, error) { return tx.BankResources("") }, want: []*domain.BankResource{}},
		{name: "BankCompositions", get: func(tx app.Tx) (any, error) { return tx.BankCompositions(edSinapiAug) }, want: []*domain.BankComposition{}},
		{name: "Budget", get: func(tx app.Tx) (any, error) { return tx.Budget(buA1) }, code: notFound},
		{name: "BudgetByCode", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coA, "ORC-1") }, code: notFound},
		{name: "Budgets", get: func(tx app.Tx) (any, error) { return all(tx.Budgets(coA, app.Query{})) }, want: headers()},
	})
	deletes := []struct {
		name string
		del  func(tx app.Tx) error
	}{
		{"DeleteGroup", func(tx app.Tx) error { return tx.DeleteGroup(grA1) }},
		{"DeleteResource", func(tx app.Tx) error { return tx.DeleteResource(reA1) }},
		{"DeleteComposition", func(tx app.Tx) error { return tx.DeleteComposition(cpA1) }},
		{"DeleteBudget", func(tx app.Tx) error { return tx.DeleteBudget(buA1) }},
	}
	for _, d := range deletes {
		err := s.Update(bg(), d.del)
		wantCode(t, d.name, err, notFound)
	}
}

// testWorld stores the world in one transaction and checks every probe
// against the world itself: what is listed below is found, every other probe
// says ENOTFOUND.
func testWorld(t *testing.T, s app.Store) {
	w := newWorld()
	update(t, s, w.put)
	got, err := dump(s)
	if err != nil {
		t.Fatal(err)
	}
	coBeta, coAlfa := w.companies[0], w.companies[1]
	reA2r, reB1r, reA1r := w.resources[0], w.resources[1], w.resources[2]
	cpA2c, cpB1c, cpA1c := w.compositions[0], w.compositions[1], w.compositions[2]
	grB1g, grA2g, grA1g := w.groups[0], w.groups[1], w.groups[2]
	found := map[string]any{
		"Setting(signing-key)": w.settings["signing-key"],
		"Setting(counter)":     []byte("7"),
		"Setting(extra)":       []byte(nil),
		"CountUsers":           2,
		"Editions":             []*domain.Edition{w.editions[1], w.editions[2], w.editions[0]},

		"Company(" + coA + ")":            coAlfa,
		"Company(" + coB + ")":            coBeta,
		"CompanyByName(Construtora Alfa)": coAlfa,
		"CompanyByName(Construtora Beta)": coBeta,

		"Department(" + deA1 + ")":                 w.departments[0],
		"Department(" + deB1 + ")":                 w.departments[1],
		"DepartmentByName(" + coA + ",Engenharia)": w.departments[0],
		"DepartmentByName(" + coB + ",Engenharia)": w.departments[1],

		"User(" + usA1 + ")":            w.users[0],
		"User(" + usB1 + ")":            w.users[1],
		"UserByEmail(ana@alfa.example)": w.users[0],
		"UserByEmail(bia@beta.example)": w.users[1],

		"Group(" + grA1 + ")": grA1g,
		"Group(" + grA2 + ")": grA2g,
		"Group(" + grB1 + ")": grB1g,
		"Groups(" + coA + ")": []*domain.Group{grA1g, grA2g},
		"Groups(" + coB + ")": []*domain.Group{grB1g},
		"Groups(" + coC + ")": []*domain.Group{},
		"Groups(" + coZ + ")": []*domain.Group{},

		"Resource(" + reA1 + ")":          reA1r,
		"Resource(" + reA2 + ")":          reA2r,
		"Resource(" + reB1 + ")":          reB1r,
		"ResourceByCode(" + coA + ",R-1)": reA1r,
		"ResourceByCode(" + coA + ",R-2)": reA2r,
		"ResourceByCode(" + coB + ",R-1)": reB1r,
		"Resources(" + coA + ")":          []*domain.Resource{reA1r, reA2r},
		"Resources(" + coB + ")":          []*domain.Resource{reB1r},
		"Resources(" + coC + ")":          []*domain.Resource{},
		"Resources(" + coZ + ")":          []*domain.Resource{},

		"Composition(" + cpA1 + ")":             cpA1c,
		"Composition(" + cpA2 + ")":             cpA2c,
		"Composition(" + cpB1 + ")":             cpB1c,
		"CompositionByCode(" + coA + ",C-1,MG)": cpA1c,
		"CompositionByCode(" + coA + ",C-1,SP)": cpA2c,
		"CompositionByCode(" + coB + ",C-1,MG)": cpB1c,
		"Compositions(" + coA + ")":             []*domain.Composition{cpA1c, cpA2c},
		"Compositions(" + coB + ")":             []*domain.Composition{cpB1c},
		"Compositions(" + coC + ")":             []*domain.Composition{},
		"Compositions(" + coZ + ")":             []*domain.Composition{},

		"Edition(" + edSinapiAug + ")":               w.editions[0],
		"Edition(" + edSicroAL + ")":                 w.editions[1],
		"Edition(" + edSinapiJul + ")":               w.editions[2],
		"BankResource(" + edSinapiAug + ",00001)":    w.bankResources[edSinapiAug][0],
		"BankResource(" + edSinapiAug + ",00002)":    w.bankResources[edSinapiAug][1],
		"BankResource(" + edSinapiJul + ",00001)":    w.bankResources[edSinapiJul][0],
		"BankComposition(" + edSinapiAug + ",87292)": w.bankCompositions[edSinapiAug][0],
		"BankComposition(" + edSicroAL + ",0308001)": w.bankCompositions[edSicroAL][0],
		"BankResources(" + edSinapiAug + ")":         w.bankResources[edSinapiAug],
		"BankResources(" + edSinapiJul + ")":         w.bankResources[edSinapiJul],
		"BankResources(" + edSicroAL + ")":           []*domain.BankResource{},
		"BankResources(" + edOrseSE + ")":            []*domain.BankResource{},
		"BankCompositions(" + edSinapiAug + ")":      w.bankCompositions[edSinapiAug],
		"BankCompositions(" + edSinapiJul + ")":      []*domain.BankComposition{},
		"BankCompositions(" + edSicroAL + ")":        w.bankCompositions[edSicroAL],
		"BankCompositions(" + edOrseSE + ")":         []*domain.BankComposition{},

		"Budget(" + buA1 + ")":            w.budgets[2],
		"Budget(" + buA2 + ")":            w.budgets[1],
		"Budget(" + buB1 + ")":            w.budgets[0],
		"BudgetByCode(" + coA + ",ORC-1)": w.budgets[2],
		"BudgetByCode(" + coA + ",ORC-2)": w.budgets[1],
		"BudgetByCode(" + coB + ",ORC-1)": w.budgets[0],
		"Budgets(" + coA + ")":            headers(w.budgets[2], w.budgets[1]),
		"Budgets(" + coB + ")":            headers(w.budgets[0]),
		"Budgets(" + coC + ")":            headers(),
		"Budgets(" + coZ + ")":            headers(),
	}
	want := make(map[string]any, len(got))
	for _, p := range probes() {
		if v, ok := found[p.name]; ok {
			want[p.name] = v
		} else {
			want[p.name] = "error: " + notFound
		}
	}
	for name := range found {
		if _, ok := want[name]; !ok {
			t.Fatalf("test bug: %s is not a probe", name)
		}
	}
	diff(t, "every probe of the world", want, got)
}

// testBadKeys checks that records whose key fields are empty, or hold a NUL
// byte (the separator of composite keys), are refused.
func testBadKeys(t *testing.T, s app.Store) {
	cases := []struct {
		name string
		put  func(tx app.Tx) error
	}{
		{"company without id", func(tx app.Tx) error { return tx.PutCompany(newCompany("", "Sem id")) }},
		{"department without company", func(tx app.Tx) error { return tx.PutDepartment(newDepartment(deA1, "", "Engenharia")) }},
		{"user without id", func(tx app.Tx) error { return tx.PutUser(newUser("", coA, deA1, "x@y.example")) }},
		{"group without id", func(tx app.Tx) error { return tx.PutGroup(newGroup("", coA, "G")) }},
		{"resource without code", func(tx app.Tx) error { return tx.PutResource(newResource(reA1, coA, "")) }},
		{"resource code with NUL", func(tx app.Tx) error { return tx.PutResource(newResource(reA1, coA, "R\x001")) }},
		{"resource company with NUL", func(tx app.Tx) error { return tx.PutResource(newResource(reA1, coA+"\x00", "R-1")) }},
		{"composition without state", func(tx app.Tx) error { return tx.PutComposition(newComposition(cpA1, coA, "C-1", "")) }},
		{"composition code with NUL", func(tx app.Tx) error { return tx.PutComposition(newComposition(cpA1, coA, "C\x00MG", "SP")) }},
		{"bank resource without edition", func(tx app.Tx) error { return tx.PutBankResource("", newBankResource("00001", "1")) }},
		{"bank resource without code", func(tx app.Tx) error { return tx.PutBankResource(edSinapiAug, newBankResource("", "1")) }},
		{"bank composition edition with NUL", func(tx app.Tx) error { return tx.PutBankComposition("A\x00B", newBankComposition("1", "1")) }},
		{"setting without key", func(tx app.Tx) error { return tx.PutSetting("", []byte("x")) }},
		{"budget without code", func(tx app.Tx) error { return tx.PutBudget(newBudget(buA1, coA, "")) }},
		{"budget without company", func(tx app.Tx) error { return tx.PutBudget(newBudget(buA1, "", "ORC-1")) }},
		{"budget code with NUL", func(tx app.Tx) error { return tx.PutBudget(newBudget(buA1, coA, "ORC\x001")) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := s.Update(bg(), tc.put); err == nil {
				t.Errorf("Put accepted %s", tc.name)
			}
		})
	}
	after, err := dump(s)
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range after {
		if !isEmptyResult(v) {
			t.Errorf("%s = %v after refused puts, want nothing", name, v)
		}
	}
}

// isEmptyResult reports whether a probe result shows no data: an error, a
// nil value, an empty list or a zero count.
func isEmptyResult(v any) bool {
	if s, ok := v.(string); ok {
		return strings.HasPrefix(s, "error: ")
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Invalid:
		return true
	case reflect.Slice, reflect.Map:
		return r.Len() == 0
	case reflect.Pointer:
		return r.IsNil()
	case reflect.Int:
		return r.Int() == 0
	}
	return false
}

func testBudgets(t *testing.T, s app.Store) {
	a1, a2, b1 := newBudget(buA1, coA, "ORC-1"), newBudget(buA2, coA, "ORC-2"), newBudget(buB1, coB, "ORC-1")
	a2.Items, a2.Banks = nil, nil // an empty budget round-trips too
	// The BDI as TCU checks it round-trips: work type, parts (exact to 4
	// places), the differentiated BDI with its parts and the supply lines.
	a1.WorkType = "buildings"
	a1.BDIParts = &domain.BDIParts{AC: dec("4.0000"), S: dec("0.8"), R: dec("1.27"), G: dec("0"), DF: dec("1.23"),
		L: dec("7.40"), Taxes: dec("5.65"), CPRB: dec("4.5")}
	a1.SupplyBDIParts = &domain.BDIParts{AC: dec("3.45"), S: dec("0.48"), R: dec("0.85"), G: dec("0.0001"), DF: dec("0.85"),
		L: dec("5.11"), Taxes: dec("3.65"), CPRB: dec("0")}
	a1.SupplyBDI, a1.SupplyNodes = dec("15.28"), []string{"n4", "n5"}
	// The ART/RRT number and the issue date round-trip (and go away when a
	// budget is put without them: "recoded" below).
	a1.ART, a1.IssueDate = "MG2026 0012345 · ART de obra/serviço", "2026-11-28"
	b1.IssueDate = "2026-01-31"
	update(t, s, func(tx app.Tx) error {
		for _, b := range []*domain.Budget{b1, a2, a1} {
			if err := tx.PutBudget(b); err != nil {
				return err
			}
		}
		return nil
	})
	checkLookups(t, s, []lookup{
		{name: "Budget(A1)", get: func(tx app.Tx) (any, error) { return tx.Budget(buA1) }, want: a1},
		{name: "Budget(A2)", get: func(tx app.Tx) (any, error) { return tx.Budget(buA2) }, want: a2},
		{name: "BudgetByCode(A,ORC-1)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coA, "ORC-1") }, want: a1},
		{name: "BudgetByCode(B,ORC-1)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coB, "ORC-1") }, want: b1},
		{name: "BudgetByCode(B,ORC-2)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coB, "ORC-2") }, code: notFound},
		{name: "BudgetByCode(A,orc-1)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coA, "orc-1") }, code: notFound},
		{name: "Budgets(A)", get: func(tx app.Tx) (any, error) { return all(tx.Budgets(coA, app.Query{})) }, want: headers(a1, a2)},
		{name: "Budgets(B)", get: func(tx app.Tx) (any, error) { return all(tx.Budgets(coB, app.Query{})) }, want: headers(b1)},
		{name: "Budgets(none)", get: func(tx app.Tx) (any, error) { return all(tx.Budgets(coZ, app.Query{})) }, want: headers()},
		{name: "Budget(missing)", get: func(tx app.Tx) (any, error) { return tx.Budget(buA3) }, code: notFound},
	})

	// Replacing the tree and the code moves the code index; the old code is
	// free again.
	recoded := newBudget(buA1, coA, "ORC-1X")
	recoded.Items = recoded.Items[1:]
	recoded.Items[0].Quantity = dec("3.1415926")
	update(t, s, func(tx app.Tx) error { return tx.PutBudget(recoded) })
	checkLookups(t, s, []lookup{
		{name: "Budget(recoded)", get: func(tx app.Tx) (any, error) { return tx.Budget(buA1) }, want: recoded},
		{name: "BudgetByCode(new code)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coA, "ORC-1X") }, want: recoded},
		{name: "BudgetByCode(old code)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coA, "ORC-1") }, code: notFound},
		{name: "BudgetByCode(B,ORC-1) untouched", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coB, "ORC-1") }, want: b1},
	})

	// A code another budget of the company holds is refused.
	err := s.Update(bg(), func(tx app.Tx) error { return tx.PutBudget(newBudget(buA3, coA, "ORC-2")) })
	wantCode(t, "PutBudget with a taken code", err, domain.ECONFLICT)
	err = s.Update(bg(), func(tx app.Tx) error { return tx.PutBudget(newBudget(buA1, coA, "ORC-2")) })
	wantCode(t, "PutBudget recoded to a taken code", err, domain.ECONFLICT)

	// Moving to another company moves both indexes.
	moved := newBudget(buA2, coC, "ORC-2")
	update(t, s, func(tx app.Tx) error { return tx.PutBudget(moved) })
	checkLookups(t, s, []lookup{
		{name: "BudgetByCode(old company)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coA, "ORC-2") }, code: notFound},
		{name: "BudgetByCode(new company)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coC, "ORC-2") }, want: moved},
		{name: "Budgets(A) after move", get: func(tx app.Tx) (any, error) { return all(tx.Budgets(coA, app.Query{})) }, want: headers(recoded)},
		{name: "Budgets(C) after move", get: func(tx app.Tx) (any, error) { return all(tx.Budgets(coC, app.Query{})) }, want: headers(moved)},
	})

	update(t, s, func(tx app.Tx) error { return tx.DeleteBudget(buA1) })
	err = s.Update(bg(), func(tx app.Tx) error { return tx.DeleteBudget(buA1) })
	wantCode(t, "DeleteBudget(deleted)", err, notFound)
	checkLookups(t, s, []lookup{
		{name: "Budget(deleted)", get: func(tx app.Tx) (any, error) { return tx.Budget(buA1) }, code: notFound},
		{name: "BudgetByCode(deleted)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coA, "ORC-1X") }, code: notFound},
		{name: "Budgets(A) after delete", get: func(tx app.Tx) (any, error) { return all(tx.Budgets(coA, app.Query{})) }, want: headers()},
		{name: "Budgets(B) after delete", get: func(tx app.Tx) (any, error) { return all(tx.Budgets(coB, app.Query{})) }, want: headers(b1)},
	})
	reused := newBudget(buA3, coA, "ORC-1X")
	update(t, s, func(tx app.Tx) error { return tx.PutBudget(reused) })
	checkLookups(t, s, []lookup{
		{name: "BudgetByCode(reused)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coA, "ORC-1X") }, want: reused},
	})
}
