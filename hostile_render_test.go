package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpterm/mcpterm/session/hostile"
	"github.com/mcpterm/mcpterm/ui"
)

// The render/… scenarios: a server whose results, resources, prompts and
// descriptions carry control sequences in every spelling (raw, C1, and as
// HTML character references a markdown renderer decodes), names that hide
// zero-width characters, and descriptions whose line breaks would fake
// table rows. Nothing of it may reach the terminal as a control; the names
// are shown escaped and flagged; JSON output keeps every character.

const renderScenario = "render/osc8-markdown"

// renderRSS bounds any one of these runs: small answers, so anything near
// it would be a leak.
const renderRSS = 300 << 20

// runRender runs mcpterm args against the render scenario.
func runRender(t *testing.T, args ...string) procResult {
	t.Helper()
	args = append(append(args, "--"), hostileServer(t, renderScenario)...)
	r := runMcpterm(t, 60*time.Second, nil, args...)
	if r.MaxRSS > renderRSS {
		t.Errorf("mcpterm %v peaked at %d MB", args[:2], r.MaxRSS>>20)
	}
	return r
}

// plainProblem says what in s could act on a terminal or hide from a
// reader: any ESC at all (the CLI writes no styling with NO_COLOR), a C0
// control but \n and \t, DEL, a C1 control, a bidi control or mark, a line
// or paragraph separator, a tag character, invalid UTF-8.
func plainProblem(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("invalid UTF-8")
	}
	for i, r := range s {
		switch {
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f:
			return fmt.Errorf("control %U at %d: %q", r, i, around(s, i))
		case isBidiOrHidden(r):
			return fmt.Errorf("hidden %U at %d: %q", r, i, around(s, i))
		}
	}
	return nil
}

func isBidiOrHidden(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x61c ||
		r == 0x2028 || r == 0x2029 || r >= 0xe0000 && r <= 0xe007f
}

func around(s string, i int) string { return s[max(0, i-20):min(len(s), i+20)] }

func checkPlain(t *testing.T, what string, r procResult) {
	t.Helper()
	if err := plainProblem(r.Stdout); err != nil {
		t.Errorf("%s: stdout: %v", what, err)
	}
	if err := plainProblem(r.Stderr); err != nil {
		t.Errorf("%s: stderr: %v", what, err)
	}
}

// rows are the lines of out that are not empty.
func rows(out string) []string {
	var rs []string
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) != "" {
			rs = append(rs, l)
		}
	}
	return rs
}

// checkNoForgedRows fails if a line break inside a description started a
// row of its own.
func checkNoForgedRows(t *testing.T, what, out string, want int) {
	t.Helper()
	rs := rows(out)
	for _, l := range rs {
		if strings.HasPrefix(strings.TrimSpace(l), "forged") {
			t.Errorf("%s: a description's line break started a row: %q\n%s", what, l, out)
		}
	}
	if len(rs) != want {
		t.Errorf("%s: %d rows, want %d:\n%s", what, len(rs), want, out)
	}
}

