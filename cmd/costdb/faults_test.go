package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
)

// answerH is an answer with its headers.
type answerH struct {
	status int
	header http.Header
	body   string
}

// doH sends a request and reads the whole answer; err is the client's
// (a connection refused or reset), not the test's to judge.
func doH(method, url, token, body string, headers ...string) (answerH, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return answerH{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return answerH{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return answerH{resp.StatusCode, resp.Header, string(b)}, err
}

// mountTmpfs mounts a tmpfs of size bytes on a new directory, unmounted
// when the test ends, or skips the test saying why it cannot.
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("disk-full test skipped: mounting a small tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d,mode=0700", size), "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("disk-full test skipped: mount -t tmpfs failed: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// fill writes a file into dir until the file system is full, then frees
// room bytes of it.
func fill(t *testing.T, dir string, room int64) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	var n int64
	for {
		w, err := f.Write(chunk)
		n += int64(w)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Truncate(max(n-room, 0)); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDiskFullOnBolt fills the small file system the bbolt file is on
// until a write fails, and checks what the operator's documentation says:
// the failed write answers 507 in its generation's shape with a message
// saying the server cannot store, it is logged at ERROR, reads still
// answer, /readyz answers 503; once room is made, the next write succeeds
// and /readyz answers 200 again; every write acknowledged is there, the
// failed ones are not.
func TestDiskFullOnBolt(t *testing.T) {
	dir := mountTmpfs(t, 16<<20)
	db := filepath.Join(dir, "c.db")
	m, logs := startServer(t, db, nil)
	u := addUser(t, db, "Construtora Alfa", "ana@alfa.example")
	tok := login(t, m.URL(), "ana@alfa.example", u["secret_token"])
	filler := fill(t, dir, 256<<10)

	pad := strings.Repeat("x", 200)
	acked, full := 0, answerH{}
	for i := 0; i < 20000 && full.status == 0; i++ {
		r, err := doH("POST", m.URL()+"/api/v1/base/mybase/groups", tok, fmt.Sprintf(`{"description":"Grupo %05d %s"}`, i, pad))
		switch {
		case err != nil:
			t.Fatal(err)
		case r.status == 201:
			acked++
		case r.status == 507:
			full = r
		default:
			t.Fatalf("write %d with the disk filling up: %d, want 201 or 507\n%s", i, r.status, r.body)
		}
	}
	if full.status == 0 {
		t.Fatalf("%d writes and the disk never filled up", acked)
	}
	t.Logf("the disk was full after %d acknowledged writes", acked)
	var v1 struct {
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(full.body), &v1); err != nil || !strings.Contains(v1.Message, "cannot store") {
		t.Errorf("507 body %s: want a v1 message saying the server cannot store", full.body)
	}
	if strings.Contains(full.body, "no space left") || strings.Contains(full.body, dir) {
		t.Errorf("507 body %s shows the system's error", full.body)
	}
	if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "status=507") {
		t.Errorf("the failed write is not logged at ERROR with its status:\n%s", logs.String())
	}

	r, err := doH("POST", m.URL()+"/api/public/v2/my_database/groups", tok, `{"data":{"type":"groups","attributes":{"description":"Grupo v2 `+pad+`"}}}`,
		"Content-Type", "application/vnd.api+json")
	if err != nil || r.status != 507 || !strings.Contains(r.body, `"code":"storage_full"`) || !strings.Contains(r.body, "cannot store") {
		t.Errorf("v2 write on the full disk: %d %v\n%s", r.status, err, r.body)
	}
	for _, base := range []string{m.URL(), m.AdminURL()} {
		if r, err := doH("GET", base+"/readyz", "", ""); err != nil || r.status != 503 {
			t.Errorf("%s/readyz with the disk full: %d %v, want 503", base, r.status, err)
		}
	}
	if r, err := doH("GET", m.URL()+"/api/v1/base/mybase/groups?per_page=1", tok, ""); err != nil || r.status != 200 {
		t.Errorf("read with the disk full: %d %v\n%s", r.status, err, r.body)
	}

	if err := os.Remove(filler); err != nil { // the operator makes room
		t.Fatal(err)
	}
	if r, err := doH("POST", m.URL()+"/api/v1/base/mybase/groups", tok, `{"description":"after"}`); err != nil || r.status != 201 {
		t.Fatalf("write once room is made: %d %v\n%s", r.status, err, r.body)
	}
	acked++
	if r, err := doH("GET", m.URL()+"/readyz", "", ""); err != nil || r.status != 200 {
		t.Errorf("/readyz after a write succeeded: %d %v, want 200", r.status, err)
	}
	r, err = doH("GET", m.URL()+"/api/v1/base/mybase/groups?per_page=1", tok, "")
	var list struct {
		Total int `json:"total"`
	}
	if err != nil || json.Unmarshal([]byte(r.body), &list) != nil || list.Total != acked {
		t.Errorf("groups stored: %d (%v %s), want the %d acknowledged", list.Total, err, r.body, acked)
	}
	// The failed commits left the file whole.
	m.Close()
	if err := boltstore.Verify(db); err != nil {
		t.Errorf("the database after the disk filled up: %v", err)
	}
}

// TestPostgresStopStart serves requests while the PostgreSQL server is
// stopped under load, while it is down, and while it starts again: every
// answer is 2xx or 503 with Retry-After, never 500, and /readyz answers
// 503 while it is down; once it is back the pool reconnects and requests
// succeed. The cluster is the test's own (pgtest.NewCluster).
func TestPostgresStopStart(t *testing.T) {
	cl := pgtest.NewCluster(t)
	db := cl.URL("postgres")
	m := serve(t, db, filepath.Join(t.TempDir(), "keys"))
	tok := pgUser(t, db, "Construtora Alfa", "ana@alfa.example", m.URL())

	var mu sync.Mutex
	seen := map[int]int{}
	check := func(what string, r answerH, err error) bool {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return false
		}
		mu.Lock()
		seen[r.status]++
		mu.Unlock()
		switch {
		case r.status == 503 && r.header.Get("Retry-After") == "":
			t.Errorf("%s: 503 without Retry-After\n%s", what, r.body)
		case r.status == 503 && !strings.Contains(r.body, "try again"):
			t.Errorf("%s: 503 body %s: want the message saying to try again", what, r.body)
		case r.status != 503 && (r.status < 200 || r.status > 299):
			t.Errorf("%s: %d, want 2xx or 503\n%s", what, r.status, r.body)
		}
		return r.status >= 200 && r.status <= 299
	}
	var n atomic.Int64
	request := func(i int64) bool {
		var r answerH
		var err error
		switch i % 3 {
		case 0:
			r, err = doH("POST", m.URL()+"/api/v1/base/mybase/groups", tok, fmt.Sprintf(`{"description":"Grupo %d"}`, i))
		case 1:
			r, err = doH("GET", m.URL()+"/api/v1/base/mybase/groups", tok, "")
		default:
			r, err = doH("GET", m.URL()+"/api/public/v2/my_database/groups", tok, "")
		}
		return check(fmt.Sprintf("request %d", i), r, err)
	}

	// Load while the server shuts down: connections in the middle of a
	// statement are ended (57P01), new ones refused.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					request(n.Add(1))
				}
			}
		}()
	}
	for n.Load() < 50 { // some load before the stop
		runtime.Gosched()
	}
	if err := cl.Stop(); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()

	// Down: every request answers 503, readiness too.
	for range 12 {
		if request(n.Add(1)) {
			t.Error("a request succeeded with the database stopped")
		}
	}
	if r, err := doH("GET", m.URL()+"/readyz", "", ""); err != nil || r.status != 503 {
		t.Errorf("/readyz with the database stopped: %d %v, want 503", r.status, err)
	}

	// Starting: requests until one succeeds (bounded), each 2xx or 503.
	if err := cl.Start(false); err != nil {
		t.Fatal(err)
	}
	back := false
	for range 3000 {
		if request(n.Add(1)) {
			back = true
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !back {
		t.Fatal("no request succeeded after the database started again")
	}
	// Back: the pool has reconnected (a connection left from before the
	// restart may answer one more 503 when first used): ten requests in a
	// row succeed within a bounded number.
	inRow := 0
	for i := 0; i < 200 && inRow < 10; i++ {
		if request(n.Add(1)) {
			inRow++
		} else {
			inRow = 0
		}
	}
	if inRow < 10 {
		t.Error("requests do not succeed again after the database is back")
	}
	if r, err := doH("GET", m.URL()+"/readyz", "", ""); err != nil || r.status != 200 {
		t.Errorf("/readyz once the database is back: %d %v, want 200", r.status, err)
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("answers by status: %v", seen)
	if seen[503] == 0 {
		t.Error("no 503 seen: the database was never found down")
	}
	if seen[500] != 0 {
		t.Errorf("%d answers 500", seen[500])
	}
}
