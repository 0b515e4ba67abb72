package openapi_test

import (
	"bytes"
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/adapters/httpapi/server"
)

// browserOnce runs TestPageInBrowser once per test binary: the page does not
// depend on the storage engine the package's tests run on.
var browserOnce sync.Once

// TestPageInBrowser loads GET /api/docs in headless Chromium from a test
// server, lets Swagger UI render it, and looks in the rendered DOM for every
// operation of the document (its summary, method and path), for "Try it
// out" on the operation the URL's fragment opens, and for the server "Try
// it out" sends requests to. Chromium's console must show no refused load
// (Content Security Policy) and no error. Without a chromium binary the
// test is skipped here; CI (.ci/run) installs Debian's chromium, and there
// a missing browser fails.
func TestPageInBrowser(t *testing.T) {
	ran := false
	browserOnce.Do(func() { ran = true })
	if !ran {
		t.Skip("runs once per test binary (on the first storage engine)")
	}
	bin := chromium()
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no chromium binary (CI installs Debian's chromium: .ci/run)")
		}
		t.Skip("no chromium binary (apt-get install -y --no-install-recommends chromium); CI runs this test")
	}
	h := apitest.New(t)
	c, err := apitest.LoadContract()
	if err != nil {
		t.Fatal(err)
	}

	// The fragment opens one operation, as a shared link to it does.
	// Swagger UI lists a document of 100 tags and operations or more
	// virtually: only the rows in (or near) the window are in the DOM, the
	// others appear as a reader scrolls to them. A window taller than the
	// whole list shows every row at once, as scrolling through it would.
	dom, console := dumpDOM(t, bin, h.URL+"/api/docs#/service/health", "--window-size=1280,60000")
	text := strings.ReplaceAll(dom, "<wbr>", "")
	text = html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(text, " "))
	text = strings.Join(strings.Fields(text), " ")

	ops := 0
	for path, item := range c.Doc.Paths.Map() {
		for method, o := range item.Operations() {
			ops++
			summary := strings.Join(strings.Fields(o.Summary), " ")
			if summary == "" {
				t.Errorf("%s %s has no summary", method, path)
				continue
			}
			if !strings.Contains(text, summary) {
				t.Errorf("the rendered page does not show %s %s: %q", method, path, summary)
			}
			// Swagger UI breaks long paths with <wbr>; the path's text is
			// whole once the tags are gone.
			if !strings.Contains(text, path) {
				t.Errorf("the rendered page does not show the path %s", path)
			}
		}
	}
	if ops < 50 {
		t.Fatalf("%d operations in the document, expected many more", ops)
	}
	for _, want := range []string{"costdb HTTP API", "Servers"} {
		if !strings.Contains(text, want) {
			t.Errorf("the rendered page does not show %q", want)
		}
	}
	// The operation the fragment opened shows its "Try it out" button.
	if !regexp.MustCompile(`(?s)id="operations-service-health".*?try-out__btn[^>]*>Try it out`).MatchString(dom) {
		t.Errorf("the operation the link opened (GET /healthz) shows no \"Try it out\"")
	}
	// The server "Try it out" sends requests to: the document's "/", i.e.
	// the test server that served the page.
	if !regexp.MustCompile(`<option value="/"[^>]*>/`).MatchString(dom) {
		t.Errorf("the servers menu does not offer this server (\"/\")")
	}
	for _, bad := range []string{"Content Security Policy", "Refused to", "Uncaught", "Failed to load"} {
		if strings.Contains(console, bad) {
			t.Errorf("Chromium's console shows %q:\n%s", bad, console)
		}
	}
}