func TestHostileRenderTools(t *testing.T) {
	t.Parallel() // each runs its own processes
	r := runRender(t, "tools")
	if r.Code != exitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	checkPlain(t, "tools", r)
	checkNoForgedRows(t, "tools", r.Stdout, 3) // two tools and the total
	for _, want := range []string{`file_read\u200b`, `[looks like file_read\u200b]`, `[looks like file_read]`, `Reads a file`, `from render\u200b\u202eevil`} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("tools: stdout lacks %q:\n%s", want, r.Stdout)
		}
	}
	if !strings.Contains(r.Stderr, `warning: tools "file_read", "file_read\u200b" look alike`) {
		t.Errorf("tools: no lookalike warning on stderr: %q", r.Stderr)
	}

	r = runRender(t, "tools", "--format", "json")
	if r.Code != exitOK {
		t.Fatalf("--format json: exit %d: %s", r.Code, r.Stderr)
	}
	checkPlain(t, "tools --format json", r)
	var list struct {
		Tools []struct{ Name, Description string } `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil {
		t.Fatalf("--format json is not JSON: %v\n%s", err, r.Stdout)
	}
	tools := list.Tools
	if len(tools) != 2 || tools[1].Name != hostile.RenderToolAlike || tools[1].Description != hostile.RenderCRDescription ||
		!strings.Contains(tools[0].Description, "\u009b2J \x1b[2J") {
		t.Errorf("--format json lost characters: %+q", tools)
	}
	if !strings.Contains(r.Stdout, `"file_read\u200b"`) || !strings.Contains(r.Stdout, `\u009b2J`) {
		t.Errorf("--format json does not show the escapes:\n%s", r.Stdout)
	}
}

func TestHostileRenderCall(t *testing.T) {
	t.Parallel() // each runs its own processes
	r := runRender(t, "call", "-e", "(file_read)", "--yes")
	if r.Code != exitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	checkPlain(t, "call", r)
	for _, want := range []string{"CLICK", `\u009b66;6H`, `user\u202egnp.exe`} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("call: stdout lacks %q:\n%s", want, r.Stdout)
		}
	}

	r = runRender(t, "call", "-e", "(file_read)", "--yes", "--output", "json")
	if r.Code != exitOK {
		t.Fatalf("--output json: exit %d: %s", r.Code, r.Stderr)
	}
	checkPlain(t, "call --output json", r)
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil || len(res.Content) != 1 {
		t.Fatalf("--output json: %v\n%s", err, r.Stdout)
	}
	if res.Content[0].Text != hostile.RenderPayload {
		t.Errorf("--output json changed the text:\n got %q\nwant %q", res.Content[0].Text, hostile.RenderPayload)
	}
	if !strings.Contains(r.Stdout, `raw \u009b66;6H`) {
		t.Errorf("--output json does not keep U+009B and what follows as an escape:\n%s", r.Stdout)
	}
}

func TestHostileRenderResources(t *testing.T) {
	t.Parallel() // each runs its own processes
	r := runRender(t, "resources")
	if r.Code != exitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	checkPlain(t, "resources", r)
	checkNoForgedRows(t, "resources", r.Stdout, 3) // two resources and the total
	for _, want := range []string{`file:///report.md\u200b`, `report\u200b`, `[looks like report\u200b]`, "Reads a file"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("resources: stdout lacks %q:\n%s", want, r.Stdout)
		}
	}
	if !strings.Contains(r.Stderr, `resources "report", "report\u200b" look alike`) {
		t.Errorf("resources: no lookalike warning: %q", r.Stderr)
	}

	r = runRender(t, "resources", "--output", "json")
	checkPlain(t, "resources --output json", r)
	var list struct {
		Resources []struct{ Name, Description string } `json:"resources"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil || len(list.Resources) != 2 {
		t.Fatalf("resources --output json: %v\n%s", err, r.Stdout)
	}
	if list.Resources[0].Description != hostile.RenderCRDescription || list.Resources[1].Name != "report\u200b" {
		t.Errorf("resources --output json lost characters: %+q", list.Resources)
	}

	r = runRender(t, "resources", "--read", "file:///report.md")
	if r.Code != exitOK {
		t.Fatalf("--read: exit %d: %s", r.Code, r.Stderr)
	}
	checkPlain(t, "resources --read", r)
	if !strings.Contains(r.Stdout, "CLICK") {
		t.Errorf("--read: the text itself is gone:\n%s", r.Stdout)
	}

	r = runRender(t, "resources", "--read", "file:///report.md", "--output", "json")
	checkPlain(t, "resources --read --output json", r)
	var read struct {
		Contents []struct{ Text string } `json:"contents"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &read); err != nil || len(read.Contents) != 1 || read.Contents[0].Text != hostile.RenderPayload {
		t.Errorf("--read --output json: %v, %+q", err, read.Contents)
	}
}

