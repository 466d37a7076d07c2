package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/session/gateway"
)

// testCLI is sessCLI with a hook to set the cli's other fields.
func testCLI(t *testing.T, set func(c *cli), args ...string) (int, string, string) {
	t.Helper()
	state := t.TempDir()
	var out, errOut bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}}
	if set != nil {
		set(c)
	}
	code := c.run(args)
	return code, out.String(), errOut.String()
}

// Help goes to stdout and ends with 0, for mcpterm itself, every command
// and help COMMAND; a mistake goes to stderr with exit 2.
func TestHelpOnStdout(t *testing.T) {
	cases := [][]string{{"--help"}, {"-h"}, {"help"}, {"--theme", "dark", "--help"}, {"help", "workbench"}}
	for _, sc := range subcommands() {
		cases = append(cases, []string{sc.name, "--help"}, []string{sc.name, "-h"})
		if sc.name != "help" {
			cases = append(cases, []string{"help", sc.name})
		}
	}
	for _, args := range cases {
		code, out, errOut := testCLI(t, nil, args...)
		if code != exitOK || !strings.Contains(out, "usage: mcpterm") || errOut != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, clip(out), errOut)
		}
	}
	for _, args := range [][]string{{"nope"}, {"help", "nope"}, {"call", "--bogus"}, {"servers", "--output"}} {
		code, out, errOut := testCLI(t, nil, args...)
		if code != exitUsage || out != "" || errOut == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, clip(out), errOut)
		}
	}
	_, _, errOut := testCLI(t, nil, "call", "--bogus")
	if !strings.Contains(errOut, "flag provided but not defined: --bogus") || !strings.Contains(errOut, "mcpterm call --help") {
		t.Errorf("a bad flag: %q", errOut)
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// Every command's help lists only values it accepts: each value an
// --output, --format, --to... help offers is taken, and resources does not
// offer sexpr.
func TestFlagHelpMatchesWhatIsAccepted(t *testing.T) {
	c := &cli{}
	for _, sc := range subcommands() {
		fs := sc.flags(c)
		fs.VisitAll(func(f *flag.Flag) {
			vals := enumValues(f)
			if len(vals) == 0 {
				return
			}
			help := f.Usage
			for _, v := range vals {
				if !strings.Contains(help, v) {
					t.Errorf("%s --%s: help %q does not name %q", sc.name, f.Name, help, v)
				}
			}
		})
	}
	_, out, _ := testCLI(t, nil, "resources", "--help")
	if strings.Contains(out, "sexpr") {
		t.Errorf("resources --help offers sexpr:\n%s", out)
	}
	// Each offered --output is accepted (the demo server, in-process).
	for _, cmd := range []string{"resources", "prompts", "servers"} {
		fs := commandNamed(t, cmd).flags(c)
		for _, v := range enumValues(fs.Lookup("output")) {
			set := func(c *cli) { c.cwd, c.home = t.TempDir(), t.TempDir() }
			if code, _, errOut := testCLI(t, set, cmd, "--output", v); code != exitOK {
				t.Errorf("%s --output %s offered but refused: exit %d %s", cmd, v, code, errOut)
			}
		}
		if code, _, errOut := testCLI(t, nil, cmd, "--output", "sexpr"); code != exitUsage || !strings.Contains(errOut, "want text or json") {
			t.Errorf("%s --output sexpr: exit %d %q", cmd, code, errOut)
		}
	}
	for _, v := range enumValues(commandNamed(t, "call").flags(c).Lookup("output")) {
		if code, _, errOut := testCLI(t, nil, "call", "--output", v, "(list_todos :limit 1)"); code != exitOK {
			t.Errorf("call --output %s: exit %d %s", v, code, errOut)
		}
	}
	for _, v := range enumValues(commandNamed(t, "tools").flags(c).Lookup("format")) {
		if code, _, errOut := testCLI(t, nil, "tools", "--format", v); code != exitOK {
			t.Errorf("tools --format %s: exit %d %s", v, code, errOut)
		}
	}
	tools := writeTemp(t, `[{"name":"zap","description":"Zap it.","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}}]`)
	for _, v := range enumValues(commandNamed(t, "convert").flags(c).Lookup("to")) {
		if code, _, errOut := testCLI(t, nil, "convert", "--to", v, tools); code != exitOK {
			t.Errorf("convert --to %s: exit %d %s", v, code, errOut)
		}
	}
	tokensFlags := commandNamed(t, "tokens").flags(c)
	for _, flagName := range []string{"format", "sort", "encoding"} {
		for _, v := range enumValues(tokensFlags.Lookup(flagName)) {
			if code, _, errOut := testCLI(t, nil, "tokens", "--tools", tools, "--"+flagName, v); code != exitOK {
				t.Errorf("tokens --%s %s: exit %d %s", flagName, v, code, errOut)
			}
		}
	}
	serveFlags := commandNamed(t, "serve").flags(c)
	for _, v := range enumValues(serveFlags.Lookup("mode")) {
		if _, err := gateway.ParseMode(v); err != nil {
			t.Errorf("serve --mode %s offered but refused: %v", v, err)
		}
	}
	// --print is for --dry-run.
	if code, _, errOut := testCLI(t, nil, "call", "--print", "term", "(list_todos)"); code != exitUsage || !strings.Contains(errOut, "--print is for --dry-run") {
		t.Errorf("--print without --dry-run: exit %d %q", code, errOut)
	}
}

func commandNamed(t *testing.T, name string) subcommand {
	t.Helper()
	for _, sc := range subcommands() {
		if sc.name == name {
			return sc
		}
	}
	t.Fatalf("no command %s", name)
	return subcommand{}
}

// --version prints the module version and VCS revision from the build
// info, which is also the client version servers are told.
func TestVersion(t *testing.T) {
	info := func(version string, settings ...string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/mcpterm/mcpterm", Version: version}}
			for i := 0; i+1 < len(settings); i += 2 {
				bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
			}
			return bi, true
		}
	}
	tagged := info("v1.2.3", "vcs.revision", "0123456789abcdef0123", "vcs.time", "2026-11-30T10:00:00Z", "vcs.modified", "false")
	code, out, _ := testCLI(t, func(c *cli) { c.buildInfo = tagged }, "--version")
	if code != exitOK || out != "mcpterm v1.2.3 (revision 0123456789ab, 2026-11-30T10:00:00Z, go1.26.8)\n" {
		t.Errorf("--version: exit %d %q", code, out)
	}
	devel := info("(devel)", "vcs.revision", "fedcba9876543210", "vcs.modified", "true")
	code, out, _ = testCLI(t, func(c *cli) { c.buildInfo = devel }, "--version")
	if code != exitOK || out != "mcpterm dev (revision fedcba987654, modified, go1.26.8)\n" {
		t.Errorf("--version of a dev build: %q", out)
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	if _, out, _ := testCLI(t, func(c *cli) { c.buildInfo = none }, "--version"); out != "mcpterm dev\n" {
		t.Errorf("no build info: %q", out)
	}
	for _, tc := range []struct {
		read func() (*debug.BuildInfo, bool)
		want string
	}{{tagged, "v1.2.3"}, {devel, "dev+fedcba987654.dirty"}, {none, "dev"}} {
		trace := filepath.Join(t.TempDir(), "trace.jsonl")
		if code, _, errOut := testCLI(t, func(c *cli) { c.buildInfo = tc.read }, "tools", "--trace", trace); code != exitOK {
			t.Fatalf("tools: %d %s", code, errOut)
		}
		data, _ := os.ReadFile(trace)
		if want := `clientInfo":{"name":"mcpterm","version":"` + tc.want + `"}`; !strings.Contains(string(data), want) {
			t.Errorf("the initialize request lacks %s:\n%s", want, clip(string(data)))
		}
	}
	// The gateway tells its upstream the same version under its own name.
	if got := (&cli{buildInfo: tagged}).clientVersion(); got != "v1.2.3" {
		t.Errorf("clientVersion = %q", got)
	}
}

// jsonLines decodes stderr under --output json: one object a line.
func jsonLines(t *testing.T, s string) []map[string]json.RawMessage {
	t.Helper()
	var out []map[string]json.RawMessage
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if line == "" {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("stderr line is not JSON: %q (%v)", line, err)
		}
		out = append(out, m)
	}
	return out
}

