package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/safe"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/themes"
	"github.com/mcpterm/mcpterm/ui"
)

func demoSource() session.Source {
	clock := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	return session.Source{Kind: session.InProcess, Name: "demo", Server: demo.New(demo.Options{Seed: 7, Now: func() time.Time { return clock }})}
}

// demoOptions wires the workbench to the in-process demo server exactly as
// cmd_tui.go does, with the state kept in a temporary directory.
func demoOptions(t testing.TB) ui.Options {
	// Not t.TempDir: an autosave Cmd may still be writing the draft when
	// the program has quit, and TempDir's cleanup fails on that.
	dir, err := os.MkdirTemp("", "mcpterm-ui-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		time.Sleep(50 * time.Millisecond)
		os.RemoveAll(dir)
	})
	store, err := NewStore(func(k string) string {
		if k == "XDG_STATE_HOME" {
			return dir
		}
		return ""
	}, dir, "demo", history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	theme, _ := themes.Parse("dark", false)
	return ui.Options{
		Connect:    Connect(demoSource(), session.Options{ClientName: "mcpterm-test"}, ConnectOptions{History: store.Log()}),
		Counter:    NewCounter(),
		Codec:      NewCodec(),
		Renderer:   &Renderer{},
		Classifier: &Classifier{},
		Store:      store,
		Sanitize:   safe.Text,
		Theme:      theme,
		WorkingDir: dir,
	}
}

type flow struct {
	t   *testing.T
	tm  *teatest.TestModel
	out bytes.Buffer // output since the last keys
	all bytes.Buffer // everything the program wrote
}

func startFlow(t *testing.T, opts ui.Options, w, h int) *flow {
	tm := teatest.NewTestModel(t, ui.New(opts), teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	return &flow{t: t, tm: tm}
}

func (f *flow) wait(words ...string) {
	f.t.Helper()
	var seen []byte // WaitFor hands over everything it has read in this call
	teatest.WaitFor(f.t, f.tm.Output(), func(b []byte) bool {
		seen = b
		plain := ansi.Strip(f.out.String() + string(b))
		for _, w := range words {
			if !strings.Contains(plain, w) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	f.out.Write(seen)
	f.all.Write(seen)
}

func (f *flow) send(keys ...tea.Msg) {
	f.out.Reset()
	for _, k := range keys {
		f.tm.Send(k)
	}
}

func (f *flow) typeText(s string) {
	f.out.Reset()
	f.tm.Type(s)
}

func key(code rune, mod tea.KeyMod) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code, Mod: mod} }

func (f *flow) finish() string {
	f.t.Helper()
	f.send(key('c', tea.ModCtrl), key('c', tea.ModCtrl))
	fm := f.tm.FinalModel(f.t, teatest.WithFinalTimeout(20*time.Second)).(*ui.Model)
	return ansi.Strip(fm.Screen())
}

// normalize hides what legitimately changes between runs or with the
// converters' output: durations, token counts of the compact forms, the
// header's totals line, clock times.
var (
	reDur    = regexp.MustCompile(`\d+(\.\d+)?(µs|ms|s)\b`)
	reCounts = regexp.MustCompile(`[\d,]+→[\d,]+ +[-+±]\d+%`)
	reTok    = regexp.MustCompile(`[\d,]+ tok`)
	rePct    = regexp.MustCompile(`[-+]\d+%`)
)

func normalize(screen string) string {
	lines := strings.Split(screen, "\n")
	if len(lines) > 1 {
		lines[1] = "<totals>"
	}
	s := strings.Join(lines, "\n")
	s = reCounts.ReplaceAllStringFunc(s, func(m string) string { return pad("<n→n>", len([]rune(m))) })
	s = reTok.ReplaceAllStringFunc(s, func(m string) string { return pad("<n> tok", len([]rune(m))) })
	s = rePct.ReplaceAllStringFunc(s, func(m string) string { return pad("<%>", len([]rune(m))) })
	s = reDur.ReplaceAllString(s, "<t>")
	// Replacements change widths; runs of spaces are collapsed so the
	// frame's right edge does not move with them.
	return reSpaces.ReplaceAllString(s, " ")
}

var reSpaces = regexp.MustCompile(`  +`)

func pad(s string, n int) string {
	if len([]rune(s)) >= n {
		return s
	}
	return s + strings.Repeat(" ", n-len([]rune(s)))
}

// The main flow against the real demo server: browse, compose a batch in
// MCP-Term, run it, see each result.
func TestDemoComposeRunBatch(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			f := startFlow(t, demoOptions(t), sz[0], sz[1])
			f.wait("o200k", "file_read")
			f.send(key('2', 0))
			f.typeText(`(batch (1 (fr "/etc/hosts")) (2 (ct "buy milk")) (3 (gt "nope")))`)
			f.wait("batch of 3 calls", "S-expr")
			f.send(key('r', tea.ModCtrl))
			f.wait("2 ok", "1 failed")
			f.wait("localhost") // the rendered results, which follow the outcome
			screen := f.finish()
			if !strings.Contains(screen, "localhost") {
				t.Errorf("result lacks the file:\n%s", screen)
			}
			golden.RequireEqual(t, normalize(screen))
		})
	}
}

