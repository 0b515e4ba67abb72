package openapi_test

import (
	"fmt"
	"math"
	"math/rand"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi/openapi"
	"gopkg.in/yaml.v3"
)

// The example generator of TestDocumentDrivenRequests: a small walker over
// the document's schemas (OpenAPI 3.1, i.e. JSON Schema 2020-12) that makes a
// value every schema accepts, and records where each value came from so that
// the test can break one rule at a time.
//
// It is written here rather than taken from a library: the Go JSON Schema
// example generators available do not read OpenAPI 3.1 documents (type
// arrays, const, examples, not/required) and none is deterministic for a
// seed, which the test needs to be repeatable.
//
// Rules of the walker, which the document follows so that every value it
// makes is one the service accepts:
//
//   - `const` gives the value; otherwise `examples` (one chosen by the seed)
//     gives it, so that codes that must exist in the sample bank editions,
//     sort expressions and other patterned text come from the document. An
//     example that is an object or an array is used only below maxWalkDepth
//     (it ends a recursive schema); above, the schema is walked.
//   - `enum` gives one of its values.
//   - A string with a `pattern` and no `examples` or `format` is a defect of
//     the document (the walker cannot invent a value for a pattern).
//   - `oneOf`/`anyOf` take one branch (the seed chooses), merged with the
//     schema's own keywords; `allOf` is merged.
//   - An object takes its required members (minimal) or every member with a
//     schema (full); members whose schema says nothing (read-only members
//     described as ignored) are left out. `not: {required: [a, b]}` (two
//     names of one field) drops the later member when both would be there.
//   - Numbers stay within minimum/maximum, strings within minLength/maxLength.

// schemaDoc is the document as plain YAML values, for the walker.
type schemaDoc struct {
	root map[string]any
}

func loadSchemaDoc() (*schemaDoc, error) {
	var root map[string]any
	if err := yaml.Unmarshal(openapi.YAML(), &root); err != nil {
		return nil, err
	}
	return &schemaDoc{root: root}, nil
}

// lookup follows a local reference ("#/components/schemas/X").
func (d *schemaDoc) lookup(ref string) (map[string]any, error) {
	p, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, fmt.Errorf("reference %q is not local", ref)
	}
	var cur any = d.root
	for _, part := range strings.Split(p, "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("reference %q does not resolve", ref)
		}
		cur = m[strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")]
	}
	m, ok := cur.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("reference %q does not resolve to an object", ref)
	}
	return m, nil
}

// resolve returns s with its $ref followed; the reference's siblings
// (description, examples…) win over what the target says.
func (d *schemaDoc) resolve(s map[string]any) (map[string]any, error) {
	for i := 0; i < 20; i++ {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s, nil
		}
		target, err := d.lookup(ref)
		if err != nil {
			return nil, err
		}
		out := map[string]any{}
		for k, v := range target {
			out[k] = v
		}
		for k, v := range s {
			if k != "$ref" {
				out[k] = v
			}
		}
		if _, own := s["$ref"]; own {
			delete(out, "$ref")
			if r, ok := target["$ref"]; ok {
				out["$ref"] = r
			}
		}
		s = out
	}
	return nil, fmt.Errorf("reference chain too long")
}

// flatten resolves s and merges its allOf parts into it.
func (d *schemaDoc) flatten(s map[string]any) (map[string]any, error) {
	s, err := d.resolve(s)
	if err != nil {
		return nil, err
	}
	parts, ok := s["allOf"].([]any)
	if !ok {
		return s, nil
	}
	out := map[string]any{}
	for k, v := range s {
		if k != "allOf" {
			out[k] = v
		}
	}
	for _, p := range parts {
		pm, ok := p.(map[string]any)
		if !ok {
			continue
		}
		f, err := d.flatten(pm)
		if err != nil {
			return nil, err
		}
		out = mergeSchema(out, f)
	}
	return out, nil
}

