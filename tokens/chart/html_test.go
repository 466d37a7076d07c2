package chart

import (
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/mcpterm/mcpterm/tokens"
)

// parseHTML reads a page with the HTML5 parser browsers use.
func parseHTML(t testing.TB, page string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	})
	return b.String()
}

func countScripts(t testing.TB, page string) int {
	n := 0
	walk(parseHTML(t, page), func(c *html.Node) {
		if c.Type == html.ElementNode && c.Data == "script" {
			n++
		}
	})
	return n
}

// TestHTMLPage: the page parses; its CSP forbids every load and allows
// exactly the inline style and script by their hashes (worked out here
// from the parsed elements' text); nothing has src or an outside href;
// it holds the chart, one sortable table per server plus the servers'
// table, every tool by name, the AQL true-cost table and the left-out
// note.
func TestHTMLPage(t *testing.T) {
	r := report(t, todoSet(t), hardSet(t))
	doc := parseHTML(t, HTML(r, Options{Date: testDate}))
	var csp, script, style string
	var tables, svgs, aqls int
	rows := map[string][]string{}
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.Data {
		case "meta":
			if attr(n, "http-equiv") == "Content-Security-Policy" {
				csp = attr(n, "content")
			}
		case "script":
			script = textOf(n)
		case "style":
			style = textOf(n)
		case "svg":
			svgs++
		case "table":
			if attr(n, "class") == "sortable" {
				tables++
				id := attr(n, "id")
				walk(n, func(c *html.Node) {
					if c.Type == html.ElementNode && c.Data == "tr" && attr(c, "data-i") != "" {
						rows[id] = append(rows[id], textOf(c.FirstChild))
					}
				})
			}
			if attr(n, "class") == "aql" {
				aqls++
			}
		}
		for _, a := range n.Attr {
			if a.Key == "src" || a.Key == "href" && !strings.HasPrefix(a.Val, "#") {
				t.Errorf("<%s %s=%q>: a load", n.Data, a.Key, a.Val)
			}
		}
	})
	for _, want := range []string{"default-src 'none'", "style-src '" + sha(style) + "'", "script-src '" + sha(script) + "'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP allows any inline code: %q", csp)
	}
	if svgs != 1 || tables != len(r.Servers)+1 || aqls != len(r.Servers)+1 {
		t.Errorf("%d charts, %d sortable tables, %d AQL tables for %d servers", svgs, tables, aqls, len(r.Servers))
	}
	for i, s := range r.Servers {
		var names []string
		for _, tc := range s.Tools {
			names = append(names, tc.Name)
		}
		if got := rows["tools-"+strconv.Itoa(i)]; !slices.Equal(got, names) {
			t.Errorf("server %d rows %q, want %q", i, got, names)
		}
	}
	if page := textOf(doc); !strings.Contains(page, "left out of compact forms (json_full tokens): icons") ||
		!strings.Contains(page, tokens.TrueCostNote(r.DeferredForms())) {
		t.Error("the notes are missing")
	}
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// TestHTMLHostileNames: hostile server and tool names, and failure
// messages carrying them, stay text in the page: one script (the page's),
// no element the names spell, the names' visible letters in the text.
func TestHTMLHostileNames(t *testing.T) {
	page := HTML(hostileReport(), Options{Date: testDate})
	doc := parseHTML(t, page)
	scripts, bolds := 0, 0
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "script" {
			scripts++
		}
		if n.Type == html.ElementNode && n.Data == "b" {
			bolds++
		}
	})
	if scripts != 1 || bolds != 0 {
		t.Fatalf("%d scripts, %d <b> elements: markup in a name got through", scripts, bolds)
	}
	text := textOf(doc)
	if !strings.Contains(text, "</text><script>alert(1)</script>") || strings.ContainsAny(text, "\x1b\u202e\x00") {
		t.Errorf("the hostile name is not shown safely as text")
	}
	if !strings.Contains(text, "term failed: render failed: evil") {
		t.Errorf("the failure note is missing")
	}
	if strings.Contains(page, "\x1b") || strings.Contains(page, "\u202e") {
		t.Errorf("a control character reached the page")
	}
}
