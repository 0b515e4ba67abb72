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
	st, err := fh.Stat()
	if err != nil {
		return domain.SourceFile{}, badFile(path, 0, "%v", err)
	}
	f, _, err := newFile(ctx, path, fh, st.Size(), b.Formats, l.withDefaults())
	if err == errNoHeader {
		return sourceFile(path, fh, st.Size(), nil)
	}
	if err != nil {
		return domain.SourceFile{}, err
	}
	defer f.src.close()
	return sourceFile(path, fh, st.Size(), f.Title)
}

// sourceFile is the record of the file name of size bytes in r, whose
// title rows are title: its base name, size, SHA-256 and title lines.
func sourceFile(name string, r io.ReaderAt, size int64, title []Row) (domain.SourceFile, error) {
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(r, 0, size)); err != nil {
		return domain.SourceFile{}, badFile(name, 0, "%v", err)
	}
	sf := domain.SourceFile{Name: filepath.Base(name), Size: size, SHA256: hex.EncodeToString(h.Sum(nil))}
	for _, r := range title {
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
