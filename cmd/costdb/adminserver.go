package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/server"
	"github.com/costdb/costdb/adapters/metrics"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5/middleware"
)

// The admin listener is a second HTTP listener of `serve`, on a loopback
// address only. It serves /metrics, /healthz and /readyz to anyone on the
// host, and the operator commands (/admin/…) to whoever presents the
// secret of the admin file: a file next to the database, mode 0600, that
// names the listener's address. Only the service's user (and root) can read
// it, so only they can run the commands against the running server.

// adminFile is the content of the admin file.
type adminFile struct {
	Addr   string `json:"addr"`
	Secret string `json:"secret"`
	PID    int    `json:"pid"`
}

// adminFilePath is the admin file of a bbolt database.
func adminFilePath(db string) string { return db + ".admin" }

// defaultAdminAddr is the admin address when none is given: loopback, on
// the port after the API's (8081 for 8080), or any free port when the API's
// is 0.
func defaultAdminAddr(apiAddr string) string {
	_, port, err := net.SplitHostPort(apiAddr)
	if err != nil {
		return "127.0.0.1:0"
	}
	var p int
	if _, err := fmt.Sscanf(port, "%d", &p); err != nil || p <= 0 || p >= 65535 {
		return "127.0.0.1:0"
	}
	return fmt.Sprintf("127.0.0.1:%d", p+1)
}

// checkLoopback refuses an admin address that is not on a loopback
// interface.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--admin-addr %q: %v", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--admin-addr %q: the admin listener listens on a loopback address only (such as 127.0.0.1:8081)", addr)
	}
	return nil
}

// newAdminSecret makes the secret of an admin file.
func newAdminSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// writeAdminFile writes the admin file (mode 0600) through a temporary
// file, so a reader never sees half of it.
func writeAdminFile(path string, f adminFile) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// removeAdminFile removes the admin file if it is still this server's.
func removeAdminFile(path, secret string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var f adminFile
	if json.Unmarshal(b, &f) == nil && f.Secret == secret {
		_ = os.Remove(path)
	}
}

// metricsHandler is the metrics listener's HTTP surface (--metrics-addr):
// /metrics and the probes, read-only and carrying no record, which is why
// it may listen on any address (a container's, for Prometheus). Nothing
// else answers there: the operator commands stay on the admin listener,
// which listens on loopback only.
func metricsHandler(m *metrics.Metrics, env *httpapi.Env) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	mux.HandleFunc("GET /healthz", server.Healthz)
	mux.Handle("GET /readyz", server.Readyz(env))
	return mux
}