// With JSON output, errors are {"error": {"kind", "message", "exit"}} on
// stderr, the last line, for every command that prints JSON, whatever
// failed: flags, the selection, the server, the call.
func TestJSONErrors(t *testing.T) {
	f := filepath.Join(t.TempDir(), "tools.json")
	os.WriteFile(f, []byte(`[{"name":"zap","inputSchema":{"type":"object"}}]`), 0o644)
	cases := []struct {
		args []string
		kind string
		exit int
		msg  string
	}{
		{[]string{"call", "--output", "json", "(nope)"}, "usage", exitUsage, "unknown tool nope\n  (nope)\n   ^"},
		{[]string{"call", "--output=json", "--bogus"}, "usage", exitUsage, "flag provided but not defined: --bogus"},
		{[]string{"call", "--output", "json", `(get_todo "nope")`}, "tool", exitToolError, "what failed is in the output on stdout"},
		{[]string{"call", "--output", "json", "--timeout", "150ms", `(long_task :steps 5 :delay_ms 2000)`}, "timeout", exitTimeout, "timed out"},
		{[]string{"call", "--output", "json", "(x)", "--", "/nonexistent/srv"}, "connection", exitConnect, "/nonexistent/srv"},
		{[]string{"tools", "--format", "json", "--url", "http://127.0.0.1:1/mcp"}, "connection", exitConnect, "127.0.0.1:1"},
		{[]string{"tools", "--format", "json", "--sse"}, "usage", exitUsage, "--sse needs --url"},
		{[]string{"tokens", "--format", "json", "--tools", "/nonexistent.json"}, "usage", exitUsage, "no such file"},
		{[]string{"resources", "--output", "json", "--read", "nope://x"}, "", 0, ""},
		{[]string{"prompts", "--output", "json", "--get", "no_such_prompt"}, "", 0, ""},
		{[]string{"resources", "--output", "json", "--tools", f}, "usage", exitUsage, "offline"},
		{[]string{"servers", "--output", "json", "--config", "/nonexistent/mcp.json"}, "usage", exitUsage, "/nonexistent/mcp.json"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := testCLI(t, nil, tc.args...)
			if code == exitOK {
				t.Fatalf("exit 0: %s", out)
			}
			lines := jsonLines(t, errOut)
			if len(lines) == 0 {
				t.Fatalf("no JSON on stderr; stdout %q", clip(out))
			}
			var e jsonError
			if err := json.Unmarshal([]byte(strings.TrimSpace(errOut[strings.LastIndex(strings.TrimSpace(errOut), "\n")+1:])), &e); err != nil || lines[len(lines)-1]["error"] == nil {
				t.Fatalf("the last line is not an error object: %q", errOut)
			}
			if e.Error.Exit != code || e.Error.Kind != errorKind(code) || e.Error.Message == "" {
				t.Errorf("error %+v for exit %d", e.Error, code)
			}
			if tc.kind != "" && (e.Error.Kind != tc.kind || code != tc.exit || !strings.Contains(e.Error.Message, tc.msg)) {
				t.Errorf("got %+v (exit %d), want kind %s exit %d message with %q", e.Error, code, tc.kind, tc.exit, tc.msg)
			}
			if strings.HasPrefix(e.Error.Message, "mcpterm ") {
				t.Errorf("the message keeps the prefix: %q", e.Error.Message)
			}
		})
	}
	// Without JSON output the same failure is plain text.
	if _, _, errOut := testCLI(t, nil, "call", "(nope)"); strings.HasPrefix(errOut, "{") || !strings.HasPrefix(errOut, "mcpterm call: 1:2: unknown tool nope") {
		t.Errorf("plain: %q", errOut)
	}
	// Warnings on a success are notes, not errors.
	code, _, errOut := testCLI(t, nil, "tokens", "--format", "json", "--tools", f, "--aql-map", writeTemp(t, `{"ghost": {"category": "read"}}`))
	for _, l := range jsonLines(t, errOut) {
		if l["error"] != nil {
			t.Errorf("an error object on a success (exit %d): %s", code, errOut)
		}
	}
}

