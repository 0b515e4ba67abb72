package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
)

// defaultKeyFile is where the signing keys of a bbolt database live by
// default: next to it.
func defaultKeyFile(db string) string { return db + ".keys" }

// urlKeyFile is the key file of a database URL when no flag names one: in
// the working directory. Several servers of one database must share one
// file, so they should be given --signing-key-file.
const urlKeyFile = "costdb.keys"

// keyFileFor returns the key file of a server or command: the flag's, or
// the default next to a bbolt file (urlKeyFile for a database URL).
func keyFileFor(db, flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if isDatabaseURL(db) {
		return urlKeyFile, nil
	}
	return defaultKeyFile(db), nil
}

// signingKeys opens the key file for a server, creating it on first start.
// A key an older costdb kept in the database is moved into the new file
// (so that its tokens keep working) and blanked in the database.
func signingKeys(ctx context.Context, st app.Store, path string, log *slog.Logger) (*jwtauth.Tokens, error) {
	plain := app.New(storecache.New(st), nil, app.Config{})
	legacy, err := plain.LegacySigningKey(ctx)
	if err != nil {
		return nil, err
	}
	f, created, err := jwtauth.OpenKeyFile(path, legacy, time.Now())
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	if created && log != nil {
		log.Info("signing key file created", "path", path, "from_database", legacy != nil)
	}
	if legacy != nil {
		held := false
		for _, k := range f.Keys {
			held = held || bytes.Equal(k.Secret, legacy)
		}
		if held {
			if err := plain.ForgetLegacySigningKey(ctx); err != nil {
				return nil, err
			}
		} else if log != nil {
			log.Warn("the database holds a signing key the key file does not; tokens it signed no longer verify", "path", path)
		}
	}
	tokens, err := jwtauth.NewRing(f.Ring())
	if err != nil {
		return nil, err
	}
	tokens.Reload = func() ([]jwtauth.Key, error) {
		f, err := jwtauth.ReadKeyFile(path)
		if err != nil {
			return nil, err
		}
		return f.Ring(), nil
	}
	return tokens, nil
}

// rotateKeyFile adds a new signing key to the file, keeping the keys
// retired within ttl, and returns the new key's id.
func rotateKeyFile(path string, ttl time.Duration) (string, error) {
	f, err := jwtauth.ReadKeyFile(path)
	if err != nil {
		return "", err
	}
	k, err := f.Rotate(path, ttl, time.Now())
	if err != nil {
		return "", err
	}
	return k.ID, nil
}

// runKeys runs "costdb keys rotate|list".
func runKeys(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "rotate" && args[0] != "list") {
		fmt.Fprintln(stderr, "usage: costdb keys rotate|list --db PATH [--signing-key-file FILE] [--token-ttl DURATION]")
		return errUsage
	}
	fs := newFlagSet("costdb keys "+args[0], stderr)
	db := fs.String("db", "./costdb.db", "bbolt database file or database URL")
	keyFile := fs.String("signing-key-file", "", "file holding the token signing keys (default: the database's path + .keys)")
	ttl := fs.Duration("token-ttl", 24*time.Hour, "lifetime of access tokens: keys retired longer ago are forgotten")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	path, err := keyFileFor(*db, *keyFile)
	if err != nil {
		return err
	}
	if args[0] == "list" {
		f, err := jwtauth.ReadKeyFile(path)
		if err != nil {
			return err
		}
		type row struct {
			ID      string    `json:"kid"`
			Created time.Time `json:"created,omitzero"`
			Retired time.Time `json:"retired,omitzero"`
			Signing bool      `json:"signing"`
		}
		enc := json.NewEncoder(stdout)
		for i, k := range f.Keys {
			if err := enc.Encode(row{k.ID, k.Created, k.Retired, i == len(f.Keys)-1}); err != nil {
				return err
			}
		}
		return nil
	}
	op, err := connect(ctx, connectOptions{DB: *db, SigningKeyFile: path, TokenTTL: *ttl})
	if err != nil {
		return err
	}
	defer op.Close()
	kid, err := op.RotateKey(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "new signing key %s; tokens signed with the older keys stay valid until they expire\n", kid)
	return nil
}
