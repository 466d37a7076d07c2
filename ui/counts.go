package ui

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Report is the token accounting behind the tool list and the header: per
// tool the baseline and the compact forms, and the whole server per form.
// It is computed off the UI goroutine and replaced whole, never mutated.
type Report struct {
	Enc    string
	Forms  []string                  // per-tool forms counted, "json" first
	Tools  map[string]map[string]int // tool name -> form -> tokens
	Totals map[string]int            // form -> tokens of the whole document
	Order  []string                  // forms in Totals, in registry order
}

// Tool returns the tokens of tool in form, or -1 when not counted.
func (r *Report) Tool(name, form string) int {
	if r == nil {
		return -1
	}
	if n, ok := r.Tools[name][form]; ok {
		return n
	}
	return -1
}

// computeReport renders every tool in the baseline and each right-hand form
// and counts them; it is the expensive part of connecting (a 1,000-tool
// server renders thousands of documents) and runs in a Cmd.
func computeReport(set *toolset.Set, r Renderer, c Counter, enc string) (*Report, error) {
	if c == nil || !c.Ready(enc) {
		return nil, fmt.Errorf("tokenizer %s not ready", enc)
	}
	rep := &Report{Enc: enc, Tools: make(map[string]map[string]int, len(set.Tools)), Totals: map[string]int{}}
	rep.Forms = append([]string{"json"}, r.Forms()...)
	for _, t := range set.Tools {
		m := make(map[string]int, len(rep.Forms))
		for _, f := range rep.Forms {
			var text string
			var err error
			if f == "json" {
				text = t.ModelFacing().Compact()
			} else {
				text, err = r.RenderTool(f, set, t)
			}
			if err == nil {
				m[f] = c.Count(enc, text)
			}
		}
		rep.Tools[t.Name] = m
	}
	for _, f := range r.Totals() {
		text, err := r.Render(f, set)
		if err != nil {
			continue
		}
		rep.Totals[f] = c.Count(enc, text)
		rep.Order = append(rep.Order, f)
	}
	return rep, nil
}

// savings formats the change from base to n as "-63%" (or "+12%").
func savings(base, n int) string {
	if base <= 0 || n < 0 {
		return ""
	}
	pct := (float64(n) - float64(base)) * 100 / float64(base)
	if pct > -0.5 && pct < 0.5 {
		return "±0%"
	}
	return fmt.Sprintf("%+.0f%%", pct)
}

// savingsRatio is the fraction saved against base (for sorting).
func savingsRatio(base, n int) float64 {
	if base <= 0 || n < 0 {
		return 0
	}
	return 1 - float64(n)/float64(base)
}

// thousands formats n as 12,345 so big counts stay readable.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