// adminHandler is the admin listener's HTTP surface.
func adminHandler(ops *adminOps, secret string, m *metrics.Metrics, env *httpapi.Env, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	mux.HandleFunc("GET /healthz", server.Healthz)
	mux.Handle("GET /readyz", server.Readyz(env))

	api := http.NewServeMux()
	api.HandleFunc("GET /admin/ping", func(w http.ResponseWriter, _ *http.Request) {
		writeAdminJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	api.HandleFunc("POST /admin/import", func(w http.ResponseWriter, r *http.Request) {
		// The body is {"editions": n}, then n editions, each decoded when
		// the import asks for it (one edition is held at a time), then
		// {"end": true}. The import commits only once the end arrived: a
		// command stopped after its last edition but before the end
		// writes nothing.
		dec := json.NewDecoder(r.Body)
		var head importHead
		if err := dec.Decode(&head); err != nil || head.Editions < 0 {
			writeAdminError(w, domain.Errorf(domain.EBADREQUEST, "bad import header: %v", err))
			return
		}
		readEnd := func() error {
			var end importEnd
			if err := dec.Decode(&end); err != nil || !end.End {
				return domain.Errorf(domain.EBADREQUEST, "the import's body ended before its end mark (the command stopped?): %v", err)
			}
			return nil
		}
		if head.Editions == 0 {
			if err := readEnd(); err != nil {
				writeAdminError(w, err)
				return
			}
		}
		next := 0
		sums, err := ops.Import(r.Context(), head.Editions, func(i int) (*app.EditionData, error) {
			if i != next {
				return nil, fmt.Errorf("the import asked for edition %d again; a streamed import cannot be replayed", i)
			}
			next++
			var d *app.EditionData // null: nothing to import at i
			if err := dec.Decode(&d); err != nil {
				return nil, domain.Errorf(domain.EBADREQUEST, "edition %d of the import: %v", i, err)
			}
			if i == head.Editions-1 {
				if err := readEnd(); err != nil {
					return nil, err
				}
			}
			return d, nil
		})
		if err != nil {
			writeAdminError(w, err)
			return
		}
		writeAdminJSON(w, http.StatusOK, sums)
	})
	api.HandleFunc("POST /admin/import/changes", adminCall(ops.ImportChangeLog))
	api.HandleFunc("POST /admin/import/charges", adminCall(func(ctx context.Context, tables []*domain.ChargesTable) (bool, error) {
		return true, ops.PutChargesTables(ctx, tables)
	}))
	api.HandleFunc("POST /admin/users/add", adminCall(ops.AddUser))
	api.HandleFunc("POST /admin/users/list", adminCall(ops.ListUsers))
	api.HandleFunc("POST /admin/users/reset-secret", adminCall(func(ctx context.Context, in struct{ Email string }) (*userSecret, error) {
		return ops.ResetSecret(ctx, in.Email)
	}))
	api.HandleFunc("POST /admin/users/disable", adminCall(func(ctx context.Context, sel app.UserSelector) (int, error) {
		return ops.SetDisabled(ctx, sel, true)
	}))
	api.HandleFunc("POST /admin/users/enable", adminCall(func(ctx context.Context, sel app.UserSelector) (int, error) {
		return ops.SetDisabled(ctx, sel, false)
	}))
	api.HandleFunc("POST /admin/users/revoke-tokens", adminCall(ops.RevokeTokens))
	api.HandleFunc("POST /admin/keys/rotate", adminCall(func(ctx context.Context, _ struct{}) (string, error) {
		return ops.RotateKey(ctx)
	}))
	api.HandleFunc("GET /admin/backup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		// A failure half-way cuts the stream; the command's check of the
		// copy then fails.
		_, _ = ops.Backup(r.Context(), w)
	})
	want := []byte("Bearer " + secret)
	mux.Handle("/admin/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			writeAdminError(ww, domain.Errorf(domain.EUNAUTHORIZED, "the admin secret is missing or wrong"))
		} else {
			api.ServeHTTP(ww, r)
		}
		// An audit line per operator command: which, and how it ended.
		log.Info("admin command", "path", r.URL.Path, "status", ww.Status(), "bytes", ww.BytesWritten(), "duration", time.Since(start))
	}))
	return mux
}

// importHead opens the body of an import.
type importHead struct {
	Editions int `json:"editions"`
}

// importEnd closes the body of an import.
type importEnd struct {
	End bool `json:"end"`
}

// adminCall turns an operation into a handler of a JSON request.
func adminCall[In, Out any](fn func(context.Context, In) (Out, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in In
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			writeAdminError(w, domain.Errorf(domain.EBADREQUEST, "bad request body: %v", err))
			return
		}
		out, err := fn(r.Context(), in)
		if err != nil {
			writeAdminError(w, err)
			return
		}
		writeAdminJSON(w, http.StatusOK, out)
	}
}

// adminError is an error as the admin listener sends it.
type adminError struct {
	Code    string              `json:"code"`
	Message string              `json:"message"`
	Fields  []domain.FieldError `json:"fields,omitempty"`
}

func writeAdminError(w http.ResponseWriter, err error) {
	code := domain.ErrorCode(err)
	var de *domain.Error
	msg := err.Error()
	if errors.As(err, &de) {
		msg = domain.ErrorMessage(err)
	}
	// At most domain.MaxFieldErrors fields, then one that counts the rest.
	fields, more := domain.ListedFields(err)
	if more > 0 {
		fields = append(fields[:len(fields):len(fields)], domain.FieldError{Message: domain.MoreFieldErrors(more)})
	}
	writeAdminJSON(w, httpapi.Status(err), adminError{Code: code, Message: msg, Fields: fields})
}

func writeAdminJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
