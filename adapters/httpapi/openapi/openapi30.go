package openapi

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// The 3.0.3 rendition.
//
// openapi.yaml is OpenAPI 3.1 and stays the source. Several generators
// (oapi-codegen among them) read only OpenAPI 3.0, so the server also serves,
// at GET /api/docs/openapi-3.0.json, a rendition converted from the source
// when it is first asked for. to30 rewrites the 3.1-only constructs the
// source uses, and nothing else (docs/decisions.md, "Generated clients", lists them):
//
//   - `openapi: 3.1.x` becomes `3.0.3`; `info.summary`, `license.identifier`,
//     `webhooks` and `jsonSchemaDialect` (no 3.0 place) are dropped.
//   - A type array: `[T, "null"]` becomes `type: T` plus `nullable: true`;
//     several types other than null become a `oneOf` of one schema per type
//     (the other keywords stay beside it: each applies to its own type).
//   - A `oneOf`/`anyOf` branch `{type: "null"}` is removed and the schema
//     made `nullable`; a single branch left becomes an `allOf` of one.
//   - A `null` in an `enum` is removed and the schema made `nullable`
//     (`enum: [false, null]` becomes `enum: [false]`, `nullable: true`):
//     generators make a constant of every enum value and have none for null
//     (oapi-codegen refuses the document), and `nullable` already admits it.
//   - `const: v` becomes `enum: [v]`.
//   - `examples: [a, …]` in a schema becomes `example: a` (a media type's
//     or parameter's `examples` map is valid 3.0 and kept).
//   - A numeric `exclusiveMinimum`/`exclusiveMaximum` becomes
//     `minimum`/`maximum` plus the boolean form.
//   - `unevaluatedProperties`, `propertyNames` and the other keywords 3.0
//     does not have (dropped30) are dropped: the rendition accepts a little
//     more than the server does, never less.
//   - Money and coefficients: every schema of type `number` gets
//     `format: decimal` (unless it has a format) and, when its format is
//     decimal, `x-go-type: json.Number`, so
//     that a generated Go client keeps every digit the server sends instead
//     of a float32 or float64.
//
// The walk knows which mappings hold names rather than keywords (nameMaps:
// `properties`, `components.schemas`, `paths`…), so that a property called
// `type` or `const` is left alone; a keyword is also recognised by its
// value's kind (a type array is a sequence, `examples` in a schema a list).
func to30(root *yaml.Node) error {
	doc := root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return fmt.Errorf("openapi: the document is not a mapping")
	}
	v := get(doc, "openapi")
	if v == nil || !strings.HasPrefix(v.Value, "3.1") {
		return fmt.Errorf("openapi: the source is not OpenAPI 3.1")
	}
	v.Value = "3.0.3"
	del(doc, "webhooks")
	del(doc, "jsonSchemaDialect")
	if info := get(doc, "info"); info != nil && info.Kind == yaml.MappingNode {
		del(info, "summary")
		if lic := get(info, "license"); lic != nil && lic.Kind == yaml.MappingNode {
			del(lic, "identifier")
		}
	}
	walk30(doc, false)
	return nil
}

// walk30 converts every mapping below n, children first. names is true
// when n is a mapping whose keys are names (a schema's properties, the
// components of a kind, paths, responses, media types…), not keywords.
func walk30(n *yaml.Node, names bool) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	for i, c := range n.Content {
		childNames := false
		if n.Kind == yaml.MappingNode && i%2 == 1 && !names {
			k := n.Content[i-1].Value
			if data[k] || strings.HasPrefix(k, "x-") {
				continue
			}
			childNames = nameMaps[k]
		}
		walk30(c, childNames)
	}
	if n.Kind == yaml.MappingNode && !names {
		schema30(n)
	}
}

// nameMaps are the keys whose value maps names to objects.
var nameMaps = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
	"schemas": true, "responses": true, "parameters": true, "requestBodies": true,
	"headers": true, "securitySchemes": true, "links": true, "callbacks": true,
	"paths": true, "content": true, "encoding": true, "variables": true, "pathItems": true,
	"mapping": true, "scopes": true,
}

// data are the keywords whose value is data (an example, a default, an
// enum's values, an Example object's value, an extension), never converted.
var data = map[string]bool{
	"example": true, "default": true, "enum": true, "const": true, "value": true,
}

// dropped30 are JSON Schema keywords OpenAPI 3.0's schema object does not
// have. Each only narrows what a schema accepts, so dropping it makes the
// rendition accept a little more than the server, never less.
var dropped30 = []string{
	"unevaluatedProperties", "unevaluatedItems", "propertyNames", "patternProperties",
	"contains", "minContains", "maxContains", "dependentRequired", "dependentSchemas",
	"if", "then", "else", "contentMediaType", "contentEncoding", "$comment", "$schema",
	"$anchor", "$id",
}

