package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

func TestToolsList(t *testing.T) {
	code, out, errOut := sessCLI(t, nil, "", "tools")
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errOut)
	}
	for _, want := range []string{"file_read", "readonly", "delete_todo", "destruct", "tools from mcpterm-demo"} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = sessCLI(t, nil, "", "tools", "--format", "json")
	v, err := ojson.Parse([]byte(out))
	if code != exitOK || err != nil {
		t.Fatalf("json: exit %d %v", code, err)
	}
	var fileRead *ojson.Value
	for _, tl := range v.Get("tools").Items {
		if tl.Get("name").StringOr("") == "file_read" {
			fileRead = tl
		}
	}
	// Property order as the server wrote it.
	if fileRead == nil || !slices.Equal(fileRead.Get("inputSchema").Get("properties").Keys(), []string{"path", "encoding", "offset", "limit"}) {
		t.Errorf("file_read in json: %v", fileRead)
	}
	code, out, _ = sessCLI(t, nil, "", "tools", "--format", "json-pretty", "--max-output", "100")
	if code != exitOK || len(out) > 101 || !strings.Contains(out, "(cut ") {
		t.Errorf("json-pretty capped: exit %d %q", code, out)
	}
}

func TestToolsOffline(t *testing.T) {
	f := filepath.Join(t.TempDir(), "tools.json")
	// A hostile description: escape sequences must not reach the terminal.
	os.WriteFile(f, []byte(`[{"name":"zap","description":"line one\u001b]8;;http://evil\u0007 click\u001b]8;;\u0007\nline two","inputSchema":{"type":"object"}}]`), 0o644)
	code, out, errOut := sessCLI(t, nil, "", "tools", "--tools", f)
	if code != exitOK || !strings.Contains(out, "zap") || !strings.Contains(out, "line one") || strings.ContainsRune(out, 0x1b) || strings.Contains(out, "line two") {
		t.Errorf("exit %d %q %q", code, out, errOut)
	}
	code, out, _ = sessCLI(t, nil, "", "tools", "--tools", f, "--format", "json")
	if code != exitOK || strings.ContainsRune(out, 0x1b) || !json.Valid([]byte(out)) {
		t.Errorf("json: %q", out)
	}
	code, _, errOut = sessCLI(t, nil, "", "resources", "--tools", f)
	if code != exitUsage || !strings.Contains(errOut, "offline") {
		t.Errorf("resources offline: exit %d %q", code, errOut)
	}
}

func TestResourcesAndPrompts(t *testing.T) {
	code, out, errOut := sessCLI(t, nil, "", "resources")
	if code != exitOK || !strings.Contains(out, "demo://catalog") || !strings.Contains(out, "(template)") {
		t.Fatalf("resources: exit %d %q %q", code, out, errOut)
	}
	code, out, _ = sessCLI(t, nil, "", "resources", "--read", "file:///docs/README.md")
	if code != exitOK || !strings.HasPrefix(out, "# mcpterm demo server") {
		t.Errorf("read: exit %d %q", code, out)
	}
	code, out, _ = sessCLI(t, nil, "", "resources", "--read", "file:///docs/README.md", "--output", "json")
	if code != exitOK || !strings.Contains(out, `"contents"`) || !json.Valid([]byte(out)) {
		t.Errorf("read json: exit %d %q", code, out)
	}
	code, _, errOut = sessCLI(t, nil, "", "resources", "--read", "file:///no/such")
	if code == exitOK || errOut == "" {
		t.Errorf("missing resource: exit %d", code)
	}
	code, out, _ = sessCLI(t, nil, "", "resources", "--output", "json")
	var rj struct {
		Resources []struct{ URI string } `json:"resources"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &rj) != nil || len(rj.Resources) == 0 {
		t.Errorf("resources json: %q", out)
	}

	code, out, _ = sessCLI(t, nil, "", "prompts")
	if code != exitOK || !strings.Contains(out, "summarize_file(path, [style])") {
		t.Errorf("prompts: exit %d %q", code, out)
	}
	code, out, errOut = sessCLI(t, nil, "", "prompts", "--get", "summarize_file", "--arg", "path=/docs/README.md")
	if code != exitOK || !strings.Contains(out, "user: ") || !strings.Contains(out, "/docs/README.md") {
		t.Errorf("get: exit %d %q %q", code, out, errOut)
	}
	code, _, errOut = sessCLI(t, nil, "", "prompts", "--arg", "x=1")
	if code != exitUsage || !strings.Contains(errOut, "--get") {
		t.Errorf("--arg without --get: %d %q", code, errOut)
	}
	code, _, _ = sessCLI(t, nil, "", "prompts", "--get", "summarize_file", "--arg", "noequals")
	if code != exitUsage {
		t.Errorf("bad --arg: %d", code)
	}
}