// TestPageTryItOut presses "Try it out" and "Execute" on GET /healthz in
// the rendered page, in headless Chromium, and checks that the request went
// to the server that served the page and was answered 200. A small driver
// page on the same server loads /api/docs in a frame and clicks through it;
// the outcome is written into the driver's DOM, which Chromium dumps. For
// the frame, the test server drops frame-ancestors from the page's policy
// (the served page may not be framed); the rest of the policy applies.
func TestPageTryItOut(t *testing.T) {
	bin := chromium()
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no chromium binary (CI installs Debian's chromium: .ci/run)")
		}
		t.Skip("no chromium binary (apt-get install -y --no-install-recommends chromium); CI runs this test")
	}
	if !browserTryOnce() {
		t.Skip("runs once per test binary (on the first storage engine)")
	}
	h := apitest.New(t)
	mux := http.NewServeMux()
	api := server.Handler(h.Env)
	mux.Handle("/", api)
	mux.HandleFunc("GET /api/docs", func(w http.ResponseWriter, r *http.Request) {
		api.ServeHTTP(framable{w}, r)
	})
	mux.HandleFunc("GET /drive", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(tryItOutDriver))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	dom, console := dumpDOM(t, bin, srv.URL+"/drive")
	m := regexp.MustCompile(`<pre id="out">([^<]*)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the driver page did not render:\n%s", dom)
	}
	got := html.UnescapeString(m[1])
	if want := "STATUS=200 URL=" + srv.URL + "/healthz"; got != want {
		t.Errorf("Try it out on GET /healthz: %q, want %q\nconsole:\n%s", got, want, console)
	}
	for _, bad := range []string{"Content Security Policy", "Refused to"} {
		if strings.Contains(console, bad) {
			t.Errorf("Chromium's console shows %q:\n%s", bad, console)
		}
	}
}

var tryOnce sync.Once

// framable lets the test's driver page frame the docs page: it takes
// frame-ancestors out of the Content Security Policy.
type framable struct{ http.ResponseWriter }

func (f framable) WriteHeader(code int) {
	h := f.Header()
	if csp := h.Get("Content-Security-Policy"); csp != "" {
		h.Set("Content-Security-Policy", strings.ReplaceAll(csp, "; frame-ancestors 'none'", ""))
	}
	f.ResponseWriter.WriteHeader(code)
}

func browserTryOnce() bool {
	ran := false
	tryOnce.Do(func() { ran = true })
	return ran
}

// tryItOutDriver frames the docs page and clicks "Try it out", then
// "Execute", on GET /healthz (Swagger UI's element ids and classes), and
// writes the answer's status and the request's URL into #out.
const tryItOutDriver = `<!DOCTYPE html><html><body><pre id="out">pending</pre>
<iframe id="docs" src="/api/docs#/service/health" width="1200" height="800"></iframe><script>
const out = document.getElementById("out");
const w = document.getElementById("docs").contentWindow;
const op = "#operations-service-health";
function wait(sel, then, n) {
  n = n || 0;
  const el = w && w.document && w.document.querySelector(sel);
  if (el) { then(el); return; }
  if (n > 300) {
    const o = w.document && w.document.querySelector(op);
    out.textContent = "TIMEOUT " + sel + " " + (o ? o.outerHTML.slice(0, 3000) : "no " + op + "; opblocks " + w.document.querySelectorAll(".opblock").length + " ids " + Array.from(w.document.querySelectorAll("[id^=operations]")).slice(0, 5).map(function (e) { return e.id; }).join(","));
    return;
  }
  setTimeout(function () { wait(sel, then, n + 1); }, 100);
}
{
  wait(op + " .try-out__btn", function (b) {
    b.click();
    wait(op + " .execute", function (e) {
      e.click();
      wait(op + " .live-responses-table tbody .response-col_status", function (s) {
        const url = w.document.querySelector(op + " .request-url pre");
        out.textContent = "STATUS=" + s.textContent.trim() + " URL=" + (url ? url.textContent.trim() : "?");
      });
    });
  });
}
</script></body></html>`

// chromium is the path of a Chromium binary, or "".
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// dumpDOM loads url in headless Chromium, lets the page run until it is
// idle (virtual time: no wall-clock wait), and returns the DOM and what the
// browser logged (console messages included).
func dumpDOM(t *testing.T, bin, url string, flags ...string) (dom, console string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir(),
		"--enable-logging=stderr", "--v=0",
		"--virtual-time-budget=30000", "--dump-dom"}, flags...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errOut.String())
	}
	var lines []string
	for _, l := range strings.Split(errOut.String(), "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Content Security Policy") {
			lines = append(lines, l)
		}
	}
	return out.String(), strings.Join(lines, "\n")
}
