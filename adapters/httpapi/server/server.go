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

// Handler returns the whole HTTP surface: /healthz, /api/v1/…,
// /api/public/v2/…, and the API's description (adapters/httpapi/openapi) at
// /api/docs (a reference page) and /api/docs/openapi.json (OpenAPI 3.1).
func Handler(env *httpapi.Env) http.Handler {
	r := chi.NewRouter()
	r.Use(env.Recoverer(func(w http.ResponseWriter, _ *http.Request, _ error) {
		httpapi.WriteJSON(w, "application/json", http.StatusInternalServerError, map[string]string{"message": "internal error"})
	}))
	r.NotFound(func(w http.ResponseWriter, req *http.Request) {
		httpapi.WriteJSON(w, "application/json", http.StatusNotFound, map[string]string{"message": "no such path: " + req.URL.Path})
	})
	r.Get("/healthz", func(w http.ResponseWriter, req *http.Request) {
		if err := env.App.Health(req.Context()); err != nil {
			env.LogError(req, err)
			httpapi.WriteJSON(w, "application/json", http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
			return
		}
		httpapi.WriteJSON(w, "application/json", http.StatusOK, map[string]string{"status": "ok"})
	})
	r.Get("/api/docs", openapi.ServePage)
	r.Get("/api/docs/openapi.json", openapi.ServeJSON)
	r.Mount("/api/v1", v1.Routes(env))
	r.Mount("/api/public/v2", v2.Routes(env))
	return r
}

// Timeouts are the server's time limits.
type Timeouts struct {
	ReadHeader time.Duration
	Read       time.Duration
	Write      time.Duration
	Idle       time.Duration
}

// DefaultTimeouts are the limits used unless configured.
var DefaultTimeouts = Timeouts{ReadHeader: 5 * time.Second, Read: 30 * time.Second, Write: 60 * time.Second, Idle: 120 * time.Second}

// New returns an http.Server for addr serving h with the timeouts t.
func New(addr string, h http.Handler, t Timeouts) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    64 << 10,
	}
}
