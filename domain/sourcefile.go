package domain

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
