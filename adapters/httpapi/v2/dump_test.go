package v2_test

import "os"

// dump writes a document a test fetched into the folder DUMPDIR names (when
// it is set), so that a person can open it and look: `DUMPDIR=/some/dir go
// test ./adapters/httpapi/v2 -run TestContractDocuments`.
func dump(name string, b []byte) {
	if dir := os.Getenv("DUMPDIR"); dir != "" {
		_ = os.WriteFile(dir+"/"+name, b, 0o644)
	}
}
