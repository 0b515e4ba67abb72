package bankfiles

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/costdb/costdb/domain"
)

// Fingerprint returns the record an import keeps of the file at path: its
// base name, size, SHA-256 and the title rows above the header found as
// Importer.Add finds it (none when no format of the bank knows the header).
func (b Bank) Fingerprint(ctx context.Context, path string, l Limits) (domain.SourceFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return domain.SourceFile{}, badFile(path, 0, "%v", err)
	}
	defer fh.Close()
	h := sha256.New()
	n, err := io.Copy(h, fh)
	if err != nil {
		return domain.SourceFile{}, badFile(path, 0, "%v", err)
	}
	sf := domain.SourceFile{Name: filepath.Base(path), Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return domain.SourceFile{}, badFile(path, 0, "%v", err)
	}
	f, _, err := newFile(ctx, path, fh, n, b.Formats, l.withDefaults())
	if err == errNoHeader {
		return sf, nil
	}
	if err != nil {
		return domain.SourceFile{}, err
	}
	defer f.src.close()
	for _, r := range f.Title {
		var cells []string
		for _, c := range r.Cells {
			if c = strings.TrimSpace(c); c != "" {
				cells = append(cells, c)
			}
		}
		if len(cells) > 0 {
			sf.Titles = append(sf.Titles, strings.Join(cells, " "))
		}
	}
	return sf, nil
}