func TestHostileRenderPrompts(t *testing.T) {
	t.Parallel() // each runs its own processes
	r := runRender(t, "prompts")
	if r.Code != exitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	checkPlain(t, "prompts", r)
	checkNoForgedRows(t, "prompts", r.Stdout, 3)
	for _, want := range []string{`summarize(topic\u2060)`, `summarize\u2060()`, `[looks like summarize\u2060]`} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("prompts: stdout lacks %q:\n%s", want, r.Stdout)
		}
	}
	if !strings.Contains(r.Stderr, "look alike") {
		t.Errorf("prompts: no lookalike warning: %q", r.Stderr)
	}

	r = runRender(t, "prompts", "--output", "json")
	checkPlain(t, "prompts --output json", r)
	if !json.Valid([]byte(r.Stdout)) || !strings.Contains(r.Stdout, `"summarize\u2060"`) {
		t.Errorf("prompts --output json:\n%s", r.Stdout)
	}

	r = runRender(t, "prompts", "--get", "summarize", "--arg", "topic=x")
	if r.Code != exitOK {
		t.Fatalf("--get: exit %d: %s", r.Code, r.Stderr)
	}
	checkPlain(t, "prompts --get", r)
	r = runRender(t, "prompts", "--get", "summarize", "--arg", "topic=x", "--output", "json")
	checkPlain(t, "prompts --get --output json", r)
	var pm struct {
		Messages []struct {
			Content struct{ Text string } `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &pm); err != nil || len(pm.Messages) != 1 || pm.Messages[0].Content.Text != hostile.RenderPayload {
		t.Errorf("--get --output json: %v\n%s", err, r.Stdout)
	}
}

// probedWorkbench answers a screenMsg with the screen it would draw now,
// so the test waits for what is shown rather than for bytes of output.
type probedWorkbench struct{ *ui.Model }

type screenMsg struct{ screen chan<- string }

func (p probedWorkbench) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if sm, ok := msg.(screenMsg); ok {
		sm.screen <- ansi.Strip(p.Model.Screen())
		return p, nil
	}
	_, cmd := p.Model.Update(msg)
	return p, cmd
}

// TestHostileRenderWorkbenchBytes runs the workbench against the render
// scenario in a real Bubble Tea program with full colour, opens the
// markdown resource and runs the tool, and checks every byte the program
// wrote to the terminal: no OSC 8 or 52, no DCS, APC, PM or SOS, no C1
// control, no bidi control, and none of the payload's own sequences.
func TestHostileRenderWorkbenchBytes(t *testing.T) {
	t.Parallel() // each runs its own processes
	state := t.TempDir()
	var errOut bytes.Buffer
	c := &cli{stdout: io.Discard, stderr: &errOut, getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}, buildInfo: func() (*debug.BuildInfo, bool) { return nil, false }}
	fs, sf, o := c.tuiFlags()
	if _, code, ok := c.parseSelection(fs, sf, append([]string{"--theme", "dark", "--"}, hostileServer(t, renderScenario)...)); !ok {
		t.Fatalf("parse: %d %s", code, errOut.String())
	}
	opts, target, code := c.workbench(sf, o)
	if target == nil {
		t.Fatalf("workbench: %d %s", code, errOut.String())
	}
	defer target.Close()
	tm := teatest.NewTestModel(t, probedWorkbench{ui.New(opts)},
		teatest.WithInitialTermSize(160, 48),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.TrueColor)))
	var all bytes.Buffer
	wait := func(words ...string) string {
		t.Helper()
		deadline := time.Now().Add(45 * time.Second)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		last := ""
		for {
			b, _ := io.ReadAll(tm.Output())
			all.Write(b)
			ch := make(chan string, 1)
			tm.Send(screenMsg{screen: ch})
			select {
			case last = <-ch:
				if containsEvery(last, words) {
					return last
				}
			case <-time.After(10 * time.Second):
			}
			if time.Now().After(deadline) {
				t.Fatalf("the screen did not show %q; it shows:\n%s", words, last)
			}
			<-tick.C
		}
	}
	key := func(k string) {
		switch k {
		case "enter":
			tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		case "ctrl+g":
			tm.Send(tea.KeyPressMsg{Code: 'g', Mod: tea.ModCtrl})
		case "ctrl+c":
			tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		default:
			tm.Send(tea.KeyPressMsg{Code: []rune(k)[0], Text: k})
		}
	}

	screen := wait("o200k", `file_read\u200b`, "≈")
	if !strings.Contains(screen, `render\u200b\u202eevil`) {
		t.Errorf("the server's name is not shown escaped:\n%s", screen)
	}
	key("3")
	wait("report")
	key("enter")
	screen = wait("CLICK", "DECIMAL", "RAWLINK")
	for _, want := range []string{`\u001b]8;;http://evil.example/`, `user\u202egnp.exe`} {
		if !strings.Contains(screen, want) {
			t.Errorf("the resource does not show %q:\n%s", want, screen)
		}
	}
	key("1")
	wait("Tools")
	key("enter")
	wait("Composer")
	key("ctrl+g")
	wait("destructive")
	key("y")
	wait("DECIMAL", "C1LINK", "✓ ok")
	key("ctrl+c")
	key("ctrl+c")
	tm.WaitFinished(t, teatest.WithFinalTimeout(20*time.Second))
	rest, _ := io.ReadAll(tm.FinalOutput(t, teatest.WithFinalTimeout(20*time.Second)))
	all.Write(rest)
	kinds, err := streamProblem(all.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes written; escapes by kind: %v", all.Len(), kinds)
}

