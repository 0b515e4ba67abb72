package openapi_test

import (
	"bytes"
	"context"
	"html"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
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
	dom, console := dumpDOM(t, bin, h.URL+"/api/docs#/service/healthz")
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
	for _, want := range []string{
		"costdb HTTP API",
		"Try it out", // the operation the fragment opened
		"Servers",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the rendered page does not show %q", want)
		}
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
func dumpDOM(t *testing.T, bin, url string) (dom, console string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir="+t.TempDir(),
		"--enable-logging=stderr", "--v=0",
		"--virtual-time-budget=30000", "--dump-dom", url)
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
