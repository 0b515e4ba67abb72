package app_test

import (
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
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

// TestWiringAboveAdapters keeps the wiring out of the adapters: no package
// under adapters/httpapi depends, even through another package, on a
// storage engine (adapters/boltstore, adapters/pgstore), and no adapter
// depends on the wiring (cmd, bench). Test files are not counted: the HTTP
// tests run on both engines through cmd/enginetest.
func TestWiringAboveAdapters(t *testing.T) {
	rules := []struct {
		dir       string   // the packages under it are checked
		forbidden []string // package path prefixes, under the module
	}{
		{"../adapters/httpapi", []string{"adapters/boltstore", "adapters/pgstore", "cmd", "bench"}},
		{"../adapters", []string{"cmd", "bench"}},
	}
	for _, r := range rules {
		for _, dir := range packageDirs(t, r.dir) {
			deps := projectDeps(t, dir)
			for _, dep := range deps {
				rel := strings.TrimPrefix(dep, module+"/")
				for _, f := range r.forbidden {
					if rel == f || strings.HasPrefix(rel, f+"/") {
						t.Errorf("%s depends on %s (through its non-test imports), which it must not", dir, dep)
					}
				}
			}
		}
	}
}

// TestWiringCheckCatchesADependency checks the walk of
// TestWiringAboveAdapters: the engine matrix, which imports both stores,
// is found to depend on them.
func TestWiringCheckCatchesADependency(t *testing.T) {
	deps := strings.Join(projectDeps(t, "../cmd/enginetest"), " ")
	for _, want := range []string{module + "/adapters/boltstore", module + "/adapters/pgstore", module + "/adapters/httpapi/apitest", module + "/domain"} {
		if !strings.Contains(deps+" ", want+" ") {
			t.Errorf("the dependencies of cmd/enginetest miss %s: %s", want, deps)
		}
	}
}

// packageDirs lists the directories under root that hold a Go package
// (test-only directories and testdata left out).
func packageDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if _, err := build.ImportDir(path, 0); err == nil {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatalf("no Go package under %s", root)
	}
	return dirs
}

// projectDeps returns the module's packages the package in dir imports,
// directly or through another of them, without test files.
func projectDeps(t *testing.T, dir string) []string {
	t.Helper()
	seen := map[string]bool{}
	var walk func(dir string)
	walk = func(dir string) {
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, imp := range p.Imports {
			if seen[imp] || !strings.HasPrefix(imp, module+"/") {
				continue
			}
			seen[imp] = true
			walk(filepath.Join("..", filepath.FromSlash(strings.TrimPrefix(imp, module+"/"))))
		}
	}
	walk(dir)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