func containsEvery(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// streamProblem reads a terminal byte stream as a terminal would and says
// what in it came from a server instead of from Bubble Tea's renderer. The
// renderer writes SGR, cursor moves, erases and mode changes (CSI), a few
// two-byte escapes, the window title and colour queries (OSC 0, 2, 10,
// 11, 12); a server's text must not add an OSC 8 hyperlink, a clipboard
// write, a device-control or application string, a C1 control, a bidi
// control, or the payload's own cursor move (CSI 66;6H, off a 48-row
// screen).
func streamProblem(b []byte) (map[string]int, error) {
	s := string(b)
	kinds := map[string]int{}
	if !utf8.ValidString(s) {
		return kinds, fmt.Errorf("the stream is not UTF-8")
	}
	for i := 0; i < len(s); {
		if s[i] != 0x1b {
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r >= 0x80 && r <= 0x9f:
				return kinds, fmt.Errorf("C1 control %U at %d: %q", r, i, around(s, i))
			case isBidiOrHidden(r):
				return kinds, fmt.Errorf("hidden %U at %d: %q", r, i, around(s, i))
			case r < 0x20 && r != '\n' && r != '\r' && r != '\t':
				return kinds, fmt.Errorf("control %U at %d: %q", r, i, around(s, i))
			}
			i += n
			continue
		}
		if i+1 >= len(s) {
			return kinds, fmt.Errorf("a lone ESC ends the stream")
		}
		switch c := s[i+1]; c {
		case '[':
			j := i + 2
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
				j++
			}
			if j >= len(s) {
				return kinds, fmt.Errorf("unterminated CSI at %d", i)
			}
			seq := s[i : j+1]
			if strings.Contains(seq, "66;6") {
				return kinds, fmt.Errorf("the payload's cursor move reached the terminal: %q", seq)
			}
			kinds["CSI "+string(s[j])]++
			i = j + 1
		case ']':
			end := strings.IndexAny(s[i+2:], "\x07\x1b")
			if end < 0 {
				return kinds, fmt.Errorf("unterminated OSC at %d", i)
			}
			end += 2
			body := s[i+2 : i+end]
			num, _, _ := strings.Cut(body, ";")
			switch num {
			case "0", "2", "10", "11", "12":
				if strings.Contains(body, "pwned") || strings.Contains(body, "evil.example") {
					return kinds, fmt.Errorf("the server's text is in OSC %s: %q", num, body)
				}
			default:
				return kinds, fmt.Errorf("OSC %s reached the terminal: %q", num, body)
			}
			kinds["OSC "+num]++
			i += end + 1
			if s[i-1] == 0x1b {
				i++ // ESC \
			}
		case 'P', 'X', '^', '_':
			return kinds, fmt.Errorf("a device-control or application string reached the terminal at %d: %q", i, around(s, i))
		default:
			kinds["ESC "+string(c)]++
			i += 2
		}
	}
	if kinds["CSI m"] == 0 {
		return kinds, fmt.Errorf("no SGR at all: the colour profile did not take, so the test proves little (%v)", kinds)
	}
	return kinds, nil
}
