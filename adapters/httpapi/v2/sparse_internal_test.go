package v2

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// fieldsPattern is the pattern the API description gives fields[TYPE] for
// a type of these fields: names separated by commas (spaces around them
// allowed), or empty.
func fieldsPattern(fields []string) string {
	name := " *(" + strings.Join(fields, "|") + ") *"
	return "^(" + name + "(," + name + ")*)?$"
}

// TestFieldsDocumented checks that the API description's V2Fields states
// the fields of every type the server checks, as patterns, and no type
// the server does not check (those take any names).
func TestFieldsDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "openapi", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Parameters map[string]struct {
				Schema struct {
					Properties map[string]struct {
						Pattern string `yaml:"pattern"`
					} `yaml:"properties"`
				} `yaml:"schema"`
			} `yaml:"parameters"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	props := doc.Components.Parameters["V2Fields"].Schema.Properties
	var documented, checked []string
	for typ := range props {
		documented = append(documented, typ)
	}
	for typ, fields := range typeFields {
		if typ == "company-exports" || typ == "company-imports" || typ == "access-tokens" {
			continue // answers of writes, and the export (its format is its own, versioned)
		}
		checked = append(checked, typ)
		if got, want := props[typ].Pattern, fieldsPattern(fields); got != want {
			t.Errorf("fields[%s]: pattern %q, want %q", typ, got, want)
		}
	}
	slices.Sort(documented)
	slices.Sort(checked)
	if !slices.Equal(documented, checked) {
		t.Errorf("V2Fields documents the types %v, the server checks %v", documented, checked)
	}
}
