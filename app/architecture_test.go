package app_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/costdb/costdb"

// allowedOutside lists the non-standard packages each layer may import.
var allowedOutside = map[string][]string{
	"../domain":  {"github.com/shopspring/decimal"},
	".":          {"github.com/shopspring/decimal", module + "/domain"},
	"storecache": {"github.com/shopspring/decimal", module + "/domain", module + "/app"},
}

// TestDependencyDirection keeps the hexagon's shape: the domain imports
// nothing of the project and no infrastructure; app imports only the domain;
// its speed layer, app/storecache, only app and the domain.
func TestDependencyDirection(t *testing.T) {
	for dir, allowed := range allowedOutside {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no Go files in %s", dir)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				first := strings.SplitN(path, "/", 2)[0]
				if !strings.Contains(first, ".") {
					continue // standard library
				}
				ok := false
				for _, a := range allowed {
					if path == a || strings.HasPrefix(path, a+"/") {
						ok = true
					}
				}
				if !ok {
					t.Errorf("%s imports %s, which its layer must not depend on", f, path)
				}
			}
		}
	}
}
