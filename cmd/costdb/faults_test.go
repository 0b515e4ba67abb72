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
	"strings"
	"syscall"
	"testing"

	"github.com/costdb/costdb/adapters/boltstore"
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