func writeTemp(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f.json")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// tools cuts descriptions with "…" only on a terminal, to its width.
func TestToolsNoTruncationWhenPiped(t *testing.T) {
	long := strings.Repeat("word ", 60) + "END"
	f := writeTemp(t, `[{"name":"wordy","description":"`+long+`\nsecond line","inputSchema":{"type":"object"}}]`)
	code, out, _ := testCLI(t, nil, "tools", "--tools", f)
	if code != exitOK || !strings.Contains(out, "END") || strings.Contains(out, "…") {
		t.Errorf("piped: exit %d %q", code, out)
	}
	code, out, _ = testCLI(t, func(c *cli) { c.terminal = func() (int, bool) { return 80, true } }, "tools", "--tools", f)
	line, _, _ := strings.Cut(out, "\n")
	if code != exitOK || strings.Contains(out, "END") || !strings.HasSuffix(line, "…") || len([]rune(line)) > 80 {
		t.Errorf("terminal of 80: exit %d %q", code, out)
	}
}

// tokens cuts long names in its table only on a terminal.
func TestTokensNoTruncationWhenPiped(t *testing.T) {
	name := "a_tool_with_a_name_long_enough_to_be_cut_in_a_table_cell_END"
	f := writeTemp(t, `[{"name":"`+name+`","description":"d","inputSchema":{"type":"object"}}]`)
	code, out, _ := testCLI(t, nil, "tokens", "--tools", f)
	if code != exitOK || !strings.Contains(out, name) {
		t.Errorf("piped: exit %d %q", code, out)
	}
	code, out, _ = testCLI(t, func(c *cli) { c.terminal = func() (int, bool) { return 200, true } }, "tokens", "--tools", f)
	if code != exitOK || strings.Contains(out, "END") || !strings.Contains(out, "a_tool_with_a_name_long_enough_to_be_cut_in_a_t…") {
		t.Errorf("terminal: exit %d %q", code, out)
	}
}

// convert takes the server selection: a stdio command, --tools FILE, or a
// FILE; both at once is a mistake, and flags that need a server say so.
func TestConvertTakesTheSelection(t *testing.T) {
	f := writeTemp(t, `[{"name":"zap","description":"Zap it.","inputSchema":{"type":"object"}}]`)
	code, fromFile, errOut := testCLI(t, nil, "convert", "--to", "dts", f)
	if code != exitOK || !strings.Contains(fromFile, "zap") {
		t.Fatalf("FILE: exit %d %s", code, errOut)
	}
	code, fromTools, _ := testCLI(t, nil, "convert", "--to", "dts", "--tools", f)
	if code != exitOK || fromTools != fromFile {
		t.Errorf("--tools FILE differs from FILE: %q", fromTools)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", f, "--tools", f}, "not both"},
		{[]string{"convert", f, "--", "srv"}, "not both"},
		{[]string{"convert", f, "--sse"}, "--sse needs --url"},
		{[]string{"convert", "--", "/nonexistent/srv"}, "/nonexistent/srv"},
	} {
		code, _, errOut := testCLI(t, nil, tc.args...)
		if code == exitOK || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d %q", tc.args, code, errOut)
		}
	}
	if code, _, errOut := testCLI(t, nil, "demo-server", "--", "srv"); code != exitUsage || !strings.Contains(errOut, "takes no server selection") {
		t.Errorf("demo-server -- srv: exit %d %q", code, errOut)
	}
	if code, _, errOut := testCLI(t, nil, "servers", "--url", "http://x"); code != exitUsage || !strings.Contains(errOut, "--url") {
		t.Errorf("servers --url: exit %d %q", code, errOut)
	}
}

