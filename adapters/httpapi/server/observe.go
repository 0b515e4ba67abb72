package server

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// Healthz answers 200 while the process serves HTTP at all.
func Healthz(w http.ResponseWriter, _ *http.Request) {
	httpapi.WriteJSON(w, "application/json", http.StatusOK, map[string]string{"status": "ok"})
}

// Readyz answers 200 when the store answers and env.Ready (draining,
// migrations) has nothing against it, 503 otherwise.
func Readyz(env *httpapi.Env) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ctx, cancel := context.WithTimeout(req.Context(), 5*time.Second)
		defer cancel()
		err := env.App.Health(ctx)
		if err == nil && env.Ready != nil {
			err = env.Ready(ctx)
		}
		if err != nil {
			env.LogError(req, err)
			httpapi.WriteJSON(w, "application/json", http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
			return
		}
		httpapi.WriteJSON(w, "application/json", http.StatusOK, map[string]string{"status": "ok"})
	}
}

// accessLog is middleware that gives every request an id (the client's
// X-Request-Id when valid, else a new one), echoes it in the answer, and
// once answered writes one access-log line and tells the metrics. The line
// holds the route pattern, never the raw path, and no header, token or body.
func accessLog(env *httpapi.Env) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if env.AccessLog == nil && env.ObserveRequest == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			ri := &httpapi.RequestInfo{ID: httpapi.RequestID(r.Header.Get("X-Request-Id"))}
			w.Header().Set("X-Request-Id", ri.ID)
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			defer func() {
				status := ww.Status()
				if status == 0 {
					status = http.StatusOK
				}
				route := "unmatched"
				if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
					route = rc.RoutePattern()
				}
				took := time.Since(start)
				if env.ObserveRequest != nil {
					env.ObserveRequest(r.Method, route, status, took)
				}
				if env.AccessLog != nil {
					env.AccessLog.LogAttrs(r.Context(), levelFor(status), "request",
						slog.String("request_id", ri.ID), slog.String("method", r.Method), slog.String("route", route),
						slog.Int("status", status), slog.Int("bytes", ww.BytesWritten()),
						slog.Duration("duration", took), slog.String("company_id", ri.CompanyID))
				}
			}()
			next.ServeHTTP(ww, r.WithContext(httpapi.WithRequestInfo(r.Context(), ri)))
		})
	}
}

// levelFor logs server errors as errors, the rest as information.
func levelFor(status int) slog.Level {
	if status >= 500 {
		return slog.LevelError
	}
	return slog.LevelInfo
}
