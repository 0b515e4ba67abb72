// Package openapi holds costdb's OpenAPI 3.1 description of both HTTP API
// generations and serves it.
//
// openapi.yaml in this directory is the source of truth: it is hand-written,
// embedded in the binary, and checked by the HTTP tests (adapters/httpapi/apitest
// validates every request and answer they make against it), so that it
// cannot drift from what the server does. docs/openapi.yaml is a copy that a
// test keeps byte-identical (`go test ./adapters/httpapi/openapi -update`
// rewrites it).
//
// The document is served as JSON at GET /api/docs/openapi.json and as an
// HTML reference page with "Try it out" at GET /api/docs, rendered in the
// browser by Swagger UI (ui.go), which the binary embeds. The page loads
// nothing from elsewhere, so that it works on a deployment with no Internet
// access.
package openapi

import (
	"bytes"
	_ "embed"
	"fmt"
	"net/http"
	"sync"

	"gopkg.in/yaml.v3"
)

//go:embed openapi.yaml
var source []byte

// YAML returns the document as written (OpenAPI 3.1, YAML).
func YAML() []byte { return bytes.Clone(source) }

// built is the document converted once: its JSON and the reference page.
var built struct {
	once   sync.Once
	json   []byte
	json30 []byte
	html   []byte
	err    error
}

func build() {
	built.once.Do(func() {
		var root yaml.Node
		if err := yaml.Unmarshal(source, &root); err != nil {
			built.err = fmt.Errorf("openapi: parse openapi.yaml: %w", err)
			return
		}
		if built.json, built.err = toJSON(&root); built.err != nil {
			return
		}
		if built.json30, built.err = convert30(source); built.err != nil {
			return
		}
		built.html, built.err = renderPage(&root)
	})
}

// JSON returns the document converted to JSON, with its member order kept.
func JSON() ([]byte, error) {
	build()
	if built.err != nil {
		return nil, built.err
	}
	return bytes.Clone(built.json), nil
}

// JSON30 returns the OpenAPI 3.0.3 rendition of the document, as JSON, for
// the generators that read only 3.0 (see to30 for what it changes).
func JSON30() ([]byte, error) {
	build()
	if built.err != nil {
		return nil, built.err
	}
	return bytes.Clone(built.json30), nil
}

// Page returns the HTML reference page.
func Page() ([]byte, error) {
	build()
	if built.err != nil {
		return nil, built.err
	}
	return bytes.Clone(built.html), nil
}

// ServeJSON answers GET /api/docs/openapi.json: the document as JSON.
func ServeJSON(w http.ResponseWriter, r *http.Request) {
	serve(w, "application/json", JSON)
}

// ServeJSON30 answers GET /api/docs/openapi-3.0.json: the 3.0.3 rendition.
func ServeJSON30(w http.ResponseWriter, r *http.Request) {
	serve(w, "application/json", JSON30)
}

// ServePage answers GET /api/docs: the HTML reference page. Its Content
// Security Policy (pageCSP) lets it load and call nothing but this server.
func ServePage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", pageCSP)
	serve(w, "text/html; charset=utf-8", Page)
}

func serve(w http.ResponseWriter, mediaType string, body func() ([]byte, error)) {
	b, err := body()
	if err != nil {
		// Only a broken embedded document gets here, and the tests catch that.
		http.Error(w, "the API description is not available", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", mediaType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}
