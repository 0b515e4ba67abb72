package storecache

import (
	"context"
	"encoding/binary"
	"slices"
	"sync"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// The read side of the write generations (generation.go) for authorized
// requests (Authorize, Generation), built so that an answer served from a cache costs
// the store one cheap read (Store.Settings: on PostgreSQL one statement,
// one round trip, no BEGIN or COMMIT) shared with the other requests
// waiting at the same time, and stays exact:
//
//   - Reads are coalesced (genReader): while one read of generations is
//     running, the requests that arrive wait and the first of them then
//     reads, in one call, the generations all of them need. A request's
//     key joins a batch only before the batch is sent, so the snapshot of
//     the read is taken after the request arrived: it holds every write
//     acknowledged before that. This is group commit for reads.
//   - The caller's user is kept in memory with the generation of the
//     users read in the same transaction (userCache). Every write to a
//     user bumps that generation (writeTx.PutUser: "gen/users"), and counters
//     only grow, so while the users' generation read now is the one kept
//     with the user, the user is exactly as kept. Otherwise the user and
//     the generations are read again in one transaction, as before. Writes
//     of a company's records do not touch it: a request that follows them
//     (a write, whose authorization reads the generations the same way)
//     still finds its user kept.

// genReader coalesces the generation reads of concurrent requests.
type genReader struct {
	store app.Store

	mu      sync.Mutex
	running bool      // a read is running
	next    *genBatch // the read that runs after it, collecting keys
}

// genBatch is one read of generation counters.
type genBatch struct {
	keys  []string      // genGlobalKey, genUsersKey, then companies
	start chan struct{} // closed when the batch may be sent (a next batch)
	done  chan struct{} // closed when vals and err are set
	vals  [][]byte
	err   error
}

func newGenReader(store app.Store) *genReader { return &genReader{store: store} }

// read returns the global generation, those of the company and, when
// compositionID is not empty, that composition's counter, read after the
// call began.
func (r *genReader) read(ctx context.Context, companyID, compositionID string) (Generation, error) {
	keys := genKeys{company: genCompanyKey + companyID, comps: genCompsKey + companyID}
	if compositionID != "" {
		keys.comp = genCompKey + compositionID
	}
	r.mu.Lock()
	if !r.running {
		// Nothing running: read now, alone.
		r.running = true
		r.mu.Unlock()
		b := &genBatch{keys: []string{genGlobalKey, genUsersKey}}
		b.add(keys)
		r.run(ctx, b)
		return b.generation(keys, compositionID)
	}
	b := r.next
	lead := b == nil
	if lead {
		b = &genBatch{keys: []string{genGlobalKey, genUsersKey}, start: make(chan struct{}), done: make(chan struct{})}
		r.next = b
	}
	b.add(keys)
	r.mu.Unlock()
	if lead {
		// The first to wait sends the batch once the running read ends,
		// for every request that joined it. It must run whatever becomes
		// of its own request: the others wait on it.
		<-b.start
		r.run(context.WithoutCancel(ctx), b)
	} else {
		select {
		case <-b.done:
		case <-ctx.Done():
			return Generation{}, ctx.Err()
		}
	}
	return b.generation(keys, compositionID)
}

// genKeys are the counters one request reads beside the global ones.
type genKeys struct{ company, comps, comp string }

// run reads b's keys, then hands the running read on to the next batch.
func (r *genReader) run(ctx context.Context, b *genBatch) {
	defer func() {
		r.mu.Lock()
		n := r.next
		r.next = nil
		if n == nil {
			r.running = false
		}
		r.mu.Unlock()
		if n != nil {
			close(n.start) // n is sent now: no key joins it any more
		}
	}()
	defer func() {
		if b.done != nil {
			close(b.done)
		}
	}()
	b.vals, b.err = r.store.Settings(ctx, b.keys)
	if b.err == nil && len(b.vals) != len(b.keys) {
		b.err = domain.Errorf(domain.EINTERNAL, "the store read %d settings of %d", len(b.vals), len(b.keys))
	}
}

func (b *genBatch) add(keys genKeys) {
	for _, key := range []string{keys.company, keys.comps, keys.comp} {
		if key != "" && !slices.Contains(b.keys, key) {
			b.keys = append(b.keys, key)
		}
	}
}

// generation returns the counters b read: the global ones and keys'.
func (b *genBatch) generation(keys genKeys, compositionID string) (Generation, error) {
	if b.err != nil {
		return Generation{}, b.err
	}
	g := Generation{Global: counterValue(b.vals[0]), Users: counterValue(b.vals[1]), CompositionID: compositionID}
	for i, k := range b.keys {
		switch k {
		case keys.company:
			g.Company = counterValue(b.vals[i])
		case keys.comps:
			g.Comps = counterValue(b.vals[i])
		case keys.comp:
			g.Comp = counterValue(b.vals[i])
		}
	}
	return g, nil
}

func counterValue(b []byte) uint64 {
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

// userCache keeps users with the generation of the users read in the same
// transaction.
type userCache struct {
	mu sync.RWMutex
	m  map[string]cachedUser
}

type cachedUser struct {
	usersGen uint64
	// What authorization looks at (the rest of the record is not kept),
	// shared by the requests: nothing changes it.
	u *domain.User
}

// maxCachedUsers bounds the cache; when full it starts again empty.
const maxCachedUsers = 100000

func newUserCache() *userCache { return &userCache{m: map[string]cachedUser{}} }

// get returns the user with the id as kept when the users' generation was
// usersGen; ok is false when it is not kept, is not in the company, or was
// kept at another generation of the users.
func (c *userCache) get(id, companyID string, usersGen uint64) (*domain.User, bool) {
	c.mu.RLock()
	e, ok := c.m[id]
	c.mu.RUnlock()
	if !ok || e.u.CompanyID != companyID || e.usersGen != usersGen {
		return nil, false
	}
	return e.u, true
}

// sameAuthorization reports whether a and b agree on what authorization
// looks at.
func sameAuthorization(a, b *domain.User) bool {
	return a.CompanyID == b.CompanyID && a.DepartmentID == b.DepartmentID && a.Disabled == b.Disabled &&
		a.TokensRevokedAt.Equal(b.TokensRevokedAt) && a.TokensRevokedAt.Location() == b.TokensRevokedAt.Location()
}

// put keeps u, read in one transaction with usersGen, the users'
// generation.
func (c *userCache) put(u *domain.User, usersGen uint64) {
	c.mu.Lock()
	if old, ok := c.m[u.ID]; !ok || old.usersGen != usersGen || !sameAuthorization(old.u, u) {
		e := cachedUser{usersGen: usersGen, u: &domain.User{ID: u.ID, CompanyID: u.CompanyID, DepartmentID: u.DepartmentID,
			Disabled: u.Disabled, TokensRevokedAt: u.TokensRevokedAt}}
		if len(c.m) >= maxCachedUsers {
			clear(c.m)
		}
		c.m[u.ID] = e
	}
	c.mu.Unlock()
}

// Generation returns the write generation of a company, and the counter of
// its composition with the id when compositionID is not empty, read after
// the call began (coalesced with the reads of concurrent requests).
func (s *Store) Generation(ctx context.Context, companyID, compositionID string) (Generation, error) {
	return s.gens.read(ctx, companyID, compositionID)
}

// Authorize is svc.Authorize (the same rule, app.AuthorizeUser) made cheap,
// for a server whose Service runs over s: it also returns the generations
// it read, so that a tagged read (ETags, the response cache) costs no store
// transaction of its own before its handler. The cheap path: the
// generations alone, read after the request arrived, and the user as kept
// under the users' generation when that is still the one read. A write
// takes it too: its own transaction comes after, and sees at least as much.
// Otherwise the user and the generations are read in one transaction.
// compositionID, when not empty, names the composition whose counter the
// request's answer may be tagged with (Generation.Comp).
func (s *Store) Authorize(ctx context.Context, svc *app.Service, token, compositionID string) (domain.Principal, Generation, error) {
	claims, err := svc.VerifyToken(token)
	if err != nil {
		return domain.Principal{}, Generation{}, err
	}
	g, err := s.gens.read(ctx, claims.CompanyID, compositionID)
	if err != nil {
		return domain.Principal{}, Generation{}, err
	}
	if u, ok := s.users.get(claims.UserID, claims.CompanyID, g.Users); ok {
		p, err := app.AuthorizeUser(claims, u)
		if err != nil {
			return domain.Principal{}, Generation{}, err
		}
		return p, g, nil
	}
	var p domain.Principal
	err = s.Store.View(ctx, func(tx app.Tx) error {
		u, err := tx.User(claims.UserID)
		if domain.ErrorCode(err) == domain.ENOTFOUND {
			u = nil
		} else if err != nil {
			return err
		}
		if u != nil && u.CompanyID == claims.CompanyID {
			if g, err = readGeneration(tx, u.CompanyID, compositionID); err != nil {
				return err
			}
			s.users.put(u, g.Users)
		}
		p, err = app.AuthorizeUser(claims, u)
		return err
	})
	return p, g, err
}
