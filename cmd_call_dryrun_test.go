package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

func dryRunFixtures(t *testing.T) *toolset.Set {
	t.Helper()
	data, err := os.ReadFile("convert/call/testdata/fixtures.tools.json")
	if err != nil {
		t.Fatal(err)
	}
	set, err := toolset.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func dryRun(t *testing.T, set *toolset.Set, src, printAs string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := (&cli{stdout: &out, stderr: &errOut}).dryRunCall(set, src, printAs)
	return code, out.String(), errOut.String()
}

func TestDryRunJSON(t *testing.T) {
	set := dryRunFixtures(t)
	code, out, errOut := dryRun(t, set, `(fr "/etc/hosts" :utf8)`, "json")
	want := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"/etc/hosts","enc":"utf8"}}}` + "\n"
	if code != exitOK || out != want || errOut != "" {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant %q", code, out, errOut, want)
	}
	// a batch prints one request per line, JSON-RPC ids counting from 1
	code, out, _ = dryRun(t, set, `(batch :concurrency 2 (a (fr "/a")) (b (bp "/" "x" "y")))`, "")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitOK || len(lines) != 2 ||
		lines[0] != `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"/a"}}}` ||
		lines[1] != `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"batch_paths","arguments":{"root":"/","paths":["x","y"]}}}` {
		t.Errorf("batch: exit %d\n%s", code, out)
	}
	// what --print json writes reads back as input
	code, out2, _ := dryRun(t, set, "["+strings.ReplaceAll(strings.TrimSpace(out), "\n", ",")+"]", "json")
	if code != exitOK || out2 != out {
		t.Errorf("JSON-RPC requests as input: exit %d\n%s", code, out2)
	}
}

func TestDryRunTerm(t *testing.T) {
	set := dryRunFixtures(t)
	code, out, _ := dryRun(t, set, `{"name": "file_read", "arguments": {"path": "/etc/hosts", "enc": "base64"}}`, "term")
	if code != exitOK || out != "(fr \"/etc/hosts\" :enc :base64)\n" {
		t.Errorf("exit %d, %q", code, out)
	}
	code, out, _ = dryRun(t, set, `(batch :stop-on-error (1 (fr "/etc/passwd")) (2 (nu "doc.md" (insert 0 ((paragraph "intro" () ("Hello world" "and a somewhat longer second line of text")))))))`, "term")
	want := `(batch :stop-on-error
  (1 (fr "/etc/passwd"))
  (2
    (nu "doc.md"
      ((insert 0 ((paragraph "intro" () ("Hello world" "and a somewhat longer second line of text"))))))))
`
	if code != exitOK || out != want {
		t.Errorf("exit %d\n%s\nwant\n%s", code, out, want)
	}
}

func TestDryRunErrors(t *testing.T) {
	set := dryRunFixtures(t)
	code, out, errOut := dryRun(t, set, "(batch\n  (1 (fr \"/x\" :encc :utf8)))", "json")
	want := "mcpterm call: 2:15: unknown parameter :encc (did you mean :enc?); expected one of :path :enc :off :lim\n" +
		"    (1 (fr \"/x\" :encc :utf8)))\n" +
		"                ^\n"
	if code != exitUsage || out != "" || errOut != want {
		t.Errorf("exit %d\nstdout %q\nstderr:\n%s\nwant:\n%s", code, out, errOut, want)
	}
	if code, _, errOut := dryRun(t, set, `(fr "/x")`, "yaml"); code != exitUsage || !strings.Contains(errOut, `unknown --print "yaml"`) {
		t.Errorf("bad --print: exit %d %q", code, errOut)
	}
	if code, _, errOut := dryRun(t, set, `{"name":"li","arguments":{"owner":"o","repo":"r","page":0}}`, "json"); code != exitUsage || !strings.Contains(errOut, "1:57: invalid argument /page: minimum: got 0, want 1") {
		t.Errorf("validation error: exit %d %q", code, errOut)
	}
	// the caret line never carries control characters from the input
	_, _, errOut = dryRun(t, set, "(fr \x1b[31m)", "json")
	if strings.ContainsRune(errOut, 0x1b) {
		t.Errorf("stderr echoes an escape character: %q", errOut)
	}
}

// Names from a server may hold C1 controls, which JSON allows raw; the
// printed requests escape them.
func TestDryRunTerminalSafe(t *testing.T) {
	set, err := toolset.Parse([]byte(`[{"name":"evil\u009b2J","inputSchema":{"type":"object","properties":{"s":{"type":"string"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := dryRun(t, set, `{"name":"evil\u009b2J","arguments":{"s":"\u0085x\u007f"}}`, "json")
	if code != exitOK || strings.ContainsAny(out, "\u009b\u0085\u007f") || !strings.Contains(out, `evil\u009b2J`) || !strings.Contains(out, `\u0085x\u007f`) {
		t.Errorf("exit %d %q %q", code, out, errOut)
	}
	code, out, _ = dryRun(t, set, `{"name":"evil\u009b2J","arguments":{"s":"\u0085x"}}`, "term")
	if code != exitOK || strings.ContainsAny(out, "\u009b\u0085") {
		t.Errorf("term output holds C1 controls: %q", out)
	}
}