func schema30(m *yaml.Node) {
	if t := get(m, "type"); t != nil && t.Kind == yaml.ScalarNode && t.Value == "null" {
		// A member that is always null: as a type array of null alone.
		del(m, "type")
		set(m, "nullable", scalar("true"))
	}
	if t := get(m, "type"); t != nil && t.Kind == yaml.SequenceNode {
		var kinds []string
		null := false
		for _, c := range t.Content {
			if c.Value == "null" {
				null = true
			} else {
				kinds = append(kinds, c.Value)
			}
		}
		switch len(kinds) {
		case 0:
			// Only null: 3.0 cannot say it better than "nullable, any type".
			del(m, "type")
		case 1:
			*t = *scalar(kinds[0])
		default:
			del(m, "type")
			branches := &yaml.Node{Kind: yaml.SequenceNode}
			for _, k := range kinds {
				b := mapping("type", scalar(k))
				schema30(b)
				branches.Content = append(branches.Content, b)
			}
			set(m, "oneOf", branches)
		}
		if null {
			set(m, "nullable", scalar("true"))
		}
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		s := get(m, key)
		if s == nil || s.Kind != yaml.SequenceNode {
			continue
		}
		kept := s.Content[:0:0]
		null := false
		for _, b := range s.Content {
			if isNullSchema(b) {
				null = true
				continue
			}
			kept = append(kept, b)
		}
		if !null {
			continue
		}
		set(m, "nullable", scalar("true"))
		s.Content = kept
		if len(kept) == 1 && get(m, "allOf") == nil {
			del(m, key)
			set(m, "allOf", s)
		}
	}
	if e := get(m, "enum"); e != nil && e.Kind == yaml.SequenceNode {
		kept := e.Content[:0:0]
		for _, v := range e.Content {
			if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
				set(m, "nullable", scalar("true"))
				continue
			}
			kept = append(kept, v)
		}
		e.Content = kept
	}
	if c := get(m, "const"); c != nil && c.Kind != yaml.MappingNode {
		del(m, "const")
		set(m, "enum", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{c}})
	}
	if e := get(m, "examples"); e != nil && e.Kind == yaml.SequenceNode {
		del(m, "examples")
		if len(e.Content) > 0 && get(m, "example") == nil {
			set(m, "example", e.Content[0])
		}
	}
	for _, b := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
		x := get(m, b[0])
		if x == nil || x.Kind != yaml.ScalarNode || x.Tag == "!!bool" || x.Value == "true" || x.Value == "false" {
			continue
		}
		// A schema holding both forms in 3.1 means the stricter; the
		// source's bounds never hold both, and the exclusive one wins.
		bound := *x
		set(m, b[1], &bound)
		*x = *scalar("true")
	}
	for _, k := range dropped30 {
		del(m, k)
	}
	if t := get(m, "type"); isNumber(m, t) && get(m, "$ref") == nil {
		f := get(m, "format")
		if f == nil {
			f = scalar("decimal")
			set(m, "format", f)
		}
		// A number with a format of its own (double, float) is left as
		// its author typed it.
		if f.Value == "decimal" && get(m, "x-go-type") == nil {
			// No x-go-type-import: a generated client imports
			// encoding/json already, and a second import of it does not
			// compile.
			set(m, "x-go-type", scalar("json.Number"))
		}
	}
}

// isNumber tells a schema of type number, or one whose oneOf branches (as a
// type array makes them) are a number and strings or integers: a value a
// json.Number holds either way.
func isNumber(m, t *yaml.Node) bool {
	if t != nil {
		return t.Kind == yaml.ScalarNode && t.Value == "number"
	}
	o := get(m, "oneOf")
	if o == nil || o.Kind != yaml.SequenceNode {
		return false
	}
	number := false
	for _, b := range o.Content {
		switch bt := get(b, "type"); {
		case bt == nil:
			return false
		case bt.Value == "number":
			number = true
		case bt.Value != "string" && bt.Value != "integer":
			return false
		}
	}
	return number
}

func isNullSchema(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		return false
	}
	// {type: "null"}, or the {nullable: true} schema30 makes of it when
	// the branch was converted first.
	t, nb := get(n, "type"), get(n, "nullable")
	return (t != nil && t.Kind == yaml.ScalarNode && t.Value == "null") ||
		(nb != nil && nb.Kind == yaml.ScalarNode && nb.Value == "true")
}

// set replaces key's value in place, or appends the key.
func set(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, scalar(key), v)
}

func del(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
			return
		}
	}
}

func scalar(v string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: v}
	switch v {
	case "true", "false":
		n.Tag = "!!bool"
	default:
		n.Tag = "!!str"
	}
	return n
}

func mapping(key string, v *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{scalar(key), v}}
}

// convert30 parses the source afresh and returns the rendition as JSON.
func convert30(src []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, fmt.Errorf("openapi: parse openapi.yaml: %w", err)
	}
	if err := to30(&root); err != nil {
		return nil, err
	}
	b, err := toJSON(&root)
	if err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b), nil
}

// get is the value of key in the mapping n, nil when n is not a mapping or
// has no such key.
func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
