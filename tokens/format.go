package tokens

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
)

// Formats lists the report formats, the default first.
func Formats() []string { return []string{"table", "md", "json", "csv"} }

// Write renders the report in one of Formats, for a terminal: names in
// table cells are cut at MaxNameCells.
func Write(w io.Writer, r *Report, format string) error {
	return WriteWith(w, r, format, WriteOptions{MaxName: MaxNameCells})
}

// WriteOptions say how a report is written.
type WriteOptions struct {
	// MaxName bounds a tool or server name in a table cell, in cells
	// (cut with "…"); 0 writes names whole, for output that is not a
	// terminal.
	MaxName int
}

// MaxNameCells is the bound on names on a terminal: hostile servers send
// 3 KB names as readily as 3 KB descriptions.
const MaxNameCells = 48

// WriteWith renders the report in one of Formats.
func WriteWith(w io.Writer, r *Report, format string, o WriteOptions) error {
	switch format {
	case "table":
		return writeText(w, r, false, o.MaxName)
	case "md":
		return writeText(w, r, true, o.MaxName)
	case "json":
		_, err := io.WriteString(w, terminalSafeJSON(JSON(r).Pretty())+"\n")
		return err
	case "csv":
		return writeCSV(w, r)
	}
	return fmt.Errorf("unknown format %q (want one of: %s)", format, strings.Join(Formats(), ", "))
}

// cellName makes untrusted text fit one table cell: escapes removed, one
// line, bounded by maxName cells (0: whole).
func cellName(s string, md bool, maxName int) string {
	s = safe.Line(s)
	if maxName > 0 && runewidth.StringWidth(s) > maxName {
		s = runewidth.Truncate(s, maxName, "…")
	}
	if md {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return s
}

func serverName(s *ServerReport) string { return s.DisplayName() }

func pct(counts map[string]int, form string) string {
	if p, ok := Saved(counts, form); ok {
		return strconv.FormatFloat(p, 'f', 1, 64) + "%"
	}
	return "–"
}

func ratio(counts map[string]int, form string) string {
	if q, ok := FloorRatio(counts, form); ok {
		return strconv.FormatFloat(q, 'f', 2, 64) + "×"
	}
	return "–"
}

func num(counts map[string]int, form string) string {
	if n, ok := counts[form]; ok {
		return strconv.Itoa(n)
	}
	return "err"
}

// table is rows of cells, the first column text and the rest numbers.
type table struct {
	rows [][]string
	bold map[int]bool // rows set in bold in Markdown (totals)
}

func (t *table) add(bold bool, cells ...string) {
	if bold {
		if t.bold == nil {
			t.bold = map[int]bool{}
		}
		t.bold[len(t.rows)] = true
	}
	t.rows = append(t.rows, cells)
}

// countsTable lays out named rows of counts with the totals and the two
// savings rows under them.
func countsTable(first string, forms []string, names []string, rows []map[string]int, totals map[string]int, md bool, maxName int) *table {
	t := &table{}
	t.add(false, append([]string{first}, forms...)...)
	for i, counts := range rows {
		cells := []string{cellName(names[i], md, maxName)}
		for _, f := range forms {
			cells = append(cells, num(counts, f))
		}
		t.add(false, cells...)
	}
	total, saved, floor := []string{"total"}, []string{"saved vs " + Baseline}, []string{"× " + Floor}
	for _, f := range forms {
		total = append(total, num(totals, f))
		saved = append(saved, pct(totals, f))
		floor = append(floor, ratio(totals, f))
	}
	t.add(true, total...)
	t.add(false, saved...)
	t.add(false, floor...)
	return t
}

// withWindow adds the row of each total's share of ContextWindow, under a
// server's table and the all-servers one: what a server, or a whole
// config, takes of the window before any work.
func (t *table) withWindow(forms []string, totals map[string]int) *table {
	row := []string{"of a 200k window"}
	for _, f := range forms {
		cell := "–"
		if p, ok := WindowShare(totals, f); ok {
			cell = strconv.FormatFloat(p, 'f', 1, 64) + "%"
		}
		row = append(row, cell)
	}
	t.add(false, row...)
	return t
}

// writeSkipped names the servers a report over a config left out.
func writeSkipped(w io.Writer, r *Report, md bool) {
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "%snot counted: %s: %s\n", bullet(md), cellName(s.Server, md, 0), noteText(s.Reason, md))
	}
}

