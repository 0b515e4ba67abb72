package openapi

import (
	"fmt"
	"html"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// methods are the operation keys of a path item, in the order a reader
// expects them.
var methods = []string{"get", "put", "post", "patch", "delete", "head", "options", "trace"}

// renderPage renders the reference page: the introduction, an index of the
// operations by tag, every operation (parameters, request body, responses),
// the security schemes, the shared responses and every schema. It reads the
// YAML tree rather than a parsed model so that everything keeps the order it
// has in the document.
func renderPage(root *yaml.Node) ([]byte, error) {
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("openapi: the document is not a mapping")
	}
	p := &page{root: root}
	p.render()
	if p.err != nil {
		return nil, p.err
	}
	return []byte(p.b.String()), nil
}

type page struct {
	root *yaml.Node
	b    strings.Builder
	err  error
}

// operation is one method of one path.
type operation struct {
	path, method string
	item, op     *yaml.Node
}

func (p *page) w(format string, args ...any) { fmt.Fprintf(&p.b, format, args...) }

func (p *page) render() {
	info := get(p.root, "info")
	title := text(info, "title")
	p.w("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	p.w("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	p.w("<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n", esc(title), style)
	p.w("<header><h1>%s</h1><p class=\"meta\">OpenAPI %s · version %s · <a href=\"docs/openapi.json\">openapi.json</a></p>",
		esc(title), esc(text(p.root, "openapi")), esc(text(info, "version")))
	if s := text(info, "summary"); s != "" {
		p.w("<p class=\"summary\">%s</p>", inline(s))
	}
	p.w("</header>\n<main>\n")

	ops := p.operations()
	p.index(ops)
	p.w("<section id=\"introduction\"><h2>Introduction</h2>%s</section>\n", markdown(text(info, "description")))
	p.w("<section id=\"operations\"><h2>Operations</h2>\n")
	for _, o := range ops {
		p.operation(o)
	}
	p.w("</section>\n")
	p.securitySchemes()
	p.sharedResponses()
	p.schemas()
	p.w("</main>\n</body>\n</html>\n")
}

// operations lists every operation in document order.
func (p *page) operations() []operation {
	var out []operation
	for _, pe := range pairs(get(p.root, "paths")) {
		for _, m := range methods {
			if op := get(pe.v, m); op != nil {
				out = append(out, operation{path: pe.k, method: m, item: pe.v, op: op})
			}
		}
	}
	return out
}

// index lists the operations by tag, in the order of the document's tags.
func (p *page) index(ops []operation) {
	p.w("<nav id=\"index\"><h2>Index</h2>\n")
	var tags []string
	for _, t := range items(get(p.root, "tags")) {
		tags = append(tags, text(t, "name"))
	}
	for _, o := range ops {
		for _, t := range items(get(o.op, "tags")) {
			if !contains(tags, t.Value) {
				tags = append(tags, t.Value)
			}
		}
	}
	for _, tag := range tags {
		var list []operation
		for _, o := range ops {
			for _, t := range items(get(o.op, "tags")) {
				if t.Value == tag {
					list = append(list, o)
				}
			}
		}
		if len(list) == 0 {
			continue
		}
		p.w("<h3>%s</h3>\n<ul class=\"ops\">\n", esc(tag))
		for _, o := range list {
			p.w("<li><a href=\"#%s\"><span class=\"method %s\">%s</span> <code>%s</code></a> %s</li>\n",
				esc(opAnchor(o)), o.method, strings.ToUpper(o.method), esc(o.path), esc(text(o.op, "summary")))
		}
		p.w("</ul>\n")
	}
	p.w("<p><a href=\"#security\">Security schemes</a> · <a href=\"#responses\">Shared responses</a> · <a href=\"#schemas\">Schemas</a></p>\n</nav>\n")
}

func opAnchor(o operation) string {
	if id := text(o.op, "operationId"); id != "" {
		return "op-" + id
	}
	return "op-" + o.method + "-" + o.path
}

func (p *page) operation(o operation) {
	p.w("<article class=\"op\" id=\"%s\">\n<h3><span class=\"method %s\">%s</span> <code>%s</code></h3>\n",
		esc(opAnchor(o)), o.method, strings.ToUpper(o.method), esc(o.path))
	if s := text(o.op, "summary"); s != "" {
		p.w("<p class=\"summary\">%s</p>\n", inline(s))
	}
	if d := text(o.op, "description"); d != "" {
		p.w("%s\n", markdown(d))
	}
	p.w("<p class=\"auth\"><strong>Authorization:</strong> %s</p>\n", p.security(o.op))

	params := append(items(get(o.item, "parameters")), items(get(o.op, "parameters"))...)
	if len(params) > 0 {
		p.w("<h4>Parameters</h4>\n<table><thead><tr><th>name</th><th>in</th><th>type</th><th>description</th></tr></thead><tbody>\n")
		for _, prm := range params {
			prm, _ = p.deref(prm)
			req := ""
			if isTrue(get(prm, "required")) {
				req = " <span class=\"req\">required</span>"
			}
			sch := get(prm, "schema")
			p.w("<tr><td><code>%s</code>%s</td><td>%s</td><td>%s</td><td>%s%s</td></tr>\n",
				esc(text(prm, "name")), req, esc(text(prm, "in")), p.typeExpr(sch),
				inline(text(prm, "description")), p.constraints(sch))
		}
		p.w("</tbody></table>\n")
	}

	if rb := get(o.op, "requestBody"); rb != nil {
		rb, _ = p.deref(rb)
		req := ""
		if isTrue(get(rb, "required")) {
			req = " <span class=\"req\">required</span>"
		}
		p.w("<h4>Request body%s</h4>\n", req)
		if d := text(rb, "description"); d != "" {
			p.w("%s\n", markdown(d))
		}
		p.content(get(rb, "content"))
	}

	p.w("<h4>Responses</h4>\n<table><thead><tr><th>status</th><th>description</th><th>body</th></tr></thead><tbody>\n")
	for _, r := range pairs(get(o.op, "responses")) {
		resp, name := p.deref(r.v)
		desc := markdown(text(resp, "description"))
		if name != "" {
			desc = fmt.Sprintf("<a href=\"#response-%s\">%s</a>: %s", esc(name), esc(name), desc)
		}
		p.w("<tr><td class=\"status\">%s</td><td>%s%s</td><td>%s</td></tr>\n",
			esc(r.k), desc, p.headers(get(resp, "headers")), p.contentInline(get(resp, "content")))
	}
	p.w("</tbody></table>\n</article>\n")
}

// security describes who may call an operation.
func (p *page) security(op *yaml.Node) string {
	sec := get(op, "security")
	if sec == nil {
		sec = get(p.root, "security")
	}
	var alts []string
	for _, req := range items(sec) {
		var names []string
		for _, s := range pairs(req) {
			names = append(names, fmt.Sprintf("<a href=\"#scheme-%s\">%s</a>", esc(s.k), esc(s.k)))
		}
		if len(names) == 0 {
			return "none"
		}
		alts = append(alts, strings.Join(names, " and "))
	}
	if len(alts) == 0 {
		return "none"
	}
	return strings.Join(alts, " or ")
}

// content writes the media types of a request body and their schemas.
func (p *page) content(c *yaml.Node) {
	p.w("<ul class=\"content\">\n")
	for _, mt := range pairs(c) {
		p.w("<li><code>%s</code>: %s</li>\n", esc(mt.k), p.typeExpr(get(mt.v, "schema")))
	}
	p.w("</ul>\n")
}

// contentInline describes the media types of a response in one cell.
func (p *page) contentInline(c *yaml.Node) string {
	var parts []string
	for _, mt := range pairs(c) {
		parts = append(parts, fmt.Sprintf("<code>%s</code>: %s", esc(mt.k), p.typeExpr(get(mt.v, "schema"))))
	}
	if len(parts) == 0 {
		return "<span class=\"none\">no body</span>"
	}
	return strings.Join(parts, "<br>")
}

// headers describes the headers of a response.
func (p *page) headers(h *yaml.Node) string {
	var parts []string
	for _, e := range pairs(h) {
		hd, _ := p.deref(e.v)
		req := ""
		if isTrue(get(hd, "required")) {
			req = " (always)"
		}
		parts = append(parts, fmt.Sprintf("<code>%s</code>%s: %s", esc(e.k), req, inline(text(hd, "description"))))
	}
	if len(parts) == 0 {
		return ""
	}
	return "<div class=\"headers\">Headers: " + strings.Join(parts, "; ") + "</div>"
}

func (p *page) securitySchemes() {
	p.w("<section id=\"security\"><h2>Security schemes</h2>\n<dl>\n")
	for _, s := range pairs(get(get(p.root, "components"), "securitySchemes")) {
		kind := text(s.v, "type")
		switch kind {
		case "http":
			kind = "HTTP " + text(s.v, "scheme")
			if f := text(s.v, "bearerFormat"); f != "" {
				kind += " (" + f + ")"
			}
		case "apiKey":
			kind = "API key in the " + text(s.v, "in") + " " + text(s.v, "name")
		}
		p.w("<dt id=\"scheme-%s\"><code>%s</code>: %s</dt><dd>%s</dd>\n", esc(s.k), esc(s.k), esc(kind), markdown(text(s.v, "description")))
	}
	p.w("</dl>\n</section>\n")
}

func (p *page) sharedResponses() {
	p.w("<section id=\"responses\"><h2>Shared responses</h2>\n<table><thead><tr><th>name</th><th>description</th><th>body</th></tr></thead><tbody>\n")
	for _, r := range pairs(get(get(p.root, "components"), "responses")) {
		p.w("<tr id=\"response-%s\"><td><code>%s</code></td><td>%s%s</td><td>%s</td></tr>\n",
			esc(r.k), esc(r.k), markdown(text(r.v, "description")), p.headers(get(r.v, "headers")), p.contentInline(get(r.v, "content")))
	}
	p.w("</tbody></table>\n</section>\n")
}

func (p *page) schemas() {
	p.w("<section id=\"schemas\"><h2>Schemas</h2>\n")
	for _, s := range pairs(get(get(p.root, "components"), "schemas")) {
		p.w("<article class=\"schema\" id=\"schema-%s\">\n<h3>%s</h3>\n", esc(s.k), esc(s.k))
		p.schemaBody(s.v)
		p.w("</article>\n")
	}
	p.w("</section>\n")
}

// schemaBody describes a schema: its description, its type, its properties
// and its alternatives.
func (p *page) schemaBody(n *yaml.Node) {
	if d := text(n, "description"); d != "" {
		p.w("%s\n", markdown(d))
	}
	p.w("<p class=\"type\">Type: %s%s</p>\n", p.typeExpr(n), p.constraints(n))
	if req := items(get(n, "required")); len(req) > 0 && get(n, "properties") == nil {
		p.w("<p>Requires %s.</p>\n", codeList(req))
	}
	if get(n, "properties") != nil {
		p.properties(n)
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		alts := items(get(n, k))
		if len(alts) == 0 {
			continue
		}
		label := map[string]string{"oneOf": "Exactly one of", "anyOf": "At least one of", "allOf": "All of"}[k]
		p.w("<p>%s:</p>\n<ol class=\"alts\">\n", label)
		for _, a := range alts {
			p.w("<li>")
			if ref := text(a, "$ref"); ref != "" {
				p.w("%s", p.typeExpr(a))
			} else {
				p.schemaBody(a)
			}
			p.w("</li>\n")
		}
		p.w("</ol>\n")
	}
}

// properties writes the table of an object's properties, with the members
// of inline objects (and of arrays of inline objects) as dotted rows.
func (p *page) properties(n *yaml.Node) {
	p.w("<table><thead><tr><th>property</th><th>type</th><th>description</th></tr></thead><tbody>\n")
	p.propertyRows(n, "")
	p.w("</tbody></table>\n")
}

func (p *page) propertyRows(n *yaml.Node, prefix string) {
	required := map[string]bool{}
	for _, r := range items(get(n, "required")) {
		required[r.Value] = true
	}
	for _, pr := range pairs(get(n, "properties")) {
		req := ""
		if required[pr.k] {
			req = " <span class=\"req\">required</span>"
		}
		deprecated := ""
		if isTrue(get(pr.v, "deprecated")) {
			deprecated = " <span class=\"dep\">deprecated</span>"
		}
		p.w("<tr><td><code>%s%s</code>%s%s</td><td>%s</td><td>%s%s</td></tr>\n",
			esc(prefix), esc(pr.k), req, deprecated, p.typeExpr(pr.v), inline(text(pr.v, "description")), p.constraints(pr.v))
		switch {
		case get(pr.v, "$ref") == nil && get(pr.v, "properties") != nil:
			p.propertyRows(pr.v, prefix+pr.k+".")
		case text(pr.v, "type") == "array":
			if it := get(pr.v, "items"); get(it, "$ref") == nil && get(it, "properties") != nil {
				p.propertyRows(it, prefix+pr.k+"[].")
			}
		}
	}
}

// typeExpr describes the type of a schema in a few words, linking to the
// named schemas it uses.
func (p *page) typeExpr(n *yaml.Node) string {
	if n == nil {
		return "any"
	}
	if ref := text(n, "$ref"); ref != "" {
		name := refName(ref)
		return fmt.Sprintf("<a href=\"#schema-%s\">%s</a>", esc(name), esc(name))
	}
	if c := get(n, "const"); c != nil {
		return fmt.Sprintf("<code>%s</code>", esc(literal(c)))
	}
	for _, c := range []struct{ key, sep string }{{"oneOf", " | "}, {"anyOf", " | "}, {"allOf", " &amp; "}} {
		if alts := items(get(n, c.key)); len(alts) > 0 && get(n, "type") == nil {
			var parts []string
			for _, a := range alts {
				if len(pairs(a)) == 1 && get(a, "required") != nil {
					parts = append(parts, "with "+codeList(items(get(a, "required"))))
					continue
				}
				parts = append(parts, p.typeExpr(a))
			}
			return strings.Join(parts, c.sep)
		}
	}
	var types []string
	if t := get(n, "type"); t != nil {
		if t.Kind == yaml.SequenceNode {
			for _, x := range t.Content {
				types = append(types, x.Value)
			}
		} else {
			types = []string{t.Value}
		}
	}
	if len(types) == 0 {
		switch {
		case get(n, "properties") != nil:
			types = []string{"object"}
		case get(n, "pattern") != nil:
			types = []string{"string"}
		default:
			return "any"
		}
	}
	for i, t := range types {
		switch t {
		case "array":
			types[i] = "array of " + p.typeExpr(get(n, "items"))
		case "object":
			if ap := get(n, "additionalProperties"); ap != nil && ap.Kind == yaml.MappingNode && get(n, "properties") == nil {
				key := "string"
				if pn := get(n, "propertyNames"); pn != nil {
					key = p.typeExpr(pn)
				}
				types[i] = "map of " + key + " → " + p.typeExpr(ap)
			}
		default:
			if f := text(n, "format"); f != "" {
				types[i] = t + " (" + esc(f) + ")"
			}
		}
	}
	out := strings.Join(types, " | ")
	if e := items(get(n, "enum")); len(e) > 0 {
		out += ": one of " + codeList(e)
	}
	return out
}

// constraints lists a schema's bounds, pattern and default.
func (p *page) constraints(n *yaml.Node) string {
	if n == nil || get(n, "$ref") != nil {
		return ""
	}
	var parts []string
	for _, k := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "pattern", "default"} {
		if v := get(n, k); v != nil {
			parts = append(parts, fmt.Sprintf("%s <code>%s</code>", k, esc(literal(v))))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " <span class=\"constraints\">(" + strings.Join(parts, ", ") + ")</span>"
}

// deref follows a local $ref ("#/components/responses/Name"), returning the
// node it names and the name; a node without $ref is returned as it is.
func (p *page) deref(n *yaml.Node) (*yaml.Node, string) {
	ref := text(n, "$ref")
	if ref == "" {
		return n, ""
	}
	cur := p.root
	for _, seg := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		cur = get(cur, strings.NewReplacer("~1", "/", "~0", "~").Replace(seg))
		if cur == nil {
			if p.err == nil {
				p.err = fmt.Errorf("openapi: $ref %s names nothing", ref)
			}
			return n, ""
		}
	}
	return cur, refName(ref)
}

func refName(ref string) string { return ref[strings.LastIndexByte(ref, '/')+1:] }

// YAML tree helpers.

type pair struct {
	k string
	v *yaml.Node
}

// get is the value of key in a mapping, or nil.
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

func pairs(n *yaml.Node) []pair {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]pair, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, pair{n.Content[i].Value, n.Content[i+1]})
	}
	return out
}

