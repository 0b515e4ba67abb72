package openapi

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html"
	"net/http"
	"strings"

	"gopkg.in/yaml.v3"
)

// The reference page is rendered in the browser by Swagger UI, a maintained
// renderer, pinned in docsui/package.json and package-lock.json. Its built
// bundle and stylesheet, with their licences, are in docsui/dist (committed);
// `go generate ./adapters/httpapi/openapi` fetches the pinned version again
// and copies them there. The page loads only what this server serves: the
// stylesheet and the start script are inline, the bundle is
// GET /api/docs/swagger-ui-bundle.js, the document GET /api/docs/openapi.json.

//go:generate sh -c "cd docsui && npm ci --ignore-scripts --no-audit --no-fund && npm run build"

//go:embed docsui/dist/swagger-ui-bundle.js
var uiBundle []byte

//go:embed docsui/dist/swagger-ui.css
var uiStyle string

// uiStart starts Swagger UI on the document. Paths are relative to the
// page (/api/docs), so the page also works behind a proxy that moves it
// under a prefix. The validator badge (which would ask
// validator.swagger.io) is off; "Try it out" sends requests to the
// document's server, "/", i.e. the server that serves the page.
const uiStart = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: new URL("docs/openapi.json", document.baseURI).href,
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    displayOperationId: true,
    displayRequestDuration: true,
    filter: true,
    validatorUrl: null,
    persistAuthorization: false
  });
});`

// uiLocalStyle adjusts Swagger UI's default look for a page with no top bar.
const uiLocalStyle = `body{margin:0;background:#fafafa}.swagger-ui .information-container{padding-top:1em}`

// pageCSP is the page's Content Security Policy: scripts only from this
// server (the bundle) or the inline start script by its digest; styles
// inline (Swagger UI sets style attributes); images inline or made in the
// page; requests only to this server. Nothing is loaded from elsewhere.
var pageCSP = "default-src 'none'; script-src 'self' 'sha256-" + digest(uiStart) + "'; " +
	"style-src 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func digest(s string) string {
	d := sha256.Sum256([]byte(s))
	return base64.StdEncoding.EncodeToString(d[:])
}

// renderPage writes the page that starts Swagger UI on the document.
func renderPage(root *yaml.Node) ([]byte, error) {
	var head struct {
		Info struct {
			Title string `yaml:"title"`
		} `yaml:"info"`
	}
	if err := root.Decode(&head); err != nil {
		return nil, fmt.Errorf("openapi: read the title: %w", err)
	}
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(head.Info.Title))
	// The stylesheet holds no "</style" (TestPageSelfContained).
	fmt.Fprintf(&b, "<style>\n%s\n</style>\n<style>%s</style>\n</head>\n<body>\n", uiStyle, uiLocalStyle)
	fmt.Fprintf(&b, "<noscript><p>This page needs JavaScript. The description it shows is <a href=\"docs/openapi.json\">docs/openapi.json</a>.</p></noscript>\n")
	b.WriteString("<div id=\"swagger-ui\"></div>\n")
	b.WriteString("<script src=\"docs/swagger-ui-bundle.js\"></script>\n")
	fmt.Fprintf(&b, "<script>%s</script>\n</body>\n</html>\n", uiStart)
	return b.Bytes(), nil
}

// ServeBundle answers GET /api/docs/swagger-ui-bundle.js: the renderer.
// Its tag is its digest, so a browser keeps it until the binary changes.
func ServeBundle(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", bundleTag)
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, bundleTag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(uiBundle)
}

var bundleTag = `"` + digest(string(uiBundle))[:27] + `"`
