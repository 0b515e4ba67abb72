package jwtauth_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

func claimsAt(t0 time.Time) app.Claims {
	return app.Claims{UserID: "u1", CompanyID: "c1", TokenID: "j", IssuedAt: t0, ExpiresAt: t0.Add(time.Hour)}
}

// TestRotationKeepsOldTokens: after a rotation new tokens name the new key,
// old tokens still verify, and a key retired longer than the lifetime ago
// is dropped at the next rotation (its tokens then fail).
func TestRotationKeepsOldTokens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k")
	t0 := time.Now()
	f, created, err := jwtauth.OpenKeyFile(path, nil, t0)
	if err != nil || !created {
		t.Fatalf("OpenKeyFile: %v %v", created, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v", fi.Mode().Perm())
	}
	tk, _ := jwtauth.NewRing(f.Ring())
	old, _ := tk.Issue(claimsAt(t0))
	k2, err := f.Rotate(path, time.Hour, t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := tk.SetKeys(f.Ring()); err != nil {
		t.Fatal(err)
	}
	if tk.CurrentKeyID() != k2.ID {
		t.Errorf("signing with %s, want %s", tk.CurrentKeyID(), k2.ID)
	}
	fresh, _ := tk.Issue(claimsAt(t0))
	for name, s := range map[string]string{"old": old, "fresh": fresh} {
		if _, err := tk.Verify(s); err != nil {
			t.Errorf("%s token: %v", name, err)
		}
	}
	// Two hours later, another rotation drops the first key.
	if _, err := f.Rotate(path, time.Hour, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	reread, err := jwtauth.ReadKeyFile(path)
	if err != nil || len(reread.Keys) != 2 {
		t.Fatalf("keys after the second rotation: %v %v", reread, err)
	}
	_ = tk.SetKeys(reread.Ring())
	if _, err := tk.Verify(old); domain.ErrorCode(err) != domain.EUNAUTHORIZED {
		t.Errorf("a token of a dropped key: %v", err)
	}
	if _, err := tk.Verify(fresh); err != nil {
		t.Errorf("a token of the retired, kept key: %v", err)
	}
}

// TestReloadOnUnknownKid: a server sharing the key file verifies a token of
// a key another server rotated in.
func TestReloadOnUnknownKid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k")
	f, _, _ := jwtauth.OpenKeyFile(path, nil, time.Now())
	a, _ := jwtauth.NewRing(f.Ring())
	b, _ := jwtauth.NewRing(f.Ring())
	b.Reload = func() ([]jwtauth.Key, error) {
		g, err := jwtauth.ReadKeyFile(path)
		if err != nil {
			return nil, err
		}
		return g.Ring(), nil
	}
	_, _ = f.Rotate(path, time.Hour, time.Now())
	_ = a.SetKeys(f.Ring())
	tok, _ := a.Issue(claimsAt(time.Now()))
	if _, err := b.Verify(tok); err != nil {
		t.Errorf("b does not follow a's rotation: %v", err)
	}
}

// TestOpenKeyFileOnce: processes creating the file at once end with one key;
// a legacy key becomes the file's key; a raw key file still works.
func TestOpenKeyFileOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k")
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			f, _, err := jwtauth.OpenKeyFile(path, nil, time.Now())
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = f.Keys[len(f.Keys)-1].ID
		}(i)
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("different keys: %v", ids)
		}
	}
	legacy := []byte("0123456789abcdef0123456789abcdef")
	lpath := filepath.Join(t.TempDir(), "l")
	f, created, err := jwtauth.OpenKeyFile(lpath, legacy, time.Now())
	if err != nil || !created || string(f.Keys[0].Secret) != string(legacy) {
		t.Fatalf("legacy key: %v %v %v", f, created, err)
	}
	old, _ := jwtauth.New(legacy) // a token from before kids existed has none
	tok, _ := old.Issue(claimsAt(time.Now()))
	ring, _ := jwtauth.NewRing(f.Ring())
	if _, err := ring.Verify(tok); err != nil {
		t.Errorf("legacy token: %v", err)
	}
	raw := filepath.Join(t.TempDir(), "raw")
	_ = os.WriteFile(raw, legacy, 0o600)
	if f, err := jwtauth.ReadKeyFile(raw); err != nil || string(f.Keys[0].Secret) != string(legacy) {
		t.Errorf("raw key file: %v %v", f, err)
	}
	_ = os.WriteFile(raw, []byte("short"), 0o600)
	if _, err := jwtauth.ReadKeyFile(raw); err == nil {
		t.Error("a short raw key was accepted")
	}
}

// TestIssuedAtMilliseconds: the claims' issue time keeps its milliseconds,
// so a revocation within the same second tells tokens apart.
func TestIssuedAtMilliseconds(t *testing.T) {
	tk, _ := jwtauth.New(key)
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 250_000_000, time.UTC)
	tk.Now = func() time.Time { return t0 }
	s, _ := tk.Issue(claimsAt(t0))
	c, err := tk.Verify(s)
	if err != nil {
		t.Fatal(err)
	}
	if !c.IssuedAt.Equal(t0) {
		t.Errorf("IssuedAt = %v, want %v", c.IssuedAt, t0)
	}
}