func (t *table) write(w io.Writer, md bool) {
	if md {
		for i, row := range t.rows {
			cells := row
			if t.bold[i] {
				cells = make([]string, len(row))
				for j, c := range row {
					cells[j] = "**" + c + "**"
				}
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
			if i == 0 {
				sep := make([]string, len(row))
				sep[0] = "---"
				for j := 1; j < len(row); j++ {
					sep[j] = "---:"
				}
				fmt.Fprintf(w, "|%s|\n", strings.Join(sep, "|"))
			}
		}
		return
	}
	widths := make([]int, len(t.rows[0]))
	for _, row := range t.rows {
		for j, c := range row {
			widths[j] = max(widths[j], runewidth.StringWidth(c))
		}
	}
	for _, row := range t.rows {
		var b strings.Builder
		for j, c := range row {
			pad := strings.Repeat(" ", widths[j]-runewidth.StringWidth(c))
			if j == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func writeText(w io.Writer, r *Report, md bool, maxName int) error {
	for i, s := range r.Servers {
		if i > 0 {
			fmt.Fprintln(w)
		}
		title := fmt.Sprintf("%s · %d tools · %s", cellName(serverName(s), false, maxName), len(s.Tools), r.Encoding)
		if md {
			fmt.Fprintf(w, "### %s\n\n", cellName(serverName(s), true, maxName)+fmt.Sprintf(" (%d tools, %s)", len(s.Tools), r.Encoding))
		} else {
			fmt.Fprintln(w, title)
		}
		names := make([]string, len(s.Tools))
		rows := make([]map[string]int, len(s.Tools))
		for j, t := range s.Tools {
			names[j], rows[j] = t.Name, t.Counts
		}
		countsTable("tool", r.Forms, names, rows, s.Totals, md, maxName).withWindow(r.Forms, s.Totals).write(w, md)
		if md {
			fmt.Fprintln(w)
		}
		writeTrue(w, r, s.True, s.Totals[Baseline], md)
		writeGateway(w, r, s, md)
		writeNotes(w, r, s, md)
	}
	if len(r.Servers) > 1 {
		fmt.Fprintln(w)
		if md {
			fmt.Fprintf(w, "### All servers (%s)\n\n", r.Encoding)
		} else {
			fmt.Fprintf(w, "all servers · %s\n", r.Encoding)
		}
		names := make([]string, len(r.Servers))
		rows := make([]map[string]int, len(r.Servers))
		for j, s := range r.Servers {
			names[j], rows[j] = serverName(s), s.Totals
		}
		totals, incomplete := r.GrandTotal()
		countsTable("server", r.Forms, names, rows, totals, md, maxName).withWindow(r.Forms, totals).write(w, md)
		if md {
			fmt.Fprintln(w)
		}
		trueTotals, trueIncomplete := r.TrueGrandTotal()
		writeTrue(w, r, trueTotals, totals[Baseline], md)
		if len(incomplete) > 0 {
			fmt.Fprintf(w, "%sno grand total for %s: it failed for some server\n", bullet(md), strings.Join(incomplete, ", "))
		}
		if len(trueIncomplete) > 0 {
			fmt.Fprintf(w, "%sno true cost in the grand total for %s: it failed for some server\n", bullet(md), strings.Join(trueIncomplete, ", "))
		}
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintln(w)
		writeSkipped(w, r, md)
	}
	return nil
}

func bullet(md bool) string {
	if md {
		return "- "
	}
	return ""
}

// writeNotes prints what sits under a server's table (Notes), each line
// sanitised for the terminal and Markdown.
func writeNotes(w io.Writer, r *Report, s *ServerReport, md bool) {
	for _, n := range r.Notes(s) {
		fmt.Fprintf(w, "%s%s\n", bullet(md), noteText(n, md))
	}
}

// Notes are the lines under a server's table in every format that has
// them (text, Markdown, the HTML page): the left-out parts, then every
// failure — a deferred form's true cost, a form's whole document, a form
// per tool collapsed to one line — so a failing form is explained rather
// than missing. They hold server text: sanitise them for the output.
func (r *Report) Notes(s *ServerReport) []string {
	var parts []string
	for _, k := range LeftOutKinds() {
		p := s.LeftOut[k]
		parts = append(parts, fmt.Sprintf("%s %d (%d tokens)", k, p.Count, p.Tokens))
	}
	out := []string{"left out of compact forms (json_full tokens): " + strings.Join(parts, " · ")}
	for _, f := range r.DeferredForms() {
		if msg, ok := s.TrueErrors[f]; ok {
			out = append(out, f+" true cost failed: "+msg)
		}
	}
	for _, f := range r.Forms {
		if msg, ok := s.Errors[f]; ok {
			out = append(out, f+" failed: "+msg)
			continue
		}
		var tools []string
		var first string
		for _, t := range s.Tools {
			if msg, ok := t.Errors[f]; ok {
				if first == "" {
					first = msg
				}
				tools = append(tools, t.Name)
			}
		}
		if len(tools) > 0 {
			out = append(out, fmt.Sprintf("%s failed for %d tool(s), first %s: %s", f, len(tools), tools[0], first))
		}
	}
	return out
}

func noteText(msg string, md bool) string {
	msg = safe.Sanitize(msg, safe.Options{SingleLine: true, Max: 300})
	if md {
		msg = strings.ReplaceAll(msg, "|", `\|`)
	}
	return msg
}

// JSON is the machine-readable report, key order fixed: for one server
// {"encoding", "server", "source", "forms", "tools", "totals", "savings",
// "left_out", "true_costs", "gateway", "errors", "true_cost_errors"}; for
// several {"encoding", "forms", "servers": [the same objects without
// "encoding" and "forms"], "grand_total", "true_cost_grand_total"}.
func JSON(r *Report) *ojson.Value {
	if len(r.Servers) == 1 {
		o := ojson.NewObject().Set("encoding", ojson.NewString(r.Encoding))
		for _, m := range serverJSON(r, r.Servers[0], true).Members {
			o.Set(m.Key, m.Value)
		}
		return withSkipped(o, r)
	}
	o := ojson.NewObject().
		Set("encoding", ojson.NewString(r.Encoding)).
		Set("forms", stringsJSON(r.Forms))
	servers := ojson.NewArray()
	for _, s := range r.Servers {
		servers.Items = append(servers.Items, serverJSON(r, s, false))
	}
	o.Set("servers", servers)
	totals, incomplete := r.GrandTotal()
	o.Set("grand_total", countsJSON(r.Forms, totals))
	window := ojson.NewObject()
	for _, f := range r.Forms {
		if p, ok := WindowShare(totals, f); ok {
			window.Set(f, ojson.NewNumber(strconv.FormatFloat(p, 'f', 2, 64)))
		}
	}
	o.Set("grand_total_window_pct", window)
	if len(incomplete) > 0 {
		o.Set("grand_total_incomplete", stringsJSON(incomplete))
	}
	if len(r.DeferredForms()) > 0 {
		trueTotals, trueIncomplete := r.TrueGrandTotal()
		o.Set("true_cost_grand_total", trueJSON(r, trueTotals, totals[Baseline]))
		if len(trueIncomplete) > 0 {
			o.Set("true_cost_grand_total_incomplete", stringsJSON(trueIncomplete))
		}
	}
	return withSkipped(o, r)
}

// withSkipped adds the servers a report over a config left out, when any.
func withSkipped(o *ojson.Value, r *Report) *ojson.Value {
	if len(r.Skipped) == 0 {
		return o
	}
	arr := ojson.NewArray()
	for _, s := range r.Skipped {
		arr.Items = append(arr.Items, ojson.NewObject().
			Set("server", ojson.NewString(s.Server)).
			Set("reason", ojson.NewString(s.Reason)))
	}
	return o.Set("skipped", arr)
}

func serverJSON(r *Report, s *ServerReport, withForms bool) *ojson.Value {
	o := ojson.NewObject().Set("server", ojson.NewString(s.Server))
	if s.Entry != "" {
		o.Set("entry", ojson.NewString(s.Entry))
	}
	if s.Source != "" {
		o.Set("source", ojson.NewString(s.Source))
	}
	if withForms {
		o.Set("forms", stringsJSON(r.Forms))
	}
	tools := ojson.NewArray()
	for _, t := range s.Tools {
		to := ojson.NewObject().Set("name", ojson.NewString(t.Name)).Set("forms", countsJSON(r.Forms, t.Counts))
		if len(t.Errors) > 0 {
			to.Set("errors", errorsJSON(r.Forms, t.Errors))
		}
		tools.Items = append(tools.Items, to)
	}
	o.Set("tools", tools).Set("totals", countsJSON(r.Forms, s.Totals))
	savings := ojson.NewObject()
	for _, f := range r.Forms {
		so := ojson.NewObject()
		if p, ok := Saved(s.Totals, f); ok {
			so.Set("saved_vs_json_pct", ojson.NewNumber(strconv.FormatFloat(p, 'f', 1, 64)))
		}
		if q, ok := FloorRatio(s.Totals, f); ok {
			so.Set("floor_ratio", ojson.NewNumber(strconv.FormatFloat(q, 'f', 2, 64)))
		}
		if w, ok := WindowShare(s.Totals, f); ok {
			so.Set("window_pct", ojson.NewNumber(strconv.FormatFloat(w, 'f', 2, 64)))
		}
		if len(so.Members) > 0 {
			savings.Set(f, so)
		}
	}
	o.Set("savings", savings)
	lo := ojson.NewObject()
	for _, k := range LeftOutKinds() {
		p := s.LeftOut[k]
		lo.Set(k, ojson.NewObject().Set("count", ojson.NewInt(int64(p.Count))).Set("tokens", ojson.NewInt(int64(p.Tokens))))
	}
	o.Set("left_out", lo)
	if len(r.DeferredForms()) > 0 {
		o.Set("true_costs", trueJSON(r, s.True, s.Totals[Baseline]))
	}
	if g := r.Gateway(s); len(g) > 0 {
		o.Set("gateway", gatewayJSON(g, s.Totals[Baseline]))
	}
	if len(s.Errors) > 0 {
		o.Set("errors", errorsJSON(r.Forms, s.Errors))
	}
	if len(s.TrueErrors) > 0 {
		o.Set("true_cost_errors", errorsJSON(r.Forms, s.TrueErrors))
	}
	return o
}

func countsJSON(forms []string, counts map[string]int) *ojson.Value {
	o := ojson.NewObject()
	for _, f := range forms {
		if n, ok := counts[f]; ok {
			o.Set(f, ojson.NewInt(int64(n)))
		}
	}
	return o
}

func errorsJSON(forms []string, errs map[string]string) *ojson.Value {
	o := ojson.NewObject()
	for _, f := range forms {
		if msg, ok := errs[f]; ok {
			o.Set(f, ojson.NewString(msg))
		}
	}
	return o
}

func stringsJSON(ss []string) *ojson.Value {
	a := ojson.NewArray()
	for _, s := range ss {
		a.Items = append(a.Items, ojson.NewString(s))
	}
	return a
}

// terminalSafeJSON escapes the characters JSON may carry raw but a terminal
// may act on — DEL, C1 controls, bidi controls — as \uXXXX. They can only
// occur inside strings, where the escape means the same character, so the
// document is unchanged for any JSON reader.
func terminalSafeJSON(s string) string {
	if !strings.ContainsFunc(s, termUnsafe) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if termUnsafe(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func termUnsafe(r rune) bool {
	return r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// writeCSV writes one row per tool: server, tool, each form's count (empty
// where the form failed), and the row kind "tool". Names are sanitised like
// table cells, since CSV lands on terminals as often as in spreadsheets.
// Totals are not rows: a whole document's count is not the sum of its
// tools', and a spreadsheet would add it in. The deferred forms are the
// exception, by design: their tool cells are per-tool exchanges, and two
// more rows per server (kinds "upfront" and "operations_list", tool empty,
// counts in the deferred columns only) make a deferred column's sum over a
// server its true cost.
func writeCSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	cw.Write(append(append([]string{"server", "tool"}, r.Forms...), "row"))
	for _, s := range r.Servers {
		for _, t := range s.Tools {
			row := []string{csvText(serverName(s)), csvText(t.Name)}
			for _, f := range r.Forms {
				if n, ok := t.Counts[f]; ok {
					row = append(row, strconv.Itoa(n))
				} else {
					row = append(row, "")
				}
			}
			cw.Write(append(row, "tool"))
		}
		if len(r.DeferredForms()) == 0 {
			continue
		}
		for _, kind := range []string{"upfront", "operations_list"} {
			row := []string{csvText(serverName(s)), ""}
			for _, f := range r.Forms {
				c, ok := s.True[f]
				switch {
				case !ok:
					row = append(row, "")
				case kind == "upfront":
					row = append(row, strconv.Itoa(c.Upfront))
				default:
					row = append(row, strconv.Itoa(c.OperationsList))
				}
			}
			cw.Write(append(row, kind))
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvText makes a name safe to print and keeps a spreadsheet from running it
// as a formula.
func csvText(s string) string {
	s = safe.Line(s)
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}