// The real binary: call's expression after the server command, and
// convert from a stdio server.
func TestCallExpressionAfterTheServerCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildMcpterm(t)
	code, out, errOut := testCLI(t, nil, "call", "--", bin, "demo-server", `(file_read "/docs/README.md" :limit 14)`)
	if code != exitOK || strings.TrimSpace(out) != `(ok "# mcpterm demo")` {
		t.Errorf("expression last: exit %d %q %q", code, out, errOut)
	}
	code, out, errOut = testCLI(t, nil, "call", "-e", `{"name": "file_read", "arguments": {"path": "/docs/README.md", "limit": 14}}`, "--", bin, "demo-server")
	if code != exitOK || strings.TrimSpace(out) != `(ok "# mcpterm demo")` {
		t.Errorf("-e with a server: exit %d %q %q", code, out, errOut)
	}
	code, out, errOut = testCLI(t, nil, "convert", "--to", "term", "--", bin, "demo-server")
	if code != exitOK || !strings.Contains(out, "file_read") {
		t.Errorf("convert -- CMD: exit %d %q %q", code, clip(out), errOut)
	}
}

// The rule for the expression: anywhere before --, -e, -f, or last after
// the command when it reads as a call; never twice.
func TestCallExpressionRule(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-e", "(list_todos :limit 1)"}, exitOK, "(ok"},
		{[]string{"--", "/nonexistent/srv", "--flag", "(list_todos)"}, exitConnect, "stdio: /nonexistent/srv --flag: connect"},
		{[]string{"--", "/nonexistent/srv", "{\"x\": 1}"}, exitConnect, "/nonexistent/srv"},
		{[]string{"--", "/nonexistent/srv", "plain-arg"}, exitUsage, "no call given"},
		{[]string{"--", "(list_todos)"}, exitUsage, "no call given"},
		{[]string{"(a)", "-e", "(b)"}, exitUsage, "give the call once"},
		{[]string{"-e", "(a)", "-f", "x"}, exitUsage, "give the call once"},
		{[]string{"(list_todos)", "--", "/nonexistent/srv", "(kept)"}, exitConnect, "(kept)"},
	} {
		code, out, errOut := sessCLI(t, nil, "", append([]string{"call"}, tc.args...)...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%q: exit %d (want %d), stdout %q stderr %q (want %q)", tc.args, code, tc.code, out, errOut, tc.want)
		}
	}
	for arg, want := range map[string]bool{"(f)": true, " \n(f)": true, "; note\n(f)": true, "{}": true, "[1]": true,
		"f": false, "": false, "--x": false, "; only a comment": false} {
		if readsAsCall(arg) != want {
			t.Errorf("readsAsCall(%q) = %v", arg, !want)
		}
	}
	// The usage says exactly this.
	_, out, _ := testCLI(t, nil, "call", "--help")
	for _, want := range []string{"mcpterm call [flags] [server selection] -- CMD ARGS... 'EXPR'", "-e EXPR", "Use -e when"} {
		if !strings.Contains(out, want) {
			t.Errorf("call --help lacks %q", want)
		}
	}
}

