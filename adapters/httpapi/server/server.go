// Package server mounts both API generations and the health check on one
// chi router, and builds the http.Server with its timeouts.
package server

import (
	"net/http"
	"time"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/openapi"
	v1 "github.com/costdb/costdb/adapters/httpapi/v1"
	v2 "github.com/costdb/costdb/adapters/httpapi/v2"
	"github.com/go-chi/chi/v5"
)

// Handler returns the whole HTTP surface: /healthz, /readyz, /api/v1/…,
// /api/public/v2/…, and the API's description (adapters/httpapi/openapi) at
// /api/docs (a reference page, its renderer /api/docs/swagger-ui-bundle.js),
// /api/docs/openapi.json (OpenAPI 3.1) and /api/docs/openapi-3.0.json (its
// 3.0.3 rendition, for generators that read only 3.0).
func Handler(env *httpapi.Env) http.Handler {
	if env.Responses == nil { // one response cache for v1 and v2
		e := *env
		e.Responses = httpapi.NewResponses(env.ResponseCacheBytes)
		env = &e
	}
	r := chi.NewRouter()
	r.Use(accessLog(env))
	r.Use(env.Recoverer(func(w http.ResponseWriter, _ *http.Request, _ error) {
		httpapi.WriteJSON(w, "application/json", http.StatusInternalServerError, map[string]string{"message": "internal error"})
	}))
	r.NotFound(func(w http.ResponseWriter, req *http.Request) {
		httpapi.WriteJSON(w, "application/json", http.StatusNotFound, map[string]string{"message": "no such path: " + req.URL.Path})
	})
	r.Get("/healthz", Healthz)
	r.Get("/readyz", Readyz(env))
	r.Get("/api/docs", openapi.ServePage)
	r.Get("/api/docs/openapi.json", openapi.ServeJSON)
	r.Get("/api/docs/swagger-ui-bundle.js", openapi.ServeBundle)
	r.Get("/api/docs/openapi-3.0.json", openapi.ServeJSON30)
	r.Mount("/api/v1", v1.Routes(env))
	r.Mount("/api/public/v2", v2.Routes(env))
	return r
}

// Timeouts are the server's time limits. Zero turns one off.
type Timeouts struct {
	// ReadHeader bounds reading a request's line and headers.
	ReadHeader time.Duration
	// Body bounds reading a request's body, from the moment the handler
	// starts: a client that trickles its body has its connection closed
	// when it runs out. It applies only to requests with a body and ends
	// once the body has been read, so a long answer to a short request is
	// not cut.
	Body time.Duration
	// Read bounds reading the whole request, headers and body, counted
	// from its first byte; off by default, as ReadHeader and Body cover
	// what it would.
	Read time.Duration
	// Write bounds the time from the end of the request's headers to the
	// end of the answer.
	Write time.Duration
	// Idle bounds the wait for the next request on a keep-alive
	// connection; the connection is closed after it.
	Idle time.Duration
}

// DefaultTimeouts are the limits used unless configured.
var DefaultTimeouts = Timeouts{ReadHeader: 5 * time.Second, Body: 10 * time.Second, Write: 60 * time.Second, Idle: 60 * time.Second}

// New returns an http.Server for addr serving h with the timeouts t.
func New(addr string, h http.Handler, t Timeouts) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           bodyDeadline(t.Body, h),
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    64 << 10,
	}
}

// bodyDeadline is middleware that gives the body of a request d to arrive:
// the connection's read deadline is set to d from now. When it passes,
// reading the body fails and the server closes the connection after
// answering. net/http lifts the deadline itself once the body has been read
// to its end (it then starts its background read with none), so a long
// answer to a short request is not cut (TestBodyDeadlineEndsWithBody).
func bodyDeadline(d time.Duration, next http.Handler) http.Handler {
	if d <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
		}
		next.ServeHTTP(w, r)
	})
}