func TestDemoBrowseAndExplore(t *testing.T) {
	f := startFlow(t, demoOptions(t), 160, 48)
	f.wait("o200k", "data_platform_query")
	// The protocol tab has the handshake from before the UI subscribed.
	f.send(key('3', 0), key(tea.KeyLeft, 0))
	f.wait("tools/list")
	screen := f.finish()
	if !strings.Contains(screen, "tools/list") {
		t.Errorf("protocol tab:\n%s", screen)
	}
}

// A server that cannot start shows its stderr in the UI, not on exit.
func TestDemoConnectFailureShowsStderr(t *testing.T) {
	opts := demoOptions(t)
	opts.Connect = Connector(session.Source{Kind: session.Stdio, Command: "sh", Args: []string{"-c", "read -r line; echo 'fatal: no config file' >&2; exit 3"}}, session.Options{ConnectTimeout: 10 * time.Second})
	f := startFlow(t, opts, 100, 30)
	f.wait("Connection", "retries")
	screen := f.finish()
	if !strings.Contains(screen, "r retries") || !strings.Contains(screen, "fatal: no config file") || !strings.Contains(screen, "exit status 3") {
		t.Errorf("connection failure screen lacks the stderr, the status or the retry hint:\n%s", screen)
	}
}

func TestCodecSExpressionAQLAndJSON(t *testing.T) {
	ctx := context.Background()
	s, err := session.Open(ctx, demoSource(), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	set, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := NewCodec()
	p, err := c.Parse(set, `(fr "/etc/hosts")`)
	if err != nil || p.Syntax != "sexpr" || p.Calls[0].Tool != "file_read" || p.Calls[0].Arguments.Get("path").StringOr("") != "/etc/hosts" {
		t.Fatalf("sexpr: %+v %v", p, err)
	}
	_, err = c.Parse(set, "(fr\n  :nope 1)")
	var pe ui.ErrorPosition
	if !errors.As(err, &pe) || pe.Position().Line != 2 {
		t.Fatalf("error position: %v", err)
	}
	for _, syntax := range []string{"aql", "json", "sexpr"} {
		text, err := c.Format(set, p, syntax)
		if err != nil {
			t.Fatalf("format %s: %v", syntax, err)
		}
		back, err := c.Parse(set, text)
		if err != nil || back.Syntax != syntax || !ojson.Equal(back.Calls[0].Arguments, p.Calls[0].Arguments) {
			t.Errorf("%s round trip: %q -> %+v, %v", syntax, text, back, err)
		}
	}
	in, err := c.Parse(set, `{"operation": "introspect", "params": {"query": "operations"}}`)
	if err != nil || in.Calls[0].Direct == nil {
		t.Fatalf("introspect should be answered locally: %+v %v", in, err)
	}
	if _, err := c.Parse(set, `{"operation": "file_read", "params": {"path": "/a", "bogus": 1}}`); err == nil || !strings.Contains(err.Error(), "UNKNOWN_PARAM") {
		t.Errorf("AQL unknown param: %v", err)
	}
	tpl := c.Template(set, set.Find("file_read"))
	if !strings.HasPrefix(tpl, "(fr") {
		t.Errorf("template: %q", tpl)
	}
}

func TestConvertResultTypes(t *testing.T) {
	raw, _ := ojson.Parse([]byte(`{"content":[{"type":"text","text":"hi"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"resource","resource":{"uri":"file:///a","mimeType":"text/plain","text":"body"}},{"type":"resource_link","uri":"file:///b","name":"b"},{"type":"future_thing"}],"structuredContent":{"n":1},"isError":true}`))
	r := ConvertResult(raw)
	if len(r.Content) != 5 || !r.IsError || r.Structured == nil {
		t.Fatalf("%+v", r)
	}
	if c := r.Content[1]; c.Type != "image" || c.DataSize != 3 || c.MIME != "image/png" {
		t.Errorf("image: %+v", c)
	}
	if c := r.Content[2]; c.URI != "file:///a" || c.Text != "body" {
		t.Errorf("resource: %+v", c)
	}
	if c := r.Content[4]; c.Type != "future_thing" {
		t.Errorf("unknown content type lost its name: %+v", c)
	}
}

func TestStoreDraftAndHistory(t *testing.T) {
	dir := t.TempDir()
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return dir
		}
		return ""
	}
	st, err := NewStore(getenv, dir, "demo", history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d, err := st.LoadDraft(); d != "" || err != nil {
		t.Fatalf("fresh draft: %q %v", d, err)
	}
	if err := st.SaveDraft("(fr \"/a\")\n"); err != nil {
		t.Fatal(err)
	}
	if d, _ := st.LoadDraft(); d != "(fr \"/a\")\n" {
		t.Errorf("draft: %q", d)
	}
	other, _ := NewStore(getenv, dir, "stdio: other", history.Options{})
	if d, _ := other.LoadDraft(); d != "" {
		t.Errorf("another server sees this server's draft: %q", d)
	}

	// Calls run through the Backend land in the history: a single call by
	// its source, a batch once.
	ctx := context.Background()
	conn := Connect(demoSource(), session.Options{}, ConnectOptions{History: st.Log()})
	b, err := conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	args, _ := ojson.Parse([]byte(`{"path": "/etc/hosts"}`))
	if _, err := b.Call(ctx, ui.CallRequest{ID: 1, Tool: "file_read", Arguments: args, Source: `(fr "/etc/hosts")`}); err != nil {
		t.Fatal(err)
	}
	batch := `(batch (1 (lt)) (2 (gt "nope")))`
	b.Call(ctx, ui.CallRequest{ID: 2, Tool: "list_todos", Source: batch, Batch: true, BatchID: "1"})
	gtArgs, _ := ojson.Parse([]byte(`{"id": "nope"}`))
	b.Call(ctx, ui.CallRequest{ID: 2, Tool: "get_todo", Arguments: gtArgs, Source: batch, Batch: true, BatchID: "2"})
	h, err := st.History(10)
	if err != nil || strings.Join(h, "|") != `(fr "/etc/hosts")|`+batch {
		t.Errorf("history: %q %v", h, err)
	}
	entries, _ := st.Log().Recent(0)
	if len(entries) != 3 || entries[0].Outcome != history.ToolError || entries[0].BatchID != "2" {
		t.Errorf("recorded entries: %+v", entries)
	}
}

