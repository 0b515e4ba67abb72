package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/metrics"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
)

// operator is what the operator commands (import, users, backup, keys) do,
// whether a running server does it for them through its admin listener
// (adminClient) or they do it on the store themselves (adminOps).
type operator interface {
	// Import writes n editions in one transaction, asking edition for each
	// in turn (app.ImportEditionsFunc), so that only one is held at a time.
	Import(ctx context.Context, n int, edition func(i int) (*app.EditionData, error)) ([]app.ImportSummary, error)
	// ImportChangeLog stores a bank's change log (app.ImportChangeLog);
	// PutChargesTables its labour charges tables (app.PutChargesTables).
	ImportChangeLog(ctx context.Context, log changeLogImport) ([]app.ChangeMonthSummary, error)
	PutChargesTables(ctx context.Context, tables []*domain.ChargesTable) error
	AddUser(ctx context.Context, in app.NewUserInput) (*userSecret, error)
	ListUsers(ctx context.Context, sel app.UserSelector) ([]app.UserInfo, error)
	ResetSecret(ctx context.Context, email string) (*userSecret, error)
	SetDisabled(ctx context.Context, sel app.UserSelector, disabled bool) (int, error)
	RevokeTokens(ctx context.Context, sel app.UserSelector) (int, error)
	// Backup writes a consistent copy of a bbolt database to w.
	Backup(ctx context.Context, w io.Writer) (int64, error)
	// RotateKey adds a new token signing key and returns its id.
	RotateKey(ctx context.Context) (string, error)
	Close() error
}

// userSecret is a user with its secret token, as printed once.
type userSecret struct {
	UserID       string `json:"user_id"`
	CompanyID    string `json:"company_id"`
	DepartmentID string `json:"department_id"`
	Email        string `json:"email"`
	SecretToken  string `json:"secret_token"`
}

func toUserSecret(u *app.NewUser) *userSecret {
	return &userSecret{u.User.ID, u.Company.ID, u.Department.ID, u.User.Email, u.SecretToken}
}

// adminOps runs the operator commands on a service: in the command's own
// process when no server runs, or in the server for its admin listener.
type adminOps struct {
	svc *app.Service
	// backup is nil for a store that cannot copy itself (PostgreSQL:
	// pg_dump does it).
	backup func(ctx context.Context, w io.Writer) (int64, error)
	// rotate is nil when the command has no key file to rotate.
	rotate  func() (string, error)
	metrics *metrics.Metrics
	close   func() error
}

func (o *adminOps) Import(ctx context.Context, n int, edition func(int) (*app.EditionData, error)) ([]app.ImportSummary, error) {
	done := func(int, error) {}
	if o.metrics != nil {
		done = o.metrics.ImportStarted()
	}
	records := 0
	if o.metrics != nil {
		o.metrics.ImportProgress(0, n)
	}
	sums, err := o.svc.ImportEditionsFunc(ctx, n, func(i int) (*app.EditionData, error) {
		if o.metrics != nil {
			o.metrics.ImportProgress(i, n) // the ones before i are written
		}
		d, err := edition(i)
		if d != nil {
			records += len(d.Resources) + len(d.Compositions)
		}
		return d, err
	})
	if o.metrics != nil && err == nil {
		o.metrics.ImportProgress(n, n)
	}
	done(records, err)
	return sums, err
}

// changeLogImport is a bank's change log, as the admin listener carries it.
type changeLogImport struct {
	Bank    string              `json:"bank"`
	Changes []domain.BankChange `json:"changes"`
}

func (o *adminOps) ImportChangeLog(ctx context.Context, log changeLogImport) ([]app.ChangeMonthSummary, error) {
	return o.svc.ImportChangeLog(ctx, log.Bank, log.Changes)
}

func (o *adminOps) PutChargesTables(ctx context.Context, tables []*domain.ChargesTable) error {
	return o.svc.PutChargesTables(ctx, tables)
}

