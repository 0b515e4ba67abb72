package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestKill9UnderConcurrentLoad writes with 32 concurrent clients (resources
// created, and items added to a composition each, so that writes are
// group-committed), kills the process with SIGKILL in the middle of the
// load, and checks that a new process serves every write that was
// acknowledged (issue 11: group commit answers only after the fsync).
func TestKill9UnderConcurrentLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel() // waits on processes of its own: the three such tests overlap
	dir := t.TempDir()
	bin := builtBinary(t)
	db := filepath.Join(dir, "c.db")
	out, err := exec.Command(bin, "users", "add", "--db", db, "--company", "Alfa", "--email", "a@alfa.com").Output()
	if err != nil {
		t.Fatal(err)
	}
	var u map[string]string
	_ = json.Unmarshal(out, &u)
	start := func() (*exec.Cmd, string) {
		return startBinary(t, bin, "serve", "--addr", "127.0.0.1:0", "--db", db, "--demo")
	}
	login := func(base string) string {
		r := post(t, base+"/api/public/v2/authenticate", "", `{"email":"a@alfa.com","secret_token":"`+u["secret_token"]+`"}`)
		var doc struct {
			Data struct {
				Attributes struct {
					AccessToken string `json:"access_token"`
				} `json:"attributes"`
			} `json:"data"`
		}
		_ = json.Unmarshal([]byte(r.body), &doc)
		if doc.Data.Attributes.AccessToken == "" {
			t.Fatalf("authenticate: %d %s", r.status, r.body)
		}
		return doc.Data.Attributes.AccessToken
	}
	cmd, base := start()
	tok := login(base)
	const clients = 32
	comps := make([]string, clients)
	for i := range comps {
		r := post(t, base+"/api/public/v2/my_database/compositions", tok, `{"code":"K9-C`+itoa(i)+`","description":"ALVENARIA","unit":"M2","type":"PARE","location":"MG"}`)
		var got map[string]map[string]any
		_ = json.Unmarshal([]byte(r.body), &got)
		if r.status != 201 {
			_ = cmd.Process.Kill()
			t.Fatalf("create composition: %d %s", r.status, r.body)
		}
		comps[i] = got["data"]["id"].(string)
		if r := post(t, base+"/api/public/v2/my_database/compositions/"+comps[i]+"/add_banks", tok, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`); r.status != 200 {
			_ = cmd.Process.Kill()
			t.Fatalf("add_banks: %d %s", r.status, r.body)
		}
	}
	// Acknowledged: resources created (id → code) and, per composition, the
	// last quantity add_items answered 200 for.
	var mu sync.Mutex
	acked := map[string]string{}
	lastQty := make([]int, clients)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	cl := &http.Client{Timeout: 10 * time.Second}
	send := func(method, url, body string) (int, []byte, error) {
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := cl.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, b, err
	}
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if i%2 == 0 {
					code := fmt.Sprintf("K9-%02d-%05d", w, i)
					st, b, err := send("POST", base+"/api/v1/base/mybase/resources",
						`{"code":"`+code+`","description":"Areia média","type":4,"unit":"M3","local":"MG","pnd":101.25,"pd":101.25,"pndi":0,"pdi":0,"status":true,"note":""}`)
					if err != nil || st != 201 {
						return // the process is gone
					}
					var got map[string]any
					if json.Unmarshal(b, &got) != nil {
						return
					}
					mu.Lock()
					acked[got["id"].(string)] = code
					mu.Unlock()
				} else {
					st, _, err := send("POST", base+"/api/public/v2/my_database/compositions/"+comps[w]+"/add_items",
						fmt.Sprintf(`{"items":[{"bank":"SINAPI","code":"34586","quantity":%d,"resource":true}]}`, i))
					if err != nil || st != 200 {
						return
					}
					mu.Lock()
					lastQty[w] = i
					mu.Unlock()
				}
			}
		}()
	}
	time.Sleep(1500 * time.Millisecond)
	if err := cmd.Process.Kill(); err != nil { // SIGKILL mid-load
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	_ = cmd.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(acked) == 0 {
		t.Fatal("no write was acknowledged before the kill")
	}
	t.Logf("%d resources and %d add_items acknowledged before kill -9", len(acked), func() (n int) {
		for _, q := range lastQty {
			n += q / 2
		}
		return
	}())

	cmd2, base2 := start()
	defer func() { _ = cmd2.Process.Kill(); _ = cmd2.Wait() }()
	tok2 := login(base2)
	for id, code := range acked {
		if r := do(t, "GET", base2+"/api/v1/base/mybase/resources/"+id, tok2, ""); r.status != 200 || !strings.Contains(r.body, code) {
			t.Errorf("resource %s (%s) acknowledged, after kill -9: %d %s", id, code, r.status, r.body)
		}
	}
	for w, id := range comps {
		if lastQty[w] == 0 {
			continue
		}
		r := do(t, "GET", base2+"/api/v1/base/mybase/compositions/"+id, tok2, "")
		var c struct {
			Items []struct {
				Code     string  `json:"code"`
				Quantity float64 `json:"coefficient"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(r.body), &c); err != nil || r.status != 200 {
			t.Errorf("composition %s after kill -9: %d %s", id, r.status, r.body)
			continue
		}
		// A later add_items may have committed without its answer
		// arriving: the quantity is the last acknowledged or a later one.
		if len(c.Items) != 1 || c.Items[0].Quantity < float64(lastQty[w]) {
			t.Errorf("composition %s: items %+v; want 34586 with a quantity of at least %d (acknowledged)", id, c.Items, lastQty[w])
		}
	}
}
