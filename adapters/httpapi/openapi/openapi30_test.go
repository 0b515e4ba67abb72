package openapi

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// convertSchemas runs the converter on a small 3.1 document whose
// components.schemas are given as YAML, and returns them as JSON values.
func convertSchemas(t *testing.T, schemas string) map[string]any {
	t.Helper()
	src := "openapi: 3.1.0\ninfo: {title: t, version: \"1\", summary: s, license: {name: MIT, identifier: MIT}}\npaths: {}\ncomponents:\n  schemas:\n" + indent(schemas, "    ")
	b, err := convert30([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["openapi"] != "3.0.3" {
		t.Errorf("openapi = %v, want 3.0.3", doc["openapi"])
	}
	info := doc["info"].(map[string]any)
	if _, ok := info["summary"]; ok {
		t.Error("info.summary kept: 3.0 has no place for it")
	}
	if _, ok := info["license"].(map[string]any)["identifier"]; ok {
		t.Error("license.identifier kept: 3.0 has no place for it")
	}
	return doc["components"].(map[string]any)["schemas"].(map[string]any)
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n") + "\n"
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestTo30(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"nullable string", `{type: [string, "null"], examples: [a, b]}`,
			`{"example":"a","nullable":true,"type":"string"}`},
		{"nullable number is decimal", `{type: [number, "null"]}`,
			`{"format":"decimal","nullable":true,"type":"number","x-go-type":"json.Number"}`},
		{"number or string", `{type: [number, string], minimum: 0, exclusiveMaximum: 1000000000000000, pattern: "^[0-9]+$"}`,
			`{"format":"decimal","maximum":1000000000000000,"exclusiveMaximum":true,"minimum":0,"oneOf":[{"format":"decimal","type":"number","x-go-type":"json.Number"},{"type":"string"}],"pattern":"^[0-9]+$","x-go-type":"json.Number"}`},
		{"nullable boolean enum", `{type: [boolean, "null"], enum: [false, null]}`,
			`{"enum":[false],"nullable":true,"type":"boolean"}`},
		{"const", `{type: string, const: compositions}`,
			`{"enum":["compositions"],"type":"string"}`},
		{"exclusive minimum", `{type: integer, exclusiveMinimum: 0}`,
			`{"exclusiveMinimum":true,"minimum":0,"type":"integer"}`},
		{"always null", `{type: object, properties: {second_code: {type: "null"}}}`,
			`{"properties":{"second_code":{"nullable":true}},"type":"object"}`},
		{"null branch", `{oneOf: [{$ref: "#/components/schemas/A"}, {type: "null"}]}`,
			`{"allOf":[{"$ref":"#/components/schemas/A"}],"nullable":true}`},
		{"null branch of several", `{anyOf: [{type: string}, {type: integer}, {type: "null"}]}`,
			`{"anyOf":[{"type":"string"},{"type":"integer"}],"nullable":true}`},
		{"unevaluated", `{allOf: [{$ref: "#/components/schemas/A"}], unevaluatedProperties: false}`,
			`{"allOf":[{"$ref":"#/components/schemas/A"}]}`},
		{"properties named like keywords", "type: object\nproperties:\n  type: {type: [string, \"null\"]}\n  const: {type: integer}\n  examples: {type: [array, \"null\"], items: {type: number, format: double}}",
			`{"properties":{"const":{"type":"integer"},"examples":{"items":{"format":"double","type":"number"},"nullable":true,"type":"array"}, "type":{"nullable":true,"type":"string"}},"type":"object"}`},
		{"3.1 keywords 3.0 lacks", "type: object\npropertyNames: {pattern: \"^[A-Z]{2}$\"}\nadditionalProperties: {type: string}\nproperties:\n  propertyNames: {type: string}",
			`{"additionalProperties":{"type":"string"},"properties":{"propertyNames":{"type":"string"}},"type":"object"}`},
		{"data is not converted", "type: object\nexample: {type: [a, \"null\"], n: {type: number}}\ndefault: {const: 1}\nx-note: {type: [string, \"null\"]}",
			`{"default":{"const":1},"example":{"n":{"type":"number"},"type":["a","null"]},"type":"object","x-note":{"type":["string","null"]}}`},
		{"a number with its own format", `{type: number, format: double}`,
			`{"format":"double","type":"number"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := convertSchemas(t, "X:\n  "+strings.ReplaceAll(c.in, "\n", "\n  "))["X"]
			var want any
			if err := json.Unmarshal([]byte(c.want), &want); err != nil {
				t.Fatal(err)
			}
			if asJSON(got) != asJSON(want) {
				t.Errorf("got  %s\nwant %s", asJSON(got), asJSON(want))
			}
		})
	}
}

// TestRendition30 holds the served rendition to 3.0: no construct of 3.1 is
// left anywhere in it, and every number is a decimal a Go client keeps
// exactly.
func TestRendition30(t *testing.T) {
	b, err := JSON30()
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if v := doc.(map[string]any)["openapi"]; v != "3.0.3" {
		t.Fatalf("openapi = %v", v)
	}
	numbers := 0
	var walk func(v any, at string, inProps bool)
	walk = func(v any, at string, inProps bool) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				if !inProps {
					switch k {
					case "type":
						if _, ok := c.(string); !ok {
							t.Errorf("%s: type %v is not one name", at, c)
						}
						if c == "null" {
							t.Errorf("%s: type null", at)
						}
						if c == "number" {
							numbers++
							if v["format"] != "decimal" || v["x-go-type"] != "json.Number" {
								t.Errorf("%s: a number without format decimal and x-go-type json.Number", at)
							}
						}
					case "const", "unevaluatedProperties", "prefixItems", "$defs", "dependentRequired", "if":
						t.Errorf("%s: %s is 3.1 only", at, k)
					case "exclusiveMinimum", "exclusiveMaximum":
						if _, ok := c.(bool); !ok {
							t.Errorf("%s: %s is not a boolean", at, k)
						}
					case "examples":
						if _, ok := c.([]any); ok {
							t.Errorf("%s: examples is a list", at)
						}
					case "enum":
						for _, e := range c.([]any) {
							if e == nil {
								t.Errorf("%s: null in an enum", at)
							}
						}
					}
				}
				walk(c, at+"/"+k, !inProps && k == "properties")
			}
		case []any:
			for _, c := range v {
				walk(c, at+"/", false)
			}
		}
	}
	walk(doc, "", false)
	if numbers < 50 {
		t.Errorf("%d numbers seen; the document has more: is the walk broken?", numbers)
	}
}

// TestRendition30Valid loads the served rendition with kin-openapi as an
// OpenAPI 3.0 document and validates it (references resolve, schemas are
// well formed, examples match their schemas).
func TestRendition30Valid(t *testing.T) {
	b, err := JSON30()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("the 3.0 rendition is not valid OpenAPI 3.0: %v", err)
	}
}
