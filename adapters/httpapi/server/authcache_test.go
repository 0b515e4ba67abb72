package server_test

import (
	"context"
	"testing"
)

// TestNoStaleAuthorizationAcrossServers checks that a GET answered from a
// server's caches (the caller's user kept under its company's generation,
// the response cache) never lets through a token that a write made through
// another server sharing the store has disabled or revoked, and that a
// token issued after the user is enabled again works on both servers.
func TestNoStaleAuthorizationAcrossServers(t *testing.T) {
	f := newConditionalFixture(t)
	h := f.h
	ctx := context.Background()
	srv2 := secondServer(t, h)
	get2 := func(path, token string) int {
		st, _, _ := srv2.get(token, path, "")
		return st
	}
	paths := []string{v2Base + "/my_database/compositions/" + f.comp, v1Base + "/base/mybase/resources/" + f.resource}
	both := func(step, token string, want int) {
		t.Helper()
		for _, p := range paths {
			for i := 0; i < 3; i++ { // again: from the caches
				if st := get2(p, token); st != want {
					t.Fatalf("%s: second server answered %d to GET %s, want %d", step, st, p, want)
				}
				if r := h.Do("GET", p, token, ""); r.Status != want {
					t.Fatalf("%s: first server answered %d to GET %s, want %d", step, r.Status, p, want)
				}
			}
		}
	}
	both("before", f.u.Token, 200)
	// Disabled through the first service: the second server, which has
	// the user and the answers in memory, refuses at once.
	if err := h.App.SetUserDisabled(ctx, f.u.Email, true); err != nil {
		t.Fatal(err)
	}
	both("disabled", f.u.Token, 401)
	// Enabled through the second service: the old token stays revoked,
	// a new one works everywhere.
	if err := srv2.svc.SetUserDisabled(ctx, f.u.Email, false); err != nil {
		t.Fatal(err)
	}
	both("enabled, old token", f.u.Token, 401)
	s, err := srv2.svc.Authenticate(ctx, f.u.Email, f.u.Secret)
	if err != nil {
		t.Fatal(err)
	}
	both("enabled, new token", s.Token, 200)
	// The other company's user is untouched throughout.
	if st := get2(v2Base+"/my_database/resources/"+f.otherResource, f.other.Token); st != 200 {
		t.Errorf("other company: %d", st)
	}
}
