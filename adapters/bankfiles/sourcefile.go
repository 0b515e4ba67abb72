package bankfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"path/filepath"
	"strings"

	"github.com/costdb/costdb/domain"
)

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