// mergeSchema combines two schemas that must both hold: properties and
// required are united, the rest of b fills what a does not say; anyOf,
// oneOf and not of both are kept.
func mergeSchema(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		switch k {
		case "properties":
			props := map[string]any{}
			if ap, ok := out["properties"].(map[string]any); ok {
				for pk, pv := range ap {
					props[pk] = pv
				}
			}
			for pk, pv := range v.(map[string]any) {
				if old, ok := props[pk].(map[string]any); ok {
					props[pk] = mergeSchema(old, pv.(map[string]any))
				} else {
					props[pk] = pv
				}
			}
			out["properties"] = props
		case "required":
			out["required"] = union(toStrings(out["required"]), toStrings(v))
		case "anyOf", "oneOf", "not", "x-agree":
			key := "x-all-" + k
			list, _ := out[key].([]any)
			if old, ok := out[k]; ok {
				list = append(list, old)
				delete(out, k)
			}
			out[key] = append(list, v)
		default:
			if _, ok := out[k]; !ok {
				out[k] = v
			}
		}
	}
	return out
}

func toStrings(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	if ss, ok := v.([]string); ok {
		return ss
	}
	return out
}

func union(a, b []string) []any {
	seen := map[string]bool{}
	var out []any
	for _, s := range append(append([]string{}, a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// site is where a generated value sits and the schema it was made from.
type site struct {
	path   []any // object keys and array indices from the body's root
	schema map[string]any
}

// generator makes values from schemas.
type generator struct {
	doc  *schemaDoc
	rng  *rand.Rand
	full bool
	// branch, when >= 0, is the branch taken by the outermost oneOf.
	branch int
	sites  []site
	seq    int
	// override gives the value of a named component (for example real
	// credentials for Authentication); nil when it has none.
	override func(component string) (any, bool)
}

func (g *generator) uniq() string {
	g.seq++
	const letters = "abcdefghijkmnpqrstuvwxyz23456789"
	b := make([]byte, 6)
	for i := range b {
		b[i] = letters[g.rng.Intn(len(letters))]
	}
	return fmt.Sprintf("g%s%d", b, g.seq)
}

// value makes a value for s at path.
func (g *generator) value(s map[string]any, path []any) (any, error) {
	if ref, ok := s["$ref"].(string); ok && g.override != nil {
		if v, ok := g.override(strings.TrimPrefix(ref, "#/components/schemas/")); ok {
			return v, nil
		}
	}
	s, err := g.doc.flatten(s)
	if err != nil {
		return nil, err
	}
	// Choose a branch of oneOf / anyOf and merge it in.
	for _, key := range []string{"oneOf", "anyOf"} {
		branches, ok := s[key].([]any)
		if !ok || len(branches) == 0 {
			continue
		}
		i := g.rng.Intn(len(branches))
		if key == "oneOf" && len(path) == 0 && g.branch >= 0 {
			i = g.branch % len(branches)
		}
		rest := map[string]any{}
		for k, v := range s {
			if k != key {
				rest[k] = v
			}
		}
		if ref, ok := branches[i].(map[string]any)["$ref"].(string); ok && g.override != nil {
			if v, ok := g.override(strings.TrimPrefix(ref, "#/components/schemas/")); ok {
				return v, nil
			}
		}
		b, err := g.doc.flatten(branches[i].(map[string]any))
		if err != nil {
			return nil, err
		}
		return g.value(mergeSchema(rest, b), path)
	}
	// anyOf/oneOf lists gathered by allOf: each takes one branch.
	for _, key := range []string{"x-all-anyOf", "x-all-oneOf"} {
		lists, ok := s[key].([]any)
		if !ok {
			continue
		}
		rest := map[string]any{}
		for k, v := range s {
			if k != key {
				rest[k] = v
			}
		}
		for _, l := range lists {
			branches := l.([]any)
			b, err := g.doc.flatten(branches[g.rng.Intn(len(branches))].(map[string]any))
			if err != nil {
				return nil, err
			}
			rest = mergeSchema(rest, b)
		}
		return g.value(rest, path)
	}
	g.sites = append(g.sites, site{path: append([]any{}, path...), schema: s})
	if c, ok := s["const"]; ok {
		return c, nil
	}
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 && (!composite(ex[0]) || len(path) >= maxWalkDepth) {
		return ex[g.rng.Intn(len(ex))], nil
	}
	if ex, ok := s["example"]; ok {
		return ex, nil
	}
	if en, ok := s["enum"].([]any); ok && len(en) > 0 {
		return en[g.rng.Intn(len(en))], nil
	}
	switch schemaType(s) {
	case "null":
		return nil, nil
	case "boolean":
		return g.rng.Intn(2) == 0, nil
	case "integer":
		lo, hi := bounds(s, 1, 1)
		lo, hi = math.Ceil(lo), math.Floor(hi)
		return int64(lo) + g.rng.Int63n(int64(hi-lo)+1), nil
	case "number":
		lo, hi := bounds(s, 0.01, 0)
		v := lo + float64(g.rng.Intn(10000))/100
		if v > hi {
			v = lo
		}
		v = math.Round(v*100) / 100
		if v < lo || (excl(s, "exclusiveMinimum") && v == lo) {
			v = math.Ceil(lo*100+1) / 100
		}
		return v, nil
	case "string":
		return g.str(s, path)
	case "array":
		n := intKey(s, "minItems", 0)
		if g.full && n == 0 {
			n = 1
		}
		items, _ := s["items"].(map[string]any)
		out := make([]any, 0, n)
		for i := 0; i < n; i++ {
			v, err := g.value(items, append(path, i))
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case "object":
		return g.object(s, path)
	}
	return nil, fmt.Errorf("at %v: no type, const, enum or examples to make a value from", path)
}

// object makes an object: its required members, or (full) every member
// with a schema; a map (additionalProperties) gets one entry when full.
func (g *generator) object(s map[string]any, path []any) (any, error) {
	out := map[string]any{}
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	for _, r := range toStrings(s["required"]) {
		required[r] = true
	}
	// x-example-required: members the examples of the object's members
	// need (a sample bank code needs its bank), made even when minimal.
	for _, r := range toStrings(s["x-example-required"]) {
		required[r] = true
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ps, _ := props[n].(map[string]any)
		if !required[n] && (!g.full || !says(ps)) {
			continue
		}
		v, err := g.value(ps, append(path, n))
		if err != nil {
			return nil, err
		}
		out[n] = v
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok && g.full && len(props) == 0 {
		key := "k" + g.uniq()
		if pn, ok := s["propertyNames"].(map[string]any); ok {
			k, err := g.value(pn, append(path, "(name)"))
			if err != nil {
				return nil, err
			}
			key = fmt.Sprint(k)
		}
		v, err := g.value(ap, append(path, key))
		if err != nil {
			return nil, err
		}
		out[key] = v
	}
	// Two names of one field: keep the first.
	var nots []any
	if n, ok := s["not"]; ok {
		nots = append(nots, n)
	}
	if l, ok := s["x-all-not"].([]any); ok {
		nots = append(nots, l...)
	}
	for _, n := range nots {
		nm, _ := n.(map[string]any)
		if nm == nil {
			continue
		}
		nm, _ = g.doc.flatten(nm)
		// Members that must not be there together in nested objects
		// (attributes.group_id and relationships.group): drop the last.
		if nested, ok := nm["properties"].(map[string]any); ok {
			all, last := true, []string(nil)
			for _, top := range toStrings(nm["required"]) {
				inner, _ := nested[top].(map[string]any)
				obj, ok := out[top].(map[string]any)
				req := toStrings(inner["required"])
				if !ok || len(req) == 0 {
					all = false
					break
				}
				for _, r := range req {
					if _, ok := obj[r]; !ok {
						all = false
					}
				}
				last = []string{top, req[len(req)-1]}
			}
			if all && last != nil {
				out[last[0]] = without(out[last[0]].(map[string]any), last[1])
			}
			continue
		}
		for _, set := range requiredSets(nm) {
			all := len(set) > 0
			for _, r := range set {
				if _, ok := out[r]; !ok {
					all = false
				}
			}
			if all {
				delete(out, set[len(set)-1])
			}
		}
	}
	// x-agree: two names of one field that may both be sent only when
	// they agree (a fetched document carries both): keep the first.
	for _, pair := range agreePairs(s) {
		if _, ok := out[pair[0]]; ok {
			delete(out, pair[1])
		}
	}
	return out, nil
}

// agreePairs returns the x-agree pairs of a schema: two names of one field
// that JSON Schema cannot require to be equal. Merged schemas keep theirs
// under x-all-x-agree.
func agreePairs(s map[string]any) [][2]string {
	var lists []any
	if l, ok := s["x-agree"].([]any); ok {
		lists = append(lists, l...)
	}
	if ll, ok := s["x-all-x-agree"].([]any); ok {
		for _, l := range ll {
			if l, ok := l.([]any); ok {
				lists = append(lists, l...)
			}
		}
	}
	var out [][2]string
	for _, p := range lists {
		if names := toStrings(p); len(names) == 2 {
			out = append(out, [2]string{names[0], names[1]})
		}
	}
	return out
}

// requiredSets returns the member sets a `not` forbids together: its own
// required, or each of its anyOf branches' required.
func requiredSets(n map[string]any) [][]string {
	var out [][]string
	if r := toStrings(n["required"]); len(r) > 0 {
		out = append(out, r)
	}
	if l, ok := n["anyOf"].([]any); ok {
		for _, b := range l {
			if bm, ok := b.(map[string]any); ok {
				if r := toStrings(bm["required"]); len(r) > 0 {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// maxWalkDepth is how deep the walker goes before an object or array
// schema's examples give the value: a recursive schema (the budget tree) is
// walked down to here, so that its rules are broken too, and then ends.
const maxWalkDepth = 8

// composite reports whether an example is an object or an array.
func composite(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// says reports whether a member's schema constrains its value at all (a
// member described only as ignored does not).
func says(s map[string]any) bool {
	for _, k := range []string{"$ref", "type", "const", "enum", "oneOf", "anyOf", "allOf", "examples"} {
		if _, ok := s[k]; ok {
			return true
		}
	}
	return false
}

func (g *generator) str(s map[string]any, path []any) (any, error) {
	switch s["format"] {
	case "date":
		return "2026-08-01", nil
	case "date-time":
		return "2026-08-01T09:00:00-03:00", nil
	}
	v := g.uniq()
	if maxLen := intKey(s, "maxLength", 1<<30); len(v) > maxLen {
		v = v[:maxLen]
	}
	for len(v) < intKey(s, "minLength", 0) {
		v += "x"
	}
	if p, ok := s["pattern"].(string); ok {
		// A pattern a generated word matches (a code's: no control
		// character, no space at either end) takes one; others need
		// examples.
		if re, err := regexp.Compile(p); err != nil || !re.MatchString(v) {
			return nil, fmt.Errorf("at %v: a string with a pattern needs examples", path)
		}
	}
	return v, nil
}

// schemaType is the type a value is made as: the first that is not null.
func schemaType(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if x != "null" {
				return x.(string)
			}
		}
		if len(t) > 0 {
			return "null"
		}
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	return ""
}

func num(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case uint64:
		return float64(n), true
	}
	return 0, false
}

func excl(s map[string]any, key string) bool {
	_, ok := num(s[key])
	return ok
}

// bounds returns the range a number of s may take; span is how far above
// the lower bound the upper one is when the schema gives none.
func bounds(s map[string]any, step, defLo float64) (lo, hi float64) {
	lo, hi = defLo, math.Inf(1)
	if v, ok := num(s["minimum"]); ok {
		lo = math.Max(lo, v)
	}
	if v, ok := num(s["exclusiveMinimum"]); ok {
		lo = math.Max(lo, v+step)
	}
	if v, ok := num(s["maximum"]); ok {
		hi = math.Min(hi, v)
	}
	if v, ok := num(s["exclusiveMaximum"]); ok {
		hi = math.Min(hi, v-step)
	}
	if math.IsInf(hi, 1) || hi > lo+100 {
		hi = lo + 100
	}
	return lo, hi
}

func intKey(s map[string]any, key string, def int) int {
	if v, ok := num(s[key]); ok {
		return int(v)
	}
	return def
}

// --------------------------------------------------------------- mutations

// mutation is one rule broken in a valid body.
type mutation struct {
	what string
	body any
}

// mutations breaks, one at a time, each rule the sites of a generated body
// state: a required member removed, a value of the wrong JSON type, a value
// outside its enum, const, bounds, length or pattern.
func mutations(d *schemaDoc, body any, sites []site) []mutation {
	var out []mutation
	seen := map[string]bool{}
	add := func(what string, b any) {
		if !seen[what] {
			seen[what] = true
			out = append(out, mutation{what: what, body: b})
		}
	}
	for _, st := range sites {
		cur, ok := at(body, st.path)
		if !ok {
			continue // dropped by a not/required rule
		}
		where := pointer(st.path)
		s := st.schema
		if m, ok := cur.(map[string]any); ok {
			for _, r := range toStrings(s["required"]) {
				if _, ok := m[r]; ok {
					add("without required "+where+"/"+r, with(body, st.path, without(m, r)))
				}
			}
			// Both names of one field (not: {required: [a, b]}): send the
			// other name too, with the same value.
			var nots []any
			if n, ok := s["not"]; ok {
				nots = append(nots, n)
			}
			if l, ok := s["x-all-not"].([]any); ok {
				nots = append(nots, l...)
			}
			for _, n := range nots {
				nm, _ := n.(map[string]any)
				nm, _ = d.flatten(nm)
				if b, ok := nestedBoth(m, nm); ok {
					add("both "+strings.Join(toStrings(nm["required"]), " and ")+" name it at "+where, with(body, st.path, b))
				}
				for _, set := range requiredSets(nm) {
					if len(set) != 2 {
						continue
					}
					a, hasA := m[set[0]]
					b, hasB := m[set[1]]
					switch {
					case hasA && !hasB:
						both := without(m, "")
						both[set[1]] = a
						add("both "+set[0]+" and "+set[1]+" at "+where, with(body, st.path, both))
					case hasB && !hasA:
						both := without(m, "")
						both[set[0]] = b
						add("both "+set[0]+" and "+set[1]+" at "+where, with(body, st.path, both))
					}
				}
			}
		}
		if len(st.path) == 0 {
			continue
		}
		if w, ok := wrongType(s, cur); ok {
			add("wrong type at "+where, with(body, st.path, w))
		}
		if en, ok := s["enum"].([]any); ok {
			add("outside the enum at "+where, with(body, st.path, outsideEnum(en)))
		}
		if c, ok := s["const"]; ok {
			if str, ok := c.(string); ok {
				add("not the const at "+where, with(body, st.path, str+"-not"))
			}
		}
		t := schemaType(s)
		if t == "number" || t == "integer" {
			if v, ok := num(s["minimum"]); ok {
				add("below the minimum at "+where, with(body, st.path, v-1))
			}
			if v, ok := num(s["exclusiveMinimum"]); ok {
				add("at the exclusive minimum at "+where, with(body, st.path, v))
			}
			if v, ok := num(s["maximum"]); ok {
				add("above the maximum at "+where, with(body, st.path, v+1))
			}
			if v, ok := num(s["exclusiveMaximum"]); ok {
				add("at the exclusive maximum at "+where, with(body, st.path, v))
			}
		}
		if t == "string" {
			if n := intKey(s, "minLength", 0); n > 0 {
				add("shorter than minLength at "+where, with(body, st.path, ""))
			}
			if n := intKey(s, "maxLength", -1); n >= 0 {
				add("longer than maxLength at "+where, with(body, st.path, strings.Repeat("z", n+1)))
			}
			if p, ok := s["pattern"].(string); ok {
				if re, err := regexp.Compile(p); err == nil && !re.MatchString("!!") {
					add("not matching the pattern at "+where, with(body, st.path, "!!"))
				}
				if re, err := regexp.Compile(p); err == nil && !re.MatchString("A\u0001B") {
					add("not matching the pattern (a control character) at "+where, with(body, st.path, "A\u0001B"))
				}
				if re, err := regexp.Compile(p); err == nil && !re.MatchString("   ") {
					add("not matching the pattern (blank) at "+where, with(body, st.path, "   "))
				}
				if re, err := regexp.Compile(p); err == nil && !re.MatchString("A\u0085B") {
					add("not matching the pattern (a C1 control character) at "+where, with(body, st.path, "A\u0085B"))
				}
			}
		}
	}
	return out
}

// nestedBoth handles a `not` over nested members (attributes.group_id and
// relationships.group name one thing): when the object has the first and
// not the second, it returns the object with the second added as null.
func nestedBoth(m, n map[string]any) (map[string]any, bool) {
	props, ok := n["properties"].(map[string]any)
	tops := toStrings(n["required"])
	if !ok || len(tops) != 2 {
		return nil, false
	}
	first, _ := props[tops[0]].(map[string]any)
	second, _ := props[tops[1]].(map[string]any)
	r1, r2 := toStrings(first["required"]), toStrings(second["required"])
	if len(r1) != 1 || len(r2) != 1 {
		return nil, false
	}
	obj, ok := m[tops[0]].(map[string]any)
	if !ok {
		return nil, false
	}
	if _, ok := obj[r1[0]]; !ok {
		return nil, false
	}
	out := without(m, "")
	other, _ := m[tops[1]].(map[string]any)
	if _, there := other[r2[0]]; there {
		return nil, false
	}
	other = without(other, "")
	other[r2[0]] = map[string]any{"data": nil}
	out[tops[1]] = other
	return out, true
}

// wrongType returns a value of another JSON type than s allows.
func wrongType(s map[string]any, cur any) (any, bool) {
	types := map[string]bool{}
	switch t := s["type"].(type) {
	case string:
		types[t] = true
	case []any:
		for _, x := range t {
			types[x.(string)] = true
		}
	default:
		return nil, false
	}
	for _, cand := range []struct {
		t string
		v any
	}{{"object", []any{}}, {"array", map[string]any{"x": 1.0}}, {"boolean", "no"}, {"string", true}, {"number", true}, {"integer", map[string]any{}}} {
		if types[cand.t] {
			if cand.t == "number" || cand.t == "integer" {
				// true is neither a number nor a numeric string.
				return true, !types["boolean"]
			}
			if cand.t == "string" && types["boolean"] {
				return map[string]any{}, !types["object"]
			}
			if cand.t == "boolean" && types["string"] {
				return map[string]any{}, !types["object"]
			}
			return cand.v, true
		}
	}
	return nil, false
}

func outsideEnum(en []any) any {
	for _, v := range en {
		if _, ok := num(v); ok {
			return 9999.0
		}
	}
	return "zz-not-in-enum"
}

func pointer(path []any) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteString("/")
		b.WriteString(fmt.Sprint(p))
	}
	return b.String()
}

// at returns the value at path in v.
func at(v any, path []any) (any, bool) {
	for _, p := range path {
		switch c := v.(type) {
		case map[string]any:
			k, ok := p.(string)
			if !ok {
				return nil, false
			}
			if v, ok = c[k]; !ok {
				return nil, false
			}
		case []any:
			i, ok := p.(int)
			if !ok || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// with returns a deep copy of v with the value at path replaced by x.
func with(v any, path []any, x any) any {
	if len(path) == 0 {
		return x
	}
	switch c := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(c))
		for k, e := range c {
			out[k] = e
		}
		k := path[0].(string)
		out[k] = with(c[k], path[1:], x)
		return out
	case []any:
		out := append([]any{}, c...)
		i := path[0].(int)
		out[i] = with(c[i], path[1:], x)
		return out
	}
	return v
}

func without(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// paramValue makes a query or path parameter's value from its schema.
func (g *generator) paramValue(s map[string]any) (string, error) {
	v, err := g.value(s, []any{"(parameter)"})
	if err != nil {
		return "", err
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	}
	return fmt.Sprint(v), nil
}

// badParamValues returns values a parameter of schema s must refuse, each
// with what it breaks.
func badParamValues(d *schemaDoc, s map[string]any) [][2]string {
	s, err := d.flatten(s)
	if err != nil {
		return nil
	}
	var out [][2]string
	if en, ok := s["enum"].([]any); ok {
		out = append(out, [2]string{"outside the enum", fmt.Sprint(outsideEnum(en))})
	}
	switch schemaType(s) {
	case "integer", "number":
		out = append(out, [2]string{"not a number", "abc"})
		if v, ok := num(s["minimum"]); ok {
			out = append(out, [2]string{"below the minimum", strconv.FormatFloat(v-1, 'f', -1, 64)})
		}
		if v, ok := num(s["maximum"]); ok {
			out = append(out, [2]string{"above the maximum", strconv.FormatFloat(v+1, 'f', -1, 64)})
		}
	case "boolean":
		out = append(out, [2]string{"not a boolean", "maybe"})
	case "string":
		if intKey(s, "minLength", 0) > 0 {
			out = append(out, [2]string{"empty", ""})
		}
		if p, ok := s["pattern"].(string); ok {
			if re, err := regexp.Compile(p); err == nil && !re.MatchString("!!") {
				out = append(out, [2]string{"not matching the pattern", "!!"})
			}
		}
		if f, ok := s["format"].(string); ok && (f == "date" || f == "date-time") {
			out = append(out, [2]string{"not a " + f, "31/12/2026"})
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if l, ok := s[key].([]any); ok {
			// A value every branch refuses: each branch here is a format.
			allFormats := true
			for _, b := range l {
				bm, _ := d.flatten(b.(map[string]any))
				if _, ok := bm["format"]; !ok {
					allFormats = false
				}
			}
			if allFormats {
				out = append(out, [2]string{"in no accepted format", "31/12/2026"})
			}
		}
	}
	return out
}

// agreePair is a pair of names of one field as the document states it in
// standard JSON Schema: `dependentSchemas: {alias: {anyOf: [{not:
// {required: [other]}}, {properties: {alias: …, other: …}}…]}}`, one
// branch per agreeing combination.
type agreePair struct {
	alias, other string
	// values are the agreeing combinations (alias's value, other's value).
	values [][2]any
}

// agreeSeq numbers the codes of agreeing variants.
var agreeSeq int

// dependentPairs returns the agreeing pairs a schema states.
func dependentPairs(s map[string]any) []agreePair {
	deps, _ := s["dependentSchemas"].(map[string]any)
	var out []agreePair
	for alias, dv := range deps {
		dm, _ := dv.(map[string]any)
		branches, _ := dm["anyOf"].([]any)
		if len(branches) < 2 {
			continue
		}
		n, _ := branches[0].(map[string]any)["not"].(map[string]any)
		others := toStrings(n["required"])
		if len(others) != 1 {
			continue
		}
		p := agreePair{alias: alias, other: others[0]}
		for _, b := range branches[1:] {
			props, _ := b.(map[string]any)["properties"].(map[string]any)
			a, okA := sample(props[alias])
			o, okO := sample(props[p.other])
			if okA && okO {
				p.values = append(p.values, [2]any{a, o})
			}
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].alias < out[j].alias })
	return out
}

// sample is a value a branch's member schema takes: its const, the first
// of its enum, or the first such of its anyOf.
func sample(v any) (any, bool) {
	s, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	if c, ok := s["const"]; ok {
		return c, true
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0], true
	}
	if l, ok := s["anyOf"].([]any); ok && len(l) > 0 {
		return sample(l[0])
	}
	return nil, false
}

// agreeing returns, for each pair of names a generated body's objects
// have, the body with both names sent and agreeing (the document allows
// it: a fetched document carries both) when valid is true, or disagreeing
// (two different combinations' values) when it is false.
func agreeing(body any, sites []site, valid bool) []mutation {
	var out []mutation
	seen := map[string]bool{}
	for _, st := range sites {
		cur, ok := at(body, st.path)
		m, isObj := cur.(map[string]any)
		if !ok || !isObj {
			continue
		}
		for _, p := range dependentPairs(st.schema) {
			if len(p.values) < 2 {
				continue
			}
			what := "both " + p.alias + " and " + p.other + " agreeing at " + pointer(st.path)
			a, o := p.values[len(p.values)-1][0], p.values[len(p.values)-1][1]
			if !valid {
				what = "both " + p.alias + " and " + p.other + " disagreeing at " + pointer(st.path)
				o = p.values[len(p.values)-2][1]
			}
			if seen[what] {
				continue
			}
			seen[what] = true
			both := without(m, "")
			both[p.alias], both[p.other] = a, o
			if c, ok := both["code"].(string); ok && (len(st.path) == 0 || st.path[len(st.path)-1] == "attributes") {
				// A record's code is unique in the company (422 when
				// taken): the body the variant comes from is sent too.
				agreeSeq++
				both["code"] = c + "-" + strconv.Itoa(agreeSeq)
			}
			out = append(out, mutation{what: what, body: with(body, st.path, both)})
		}
	}
	return out
}