func items(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// text is the scalar value of key in a mapping, or "".
func text(n *yaml.Node, key string) string {
	v := get(n, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	return v.Value
}

func isTrue(n *yaml.Node) bool { return n != nil && n.Kind == yaml.ScalarNode && n.Value == "true" }

// literal writes a small YAML value as JSON-like text.
func literal(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" {
			return `"` + n.Value + `"`
		}
		return n.Value
	case yaml.SequenceNode:
		var parts []string
		for _, c := range n.Content {
			parts = append(parts, literal(c))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return "…"
}

func codeList(ns []*yaml.Node) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = "<code>" + esc(literal(n)) + "</code>"
	}
	return strings.Join(parts, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func esc(s string) string { return html.EscapeString(s) }

// Descriptions are CommonMark in OpenAPI; the page renders the small part of
// it the document uses: paragraphs, "## " headings, "* " lists, pipe tables,
// `code` and **bold**.

var (
	codeSpan = regexp.MustCompile("`([^`]+)`")
	bold     = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// inline renders the inline markup of one line or paragraph.
func inline(s string) string {
	parts := codeSpan.Split(s, -1)
	codes := codeSpan.FindAllStringSubmatch(s, -1)
	var b strings.Builder
	for i, part := range parts {
		b.WriteString(bold.ReplaceAllString(esc(part), "<strong>$1</strong>"))
		if i < len(codes) {
			b.WriteString("<code>" + esc(codes[i][1]) + "</code>")
		}
	}
	return b.String()
}

func markdown(s string) string {
	var b strings.Builder
	for _, block := range strings.Split(strings.TrimSpace(s), "\n\n") {
		lines := strings.Split(strings.TrimRight(block, "\n"), "\n")
		switch first := strings.TrimSpace(lines[0]); {
		case first == "":
		case strings.HasPrefix(first, "## "):
			b.WriteString("<h3>" + inline(strings.TrimPrefix(first, "## ")) + "</h3>")
			if len(lines) > 1 {
				b.WriteString(markdown(strings.Join(lines[1:], "\n")))
			}
		case strings.HasPrefix(first, "* ") || strings.HasPrefix(first, "- "):
			b.WriteString("<ul>")
			var item []string
			flush := func() {
				if len(item) > 0 {
					b.WriteString("<li>" + inline(strings.Join(item, " ")) + "</li>")
					item = nil
				}
			}
			for _, l := range lines {
				t := strings.TrimSpace(l)
				if strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "- ") {
					flush()
					t = t[2:]
				}
				item = append(item, t)
			}
			flush()
			b.WriteString("</ul>")
		case strings.HasPrefix(first, "|"):
			b.WriteString("<table>")
			for i, l := range lines {
				cells := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
				if i == 1 {
					continue // the |---| separator
				}
				tag := "td"
				if i == 0 {
					tag = "th"
				}
				b.WriteString("<tr>")
				for _, c := range cells {
					b.WriteString("<" + tag + ">" + inline(strings.TrimSpace(c)) + "</" + tag + ">")
				}
				b.WriteString("</tr>")
			}
			b.WriteString("</table>")
		default:
			for i := range lines {
				lines[i] = strings.TrimSpace(lines[i])
			}
			b.WriteString("<p>" + inline(strings.Join(lines, " ")) + "</p>")
		}
	}
	return b.String()
}

const style = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;margin:0;background:#f7f8fa}
header{background:#1d2f4f;color:#fff;padding:1.2em 2em}header a{color:#cfe0ff}
header h1{margin:0 0 .2em}.meta{opacity:.85;margin:.2em 0}
main{max-width:1100px;margin:0 auto;padding:1em 2em 4em}
h2{border-bottom:2px solid #d5dae3;padding-bottom:.2em;margin-top:2em}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#eef1f6;padding:0 .25em;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:.5em 0 1em;background:#fff}
th,td{border:1px solid #d5dae3;padding:.35em .55em;text-align:left;vertical-align:top}
th{background:#eef1f6}
.op,.schema{background:#fff;border:1px solid #d5dae3;border-radius:6px;padding:.2em 1.2em .8em;margin:1.2em 0}
.op h3,.schema h3{margin:.6em 0 .3em}
.method{display:inline-block;min-width:4.2em;text-align:center;font:bold 12px/1.8 ui-monospace,monospace;color:#fff;border-radius:3px;padding:0 .4em}
.get{background:#2f7d32}.post{background:#1d5fb0}.put{background:#9a6200}.patch{background:#7b4bb3}.delete{background:#b3261e}
.head,.options,.trace{background:#555}
.summary{font-weight:600}.req{color:#b3261e;font-size:12px}.dep{color:#9a6200;font-size:12px}
.constraints,.none{color:#5b6475;font-size:13px}.headers{color:#5b6475;font-size:13px;margin-top:.3em}
.status{font-weight:bold;white-space:nowrap}
ul.ops{list-style:none;padding-left:0}ul.ops li{margin:.15em 0}ul.ops a{text-decoration:none}
nav h3{margin-bottom:.2em}
`
