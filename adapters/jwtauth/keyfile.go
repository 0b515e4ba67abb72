package jwtauth

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// KeyFile is the key ring as kept on disk (mode 0600, JSON): the last key
// signs, the others only verify until Retired + the token lifetime has
// passed. A file that is not JSON is a single raw key (at least 32 bytes),
// as --signing-key-file took before key rotation existed.
type KeyFile struct {
	Keys []FileKey `json:"keys"`
	// raw is set for a file holding a bare key.
	raw bool
}

// FileKey is one key of a KeyFile.
type FileKey struct {
	ID      string    `json:"kid"`
	Secret  []byte    `json:"secret"` // base64
	Created time.Time `json:"created"`
	// Retired is when a newer key replaced it; zero for the signing key.
	Retired time.Time `json:"retired,omitzero"`
}

// Ring returns the keys for NewRing, the signing key last.
func (f *KeyFile) Ring() []Key {
	out := make([]Key, len(f.Keys))
	for i, k := range f.Keys {
		out[i] = Key{ID: k.ID, Secret: k.Secret}
	}
	return out
}

// ReadKeyFile reads a key file. It returns an error wrapping fs.ErrNotExist
// when there is none.
func ReadKeyFile(path string) (*KeyFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if trimmed := bytes.TrimSpace(b); len(trimmed) > 0 && trimmed[0] == '{' {
		var f KeyFile
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("signing key file %s: %v", path, err)
		}
		if len(f.Keys) == 0 {
			return nil, fmt.Errorf("signing key file %s holds no key", path)
		}
		for _, k := range f.Keys {
			if len(k.Secret) < 32 || k.ID == "" {
				return nil, fmt.Errorf("signing key file %s: key %q is shorter than 32 bytes or has no id", path, k.ID)
			}
		}
		return &f, nil
	}
	if len(b) < 32 {
		return nil, fmt.Errorf("signing key file %s: the key must be at least 32 bytes", path)
	}
	return &KeyFile{Keys: []FileKey{{ID: KeyID(b), Secret: b}}, raw: true}, nil
}

// NewKey makes a key of 256 random bits.
func NewKey(now time.Time) (FileKey, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return FileKey{}, err
	}
	return FileKey{ID: KeyID(b), Secret: b, Created: now.UTC()}, nil
}

// OpenKeyFile reads the key file at path, creating it when there is none:
// with legacy, when given (a key an older version kept in the database, so
// that its tokens keep working), or else with a new random key. Two
// processes creating it at once end with the same file: it is written under
// another name and linked into place, which fails when the file exists.
func OpenKeyFile(path string, legacy []byte, now time.Time) (f *KeyFile, created bool, err error) {
	f, err = ReadKeyFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return f, false, err
	}
	var k FileKey
	if len(legacy) > 0 {
		k = FileKey{ID: KeyID(legacy), Secret: legacy, Created: now.UTC()}
	} else if k, err = NewKey(now); err != nil {
		return nil, false, err
	}
	f = &KeyFile{Keys: []FileKey{k}}
	if err := f.write(path, false); err != nil {
		if errors.Is(err, fs.ErrExist) {
			f, err = ReadKeyFile(path)
			return f, false, err
		}
		return nil, false, err
	}
	return f, true, nil
}

// Rotate adds a new signing key, retires the current one, and forgets keys
// retired longer than ttl (the token lifetime) ago, then writes the file.
func (f *KeyFile) Rotate(path string, ttl time.Duration, now time.Time) (FileKey, error) {
	k, err := NewKey(now)
	if err != nil {
		return FileKey{}, err
	}
	kept := f.Keys[:0:0]
	for _, old := range f.Keys {
		if old.Retired.IsZero() {
			old.Retired = now.UTC()
		}
		if now.Sub(old.Retired) <= ttl {
			kept = append(kept, old)
		}
	}
	next := &KeyFile{Keys: append(kept, k)}
	if err := next.write(path, true); err != nil {
		return FileKey{}, err
	}
	*f = *next
	return k, nil
}

// write stores the file with mode 0600 through a temporary file in the same
// directory; replace says whether an existing file may be replaced.
func (f *KeyFile) write(path string, replace bool) error {
	b, err := json.MarshalIndent(f, "", "  ")
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
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if replace {
		return os.Rename(tmp.Name(), path)
	}
	return os.Link(tmp.Name(), path)
}