// importAll imports editions held in memory.
func importAll(ctx context.Context, op operator, data []app.EditionData) ([]app.ImportSummary, error) {
	return op.Import(ctx, len(data), func(i int) (*app.EditionData, error) { return &data[i], nil })
}

func (o *adminOps) AddUser(ctx context.Context, in app.NewUserInput) (*userSecret, error) {
	u, err := o.svc.AddUser(ctx, in)
	if err != nil {
		return nil, err
	}
	return toUserSecret(u), nil
}

func (o *adminOps) ListUsers(ctx context.Context, sel app.UserSelector) ([]app.UserInfo, error) {
	return o.svc.ListUsers(ctx, sel)
}

func (o *adminOps) ResetSecret(ctx context.Context, email string) (*userSecret, error) {
	u, err := o.svc.ResetSecret(ctx, email)
	if err != nil {
		return nil, err
	}
	return toUserSecret(u), nil
}

func (o *adminOps) SetDisabled(ctx context.Context, sel app.UserSelector, disabled bool) (int, error) {
	return o.svc.SetUsersDisabled(ctx, sel, disabled)
}

func (o *adminOps) RevokeTokens(ctx context.Context, sel app.UserSelector) (int, error) {
	return o.svc.RevokeTokens(ctx, sel)
}

func (o *adminOps) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if o.backup == nil {
		return 0, errors.New("this store is not backed up by costdb: use pg_dump (see docs/operations.md)")
	}
	n, err := o.backup(ctx, w)
	if o.metrics != nil {
		o.metrics.Backup(err)
	}
	return n, err
}

func (o *adminOps) RotateKey(context.Context) (string, error) {
	if o.rotate == nil {
		return "", errors.New("no signing key file to rotate")
	}
	return o.rotate()
}

func (o *adminOps) Close() error {
	if o.close == nil {
		return nil
	}
	return o.close()
}

// isDatabaseURL reports whether --db names a database server (PostgreSQL)
// rather than a bbolt file.
func isDatabaseURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// openStore opens the store --db names. A bbolt file is locked by the
// process that opens it.
func openStore(ctx context.Context, db string, opts boltstore.Options) (app.Store, error) {
	if isDatabaseURL(db) {
		return openURLStore(ctx, db)
	}
	return boltstore.Open(db, opts)
}

// openURLStore opens a store named by a URL; the PostgreSQL adapter plugs
// in here.
var openURLStore = func(context.Context, string) (app.Store, error) {
	return nil, fmt.Errorf("this costdb was built without PostgreSQL support")
}

// connectOptions are the settings an operator command connects with.
type connectOptions struct {
	DB             string
	SigningKeyFile string // the key file `keys rotate` rotates when no server runs
	TokenTTL       time.Duration
	// Bolt are the options of a bbolt file the command opens itself.
	Bolt boltstore.Options
}

// connect returns the operator for --db: the running server's admin
// listener when a server holds the bbolt file (its admin file names it), or
// else the store itself — always the store for a database URL, where every
// process connects on its own.
func connect(ctx context.Context, o connectOptions) (operator, error) {
	if !isDatabaseURL(o.DB) {
		if c, err := dialAdmin(ctx, adminFilePath(o.DB)); err != nil {
			return nil, err
		} else if c != nil {
			return c, nil
		}
	}
	st, err := openStore(ctx, o.DB, o.Bolt)
	if err != nil {
		return nil, err
	}
	ops := &adminOps{svc: app.New(storecache.New(st), nil, app.Config{}), close: st.Close}
	if bs, ok := st.(*boltstore.Store); ok {
		ops.backup = bs.WriteTo
	}
	keyFile := o.SigningKeyFile
	if keyFile == "" && !isDatabaseURL(o.DB) {
		keyFile = defaultKeyFile(o.DB)
	}
	if keyFile != "" {
		ttl := o.TokenTTL
		ops.rotate = func() (string, error) { return rotateKeyFile(keyFile, ttl) }
	}
	return ops, nil
}
