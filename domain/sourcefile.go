package domain

import (
	"slices"
	"strings"
)

// SourceFile is what an import records of one official file it read, so
// that a budget priced from the edition can be checked against the files
// later: the file's base name, its size in bytes, the SHA-256 of its bytes
// (lower-case hex) and the publisher's title lines (the rows above the
// header, as written, one line per row, empty cells left out).
type SourceFile struct {
	Name   string   `json:"name"`
	Size   int64    `json:"size"`
	SHA256 string   `json:"sha256"`
	Titles []string `json:"titles,omitempty"`
}

// MergeFiles is an edition's files after an import that merges into it
// (the other regime's files, read later): the files of old the import did
// not read again and the files read now, sorted by name, so that importing
// regime by regime records what importing all at once does. A file is the
// same file when its name is.
func MergeFiles(old, now []SourceFile) []SourceFile {
	if len(old) == 0 && len(now) == 0 {
		return nil
	}
	read := make(map[string]bool, len(now))
	for _, f := range now {
		read[f.Name] = true
	}
	var out []SourceFile
	for _, f := range old {
		if !read[f.Name] {
			out = append(out, f)
		}
	}
	out = append(out, now...)
	slices.SortStableFunc(out, func(a, b SourceFile) int { return strings.Compare(a.Name, b.Name) })
	return out
}