// The completion scripts come from the command tables: every flag of
// every subcommand (and the workbench's) is in each, where its command is.
func TestCompletionCoversEveryFlag(t *testing.T) {
	c := &cli{}
	m := c.completionModel()
	if names := m.commandNames(); !slices.Contains(names, "servers") || !slices.Contains(names, "completion") {
		t.Fatalf("commands %v", names)
	}
	for _, want := range []string{"theme", "encoding", "no-mouse", "aql-map", "url", "server", "tools", "help", "version"} {
		if !slices.ContainsFunc(m.workbench.flags, func(f complFlag) bool { return f.name == want }) {
			t.Errorf("workbench flags lack --%s: %v", want, m.workbench.flags)
		}
	}
	scripts := map[string]string{"bash": bashCompletion(m), "zsh": zshCompletion(m), "fish": fishCompletion(m)}
	for _, sc := range subcommands() {
		var flags []*flag.Flag
		sc.flags(c).VisitAll(func(f *flag.Flag) { flags = append(flags, f) })
		for shell, script := range scripts {
			section := completionSection(t, shell, script, sc.name)
			for _, f := range flags {
				cf := flagOf(f)
				want := cf.spelled()
				if shell == "fish" {
					want = " -l " + f.Name + " "
					if len(f.Name) == 1 {
						want = " -s " + f.Name + " "
					}
				}
				if !strings.Contains(section, want) {
					t.Errorf("%s: %s lacks %s", shell, sc.name, want)
				}
				for _, v := range cf.values {
					if !strings.Contains(section, v) {
						t.Errorf("%s: %s --%s lacks the value %s", shell, sc.name, f.Name, v)
					}
				}
			}
		}
	}
	for shell := range scripts {
		code, out, _ := testCLI(t, nil, "completion", shell)
		if code != exitOK || out != scripts[shell] {
			t.Errorf("mcpterm completion %s: exit %d", shell, code)
		}
	}
	if code, _, errOut := testCLI(t, nil, "completion", "tcsh"); code != exitUsage || !strings.Contains(errOut, "bash, zsh or fish") {
		t.Errorf("tcsh: %d %q", code, errOut)
	}
}

