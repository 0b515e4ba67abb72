package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// adminClient runs the operator commands in a running server, through its
// admin listener.
type adminClient struct {
	base, secret string
	http         *http.Client
}

// dialAdmin returns a client of the server whose admin file is at path, or
// nil when no server answers there (no file, or a file left by a server
// that is gone): the command then opens the database itself.
func dialAdmin(ctx context.Context, path string) (*adminClient, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if errors.Is(err, fs.ErrPermission) {
		return nil, fmt.Errorf("a server holds the database, but its admin file %s is not readable: run the command as the service's user", path)
	} else if err != nil {
		return nil, err
	}
	var f adminFile
	if err := json.Unmarshal(b, &f); err != nil || f.Addr == "" || f.Secret == "" {
		return nil, nil
	}
	c := &adminClient{base: "http://" + f.Addr, secret: f.Secret, http: &http.Client{}}
	pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := c.do(pctx, "GET", "/admin/ping", nil, nil); err != nil {
		return nil, nil // stale file
	}
	return c, nil
}

func (c *adminClient) Close() error { return nil }

// do sends a request with a JSON body (none when in is nil) and decodes the
// JSON answer into out.
func (c *adminClient) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		// Streamed: an import's body may be large.
		pr, pw := io.Pipe()
		go func() {
			if s, ok := in.(importStream); ok {
				pw.CloseWithError(s.encode(pw))
				return
			}
			pw.CloseWithError(json.NewEncoder(pw).Encode(in))
		}()
		body = pr
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.secret)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return readAdminError(resp)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// readAdminError rebuilds the error the server answered.
func readAdminError(resp *http.Response) error {
	var e adminError
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || e.Message == "" {
		return fmt.Errorf("the server answered %s", resp.Status)
	}
	if e.Code == "" || e.Code == domain.EINTERNAL {
		return errors.New(e.Message)
	}
	return &domain.Error{Code: e.Code, Message: e.Message, Fields: e.Fields}
}

func (c *adminClient) Import(ctx context.Context, n int, edition func(int) (*app.EditionData, error)) ([]app.ImportSummary, error) {
	var out []app.ImportSummary
	err := c.do(ctx, "POST", "/admin/import", importStream{ctx, n, edition}, &out)
	return out, err
}

func (c *adminClient) ImportChangeLog(ctx context.Context, log changeLogImport) ([]app.ChangeMonthSummary, error) {
	var out []app.ChangeMonthSummary
	err := c.do(ctx, "POST", "/admin/import/changes", log, &out)
	return out, err
}

func (c *adminClient) PutChargesTables(ctx context.Context, tables []*domain.ChargesTable) error {
	var ok bool
	return c.do(ctx, "POST", "/admin/import/charges", tables, &ok)
}

// importStream is an import's body: its header, then each edition, built
// when it is encoded, then the end mark, written only while ctx is live:
// a command stopped before it wrote the end mark writes nothing.
type importStream struct {
	ctx     context.Context
	n       int
	edition func(int) (*app.EditionData, error)
}

func (s importStream) encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	if err := enc.Encode(importHead{Editions: s.n}); err != nil {
		return err
	}
	for i := 0; i < s.n; i++ {
		d, err := s.edition(i)
		if err != nil {
			return err
		}
		if err := s.ctx.Err(); err != nil {
			return err
		}
		if err := enc.Encode(d); err != nil {
			return err
		}
	}
	if err := s.ctx.Err(); err != nil {
		return err
	}
	return enc.Encode(importEnd{End: true})
}

func (c *adminClient) AddUser(ctx context.Context, in app.NewUserInput) (*userSecret, error) {
	var out userSecret
	if err := c.do(ctx, "POST", "/admin/users/add", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

func (c *adminClient) ListUsers(ctx context.Context, sel app.UserSelector) ([]app.UserInfo, error) {
	var out []app.UserInfo
	err := c.do(ctx, "POST", "/admin/users/list", sel, &out)
	return out, err
}

func (c *adminClient) ResetSecret(ctx context.Context, email string) (*userSecret, error) {
	var out userSecret
	if err := c.do(ctx, "POST", "/admin/users/reset-secret", struct{ Email string }{email}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

func (c *adminClient) SetDisabled(ctx context.Context, sel app.UserSelector, disabled bool) (int, error) {
	path := "/admin/users/enable"
	if disabled {
		path = "/admin/users/disable"
	}
	var n int
	err := c.do(ctx, "POST", path, sel, &n)
	return n, err
}

func (c *adminClient) RevokeTokens(ctx context.Context, sel app.UserSelector) (int, error) {
	var n int
	err := c.do(ctx, "POST", "/admin/users/revoke-tokens", sel, &n)
	return n, err
}

func (c *adminClient) RotateKey(ctx context.Context) (string, error) {
	var kid string
	err := c.do(ctx, "POST", "/admin/keys/rotate", struct{}{}, &kid)
	return kid, err
}

func (c *adminClient) Backup(ctx context.Context, w io.Writer) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+"/admin/backup", nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.secret)
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, readAdminError(resp)
	}
	return io.Copy(w, resp.Body)
}