func TestRendererIntrospectAndClassifier(t *testing.T) {
	set, err := toolset.Parse([]byte(`{"tools":[{"name":"delete_file","description":"Delete a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}},{"name":"get_file","inputSchema":{"type":"object"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := &Renderer{}
	forms := r.Forms()
	if forms[len(forms)-1] != "aql_introspect" && forms[0] != "aql_introspect" {
		t.Errorf("forms: %v", forms)
	}
	text, err := r.RenderTool("aql_introspect", set, set.Tools[0])
	if err != nil || !strings.Contains(text, `"delete_file"`) && !strings.Contains(text, "DELETE") {
		t.Errorf("introspect: %v\n%s", err, text)
	}
	c := &Classifier{}
	if got := c.Category(set, set.Tools[0]); got != "DELETE" {
		t.Errorf("delete_file: %s", got)
	}
	if got := c.Category(set, set.Tools[1]); got != "READ" {
		t.Errorf("get_file: %s", got)
	}
}

// A hostile server: its tool name, description and result carry OSC 52
// (clipboard write), an OSC 8 hyperlink, cursor moves, a screen clear and
// colour codes. None of them may reach the terminal: the test reads the
// bytes the program actually wrote.
func TestHostileServerEmitsNoEscapes(t *testing.T) {
	const (
		evilName = "steal\x1b]52;c;SGVsbG8=\x07_it"
		evilDesc = "Harmless.\x1b[2J\x1b[10;10H moved \x1b[31mRED\x1b[0m \x1b]8;;http://evil\x07link\x1b]8;;\x07 \u009b31m"
		evilText = "result \x1b]52;c;cHduZWQ=\x07 \x1b[31mRED\x1b[0m \x1b[10;10H moved"
	)
	srv := server.NewMCPServer("evil\x1b]0;title\x07", "1.0\x1b[2J")
	srv.AddTool(mcp.NewTool(evilName, mcp.WithDescription(evilDesc)), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(evilText), nil
	})
	opts := demoOptions(t)
	opts.Connect = Connector(session.Source{Kind: session.InProcess, Name: "evil", Server: srv}, session.Options{})
	f := startFlow(t, opts, 160, 48)
	f.wait("o200k", "steal")
	f.send(key('i', 0)) // the whole tool as sent
	f.wait("sent")
	f.send(key(tea.KeyEnter, 0))
	f.wait("Composer")
	f.send(key('r', tea.ModCtrl))
	f.wait("destructive") // no annotations: MCP's default says it may be
	f.send(key('y', 0))
	f.wait("result")
	var raw bytes.Buffer
	screen := f.finish()
	out, _ := io.ReadAll(f.tm.FinalOutput(t))
	raw.Write(f.all.Bytes())
	raw.Write(out)
	for _, bad := range []string{"\x1b]52;", "\x1b]8;;http://evil", "\x1b]0;title", "\x1b[10;10H moved", "\x1b[31mRED", "\u009b31m", "\x07_it"} {
		if bytes.Contains(raw.Bytes(), []byte(bad)) {
			t.Errorf("the terminal received %q", bad)
		}
	}
	for _, want := range []string{"steal", "RED", "moved", "result"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the text %q itself should still show:\n%s", want, screen)
		}
	}
}

// An AQL call answers with the AQL response (projected when it asks for
// fields), while the raw MCP result stays for the (ok ...) view.
func TestAQLCallAnswersAsAQL(t *testing.T) {
	ctx := context.Background()
	s, err := session.Open(ctx, demoSource(), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	set, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBackend(s, set)
	c := NewCodec()
	run := func(src string) *ui.CallResult {
		t.Helper()
		p, err := c.Parse(set, src)
		if err != nil || len(p.Calls) != 1 || p.Calls[0].Answer == nil {
			t.Fatalf("parse %s: %+v %v", src, p, err)
		}
		res, err := b.Call(ctx, ui.CallRequest{ID: 1, Tool: p.Calls[0].Tool, Arguments: p.Calls[0].Arguments})
		if err != nil {
			t.Fatal(err)
		}
		return p.Calls[0].Answer(res)
	}
	ok := run(`{"operation": "list_todos", "params": {"fields": ["items.title"]}}`)
	resp, err := ojson.Parse([]byte(ok.Content[0].Text))
	if err != nil || ok.IsError || resp.Get("success") == nil || !resp.Get("success").Bool {
		t.Fatalf("answer %q: %v", ok.Content[0].Text, err)
	}
	if items := resp.Get("data").Get("items"); items == nil || len(items.Items) == 0 || items.Items[0].Has("id") || !items.Items[0].Has("title") {
		t.Errorf("not projected to titles: %s", resp.Compact())
	}
	if ok.Raw == nil || ok.Raw.Get("content") == nil {
		t.Error("the raw MCP result is gone")
	}
	bad := run(`{"operation": "get_todo", "params": {"id": "no-such-id"}}`)
	resp, _ = ojson.Parse([]byte(bad.Content[0].Text))
	if !bad.IsError || resp.Get("error").Get("code").StringOr("") != "INTERNAL_ERROR" {
		t.Errorf("a tool error should answer success=false: %s", bad.Content[0].Text)
	}
}