// completionSection is the part of a script about one subcommand.
func completionSection(t *testing.T, shell, script, cmd string) string {
	t.Helper()
	switch shell {
	case "fish":
		var b strings.Builder
		for _, l := range strings.Split(script, "\n") {
			if strings.Contains(l, "'__mcpterm_is "+cmd+"'") {
				b.WriteString(l + "\n")
			}
		}
		return b.String()
	case "bash":
		return between(t, script, "\n    "+cmd+")\n", "\n        ;;\n")
	}
	return between(t, script, "\n    ("+cmd+")\n", "\n      ;;\n")
}

func between(t *testing.T, s, start, end string) string {
	t.Helper()
	i := strings.Index(s, start)
	if i < 0 {
		t.Fatalf("no %q", start)
	}
	j := strings.Index(s[i:], end)
	if j < 0 {
		t.Fatalf("no end after %q", start)
	}
	return s[i : i+j]
}

// The bash script, run by bash: what a TAB offers.
func TestBashCompletionRuns(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script := filepath.Join(t.TempDir(), "mcpterm.bash")
	os.WriteFile(script, []byte(bashCompletion((&cli{}).completionModel())), 0o644)
	complete := func(words ...string) []string {
		t.Helper()
		prog := `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _mcpterm; printf '%s\n' "${COMPREPLY[@]}"`
		out, err := exec.Command("bash", append([]string{"-c", prog, "bash", script}, words...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		return strings.Fields(string(out))
	}
	for _, tc := range []struct {
		words []string
		want  []string
		not   []string
	}{
		{[]string{"mcpterm", "se"}, []string{"servers", "serve"}, []string{"call"}},
		{[]string{"mcpterm", "call", "--dr"}, []string{"--dry-run"}, nil},
		{[]string{"mcpterm", "call", "--print", ""}, []string{"json", "term", "aql"}, nil},
		{[]string{"mcpterm", "resources", "--output", ""}, []string{"text", "json"}, []string{"sexpr"}},
		{[]string{"mcpterm", "completion", ""}, []string{"bash", "zsh", "fish"}, nil},
		{[]string{"mcpterm", "--the"}, []string{"--theme"}, nil},
		{[]string{"mcpterm", "--theme", ""}, []string{"auto", "mono"}, nil},
		{[]string{"mcpterm", "tokens", "--format", ""}, []string{"table", "md", "json", "csv"}, nil},
		{[]string{"mcpterm", "convert", "--to", "aql-i"}, []string{"aql-introspect"}, nil},
	} {
		got := complete(tc.words...)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %v lacks %s", tc.words, got, w)
			}
		}
		for _, w := range tc.not {
			if slices.Contains(got, w) {
				t.Errorf("%q: %v offers %s", tc.words, got, w)
			}
		}
	}
}

// The scripts parse in their shells (where installed).
func TestCompletionScriptsParse(t *testing.T) {
	m := (&cli{}).completionModel()
	for shell, check := range map[string][]string{"bash": {"-n"}, "zsh": {"-n"}, "fish": {"--no-execute"}} {
		path, err := exec.LookPath(shell)
		if err != nil {
			t.Logf("%s not installed: not checked", shell)
			continue
		}
		script := map[string]string{"bash": bashCompletion(m), "zsh": zshCompletion(m), "fish": fishCompletion(m)}[shell]
		file := filepath.Join(t.TempDir(), "completion."+shell)
		os.WriteFile(file, []byte(script), 0o644)
		if out, err := exec.Command(path, append(check, file)...).CombinedOutput(); err != nil {
			t.Errorf("%s %v: %v\n%s", shell, check, err, out)
		}
	}
}
