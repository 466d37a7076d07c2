package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/safe"
)

func openTemp(t testing.TB, opt Options) *Log {
	t.Helper()
	l, err := Open(filepath.Join(t.TempDir(), "state", "mcpterm", "history.jsonl"), opt)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestAppendAndRecent(t *testing.T) {
	l := openTemp(t, Options{})
	base := time.Date(2026, 3, 2, 1, 47, 21, 0, time.UTC)
	for i := range 5 {
		err := l.Append(Entry{
			Time: base.Add(time.Duration(i) * time.Second), Server: "demo", Tool: fmt.Sprintf("tool_%d", i),
			Arguments: json.RawMessage(fmt.Sprintf(`{"z":%d,"a":"x"}`, i)), Source: fmt.Sprintf(`(tool_%d :z %d)`, i, i),
			Outcome: OK, Duration: 1500*time.Microsecond + time.Duration(i)*time.Millisecond, Summary: "ok",
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := l.Recent(3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Tool != "tool_4" || got[2].Tool != "tool_2" {
		t.Fatalf("Recent(3) = %+v", got)
	}
	if string(got[0].Arguments) != `{"z":4,"a":"x"}` {
		t.Errorf("arguments changed (order must be kept): %s", got[0].Arguments)
	}
	if got[0].Duration != 5500*time.Microsecond || !got[0].Time.Equal(base.Add(4*time.Second)) {
		t.Errorf("duration %v time %v", got[0].Duration, got[0].Time)
	}
	all, _ := l.Recent(0)
	if len(all) != 5 {
		t.Errorf("Recent(0) = %d entries", len(all))
	}
	data, _ := os.ReadFile(l.Path())
	if !bytes.Contains(data, []byte(`"duration_ms":5.5`)) || bytes.Count(data, []byte("\n")) != 5 {
		t.Errorf("file:\n%s", data)
	}
	fi, _ := os.Stat(l.Path())
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("history file mode %v, want 0600", fi.Mode().Perm())
	}
	di, _ := os.Stat(filepath.Dir(l.Path()))
	if di.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode %v, want 0700", di.Mode().Perm())
	}
}

func TestZeroTimeIsStamped(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	l := openTemp(t, Options{Now: func() time.Time { return now }})
	if err := l.Append(Entry{Tool: "t", Outcome: Failed, Error: "boom"}); err != nil {
		t.Fatal(err)
	}
	got, _ := l.Recent(1)
	if len(got) != 1 || !got[0].Time.Equal(now) || got[0].Error != "boom" || got[0].Outcome != Failed {
		t.Fatalf("got %+v", got)
	}
}

func TestSecretsNeverReachTheFile(t *testing.T) {
	secret := "ghp_live_token_0123456789"
	l := openTemp(t, Options{Redactor: safe.NewRedactor([]string{secret})})
	err := l.Append(Entry{
		Server: "gh", Tool: "search",
		Arguments: json.RawMessage(`{"q":"token ` + secret + `","password":"pw-not-in-config","nested":{"apiKey":"k2"}}`),
		Source:    `(search "` + secret + `")`, Outcome: ToolError, Error: "denied for " + secret, Summary: secret,
	})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(l.Path())
	for _, s := range []string{secret, "pw-not-in-config", `"k2"`} {
		if bytes.Contains(data, []byte(s)) {
			t.Errorf("file contains %q:\n%s", s, data)
		}
	}
	got, _ := l.Recent(1)
	if !json.Valid(got[0].Arguments) || !strings.Contains(string(got[0].Arguments), `"password":"***"`) {
		t.Errorf("arguments %s", got[0].Arguments)
	}
}

func TestRecordsAreBounded(t *testing.T) {
	l := openTemp(t, Options{MaxRecord: 4096})
	huge := strings.Repeat("result line\n", 1<<20/12*10) // ~10 MB
	args := `{"data":"` + strings.Repeat("x", 20000) + `"}`
	ctrl := strings.Repeat("\x01", 9000) // escapes to 6x its size in JSON
	if err := l.Append(Entry{Tool: "big", Summary: huge, Arguments: json.RawMessage(args), Source: ctrl, Outcome: OK}); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(Entry{Tool: "small", Arguments: json.RawMessage(`{}`), Outcome: OK}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(l.Path())
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if len(line) > 4096 {
			t.Errorf("line %d is %d bytes", i, len(line))
		}
	}
	got, err := l.Recent(0)
	if err != nil || len(got) != 2 {
		t.Fatalf("Recent = %d, %v", len(got), err)
	}
	big := got[1]
	if big.Cut < len(huge) || !strings.Contains(big.Summary, "…(cut ") {
		t.Errorf("summary not cut with a marker: cut=%d %q", big.Cut, big.Summary[:min(80, len(big.Summary))])
	}
	if !json.Valid(big.Arguments) || !strings.Contains(string(big.Arguments), "…(cut ") {
		t.Errorf("arguments should be a JSON string with a marker: %.80s", big.Arguments)
	}
	total := len(huge) + len(args) + len(ctrl)
	kept := len(strings.Split(big.Summary, "…(cut ")[0]) + len(strings.Split(big.Source, "…(cut ")[0])
	var argText string
	_ = json.Unmarshal(big.Arguments, &argText)
	kept += len(strings.Split(argText, "…(cut ")[0])
	if kept+big.Cut != total {
		t.Errorf("kept %d + cut %d != %d: the cut count is wrong", kept, big.Cut, total)
	}
	if got[0].Tool != "small" || got[0].Cut != 0 {
		t.Errorf("small record %+v", got[0])
	}
	// hostile names are bounded too
	if err := l.Append(Entry{Tool: strings.Repeat("t", 100000), Server: strings.Repeat("s", 100000), Outcome: OK}); err != nil {
		t.Fatal(err)
	}
}

func TestTornWriteIsSkippedAndRepaired(t *testing.T) {
	l := openTemp(t, Options{})
	for i := range 3 {
		if err := l.Append(Entry{Tool: fmt.Sprint("before", i), Outcome: OK}); err != nil {
			t.Fatal(err)
		}
	}
	// a crash in the middle of the fourth write
	f, err := os.OpenFile(l.Path(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"time":"2026-03-02T01:47:21Z","server":"demo","tool":"torn","argu`)
	f.Close()
	got, err := l.Recent(0)
	if err != nil || len(got) != 3 || got[0].Tool != "before2" {
		t.Fatalf("after a torn write: %d entries (%v), newest %+v", len(got), err, got)
	}
	if err := l.Append(Entry{Tool: "after", Outcome: OK}); err != nil {
		t.Fatal(err)
	}
	got, _ = l.Recent(0)
	if len(got) != 4 || got[0].Tool != "after" || got[1].Tool != "before2" {
		t.Fatalf("after repair: %+v", got)
	}
	data, _ := os.ReadFile(l.Path())
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 5 || !strings.HasSuffix(lines[3], `"argu`) {
		t.Fatalf("the torn line should stay on its own line:\n%s", data)
	}
}

// TestCrashMidAppend kills a process that is appending as fast as it can and
// checks that every complete record survived and the file is still usable.
func TestCrashMidAppend(t *testing.T) {
	if path := os.Getenv("MCPTERM_HISTORY_CRASH_HELPER"); path != "" {
		l, err := Open(path, Options{})
		if err != nil {
			os.Exit(3)
		}
		ready := false
		for i := 0; ; i++ {
			if err := l.Append(Entry{Tool: fmt.Sprint("call", i), Summary: strings.Repeat("s", i%5000), Outcome: OK}); err != nil {
				os.Exit(4)
			}
			// Tell the test once there is enough to crash over, and keep
			// appending as fast as before.
			if !ready && i%64 == 0 {
				if fi, err := os.Stat(path); err == nil && fi.Size() > 200<<10 {
					fmt.Println("written")
					ready = true
				}
			}
		}
	}
	path := filepath.Join(t.TempDir(), "history.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashMidAppend$")
	cmd.Env = append(os.Environ(), "MCPTERM_HISTORY_CRASH_HELPER="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	said := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if sc.Text() == "written" {
				said <- true
				return
			}
		}
		said <- false // the helper exited (or closed stdout) without saying it
	}()
	select {
	case ok := <-said:
		if !ok {
			cmd.Wait()
			t.Fatalf("helper did not write: %v", cmd.ProcessState)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("helper did not write")
	}
	cmd.Process.Kill()
	cmd.Wait()
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := l.Recent(0)
	if err != nil {
		t.Fatal(err)
	}
	// every complete line is a record, in order, none missing
	for i, e := range got {
		if want := fmt.Sprint("call", len(got)-1-i); e.Tool != want {
			t.Fatalf("entry %d is %q, want %q", i, e.Tool, want)
		}
	}
	if err := l.Append(Entry{Tool: "after-crash", Outcome: OK}); err != nil {
		t.Fatal(err)
	}
	again, _ := l.Recent(1)
	if len(again) != 1 || again[0].Tool != "after-crash" {
		t.Fatalf("append after crash: %+v", again)
	}
}

func TestConcurrentAppends(t *testing.T) {
	l := openTemp(t, Options{})
	other, err := Open(l.Path(), Options{}) // a second handle, as another process would have
	if err != nil {
		t.Fatal(err)
	}
	const n = 60
	var wg sync.WaitGroup
	for g, log := range []*Log{l, l, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				if err := log.Append(Entry{Tool: fmt.Sprintf("g%d-%d", g, i), Summary: strings.Repeat("x", 3000), Outcome: OK}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	got, err := l.Recent(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3*n {
		t.Fatalf("%d entries, want %d", len(got), 3*n)
	}
	seen := map[string]bool{}
	last := map[string]int{}
	for i := len(got) - 1; i >= 0; i-- { // oldest first
		e := got[i]
		seen[e.Tool] = true
		var g, k int
		fmt.Sscanf(e.Tool, "g%d-%d", &g, &k)
		if prev, ok := last[fmt.Sprint(g)]; ok && k != prev+1 {
			t.Fatalf("goroutine %d: record %d after %d", g, k, prev)
		}
		last[fmt.Sprint(g)] = k
	}
	if len(seen) != 3*n {
		t.Fatalf("duplicates: %d distinct", len(seen))
	}
}

func TestScanAcrossBlocks(t *testing.T) {
	l := openTemp(t, Options{})
	const n = 40
	for i := range n {
		// 7-30 KB records straddle the 64 KB read blocks
		if err := l.Append(Entry{Tool: fmt.Sprint(i), Summary: strings.Repeat("é", 3500+(i*997)%11000), Outcome: OK}); err != nil {
			t.Fatal(err)
		}
	}
	var tools []string
	err := l.Scan(func(e Entry) bool {
		tools = append(tools, e.Tool)
		return len(tools) < 25
	})
	if err != nil || len(tools) != 25 {
		t.Fatalf("%d tools, %v", len(tools), err)
	}
	for i, tool := range tools {
		if tool != fmt.Sprint(n-1-i) {
			t.Fatalf("position %d: %q", i, tool)
		}
	}
	missing := &Log{lines: &Lines{path: filepath.Join(t.TempDir(), "none.jsonl")}}
	if got, err := missing.Recent(10); err != nil || len(got) != 0 {
		t.Fatalf("missing file: %v %v", got, err)
	}
}

func TestStateDir(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	if d, _ := StateDir(env("XDG_STATE_HOME", "/xdg/state"), "/home/u"); d != filepath.Join("/xdg/state", "mcpterm") {
		t.Errorf("XDG: %s", d)
	}
	if d, _ := StateDir(env(), "/home/u"); d != filepath.Join("/home/u", ".local", "state", "mcpterm") {
		t.Errorf("fallback: %s", d)
	}
	if d, _ := StateDir(env("XDG_STATE_HOME", "relative/dir"), "/home/u"); d != filepath.Join("/home/u", ".local", "state", "mcpterm") {
		t.Errorf("relative XDG_STATE_HOME must be ignored: %s", d)
	}
	if _, err := StateDir(env(), ""); err == nil {
		t.Error("no home and no XDG should be an error")
	}
	if p, _ := DefaultPath(env("XDG_STATE_HOME", "/s"), ""); p != filepath.Join("/s", "mcpterm", "history.jsonl") {
		t.Errorf("DefaultPath %s", p)
	}
}

func BenchmarkAppend(b *testing.B) {
	l := openTemp(b, Options{Redactor: safe.NewRedactor([]string{"secret-token-123"})})
	e := Entry{Server: "demo", Tool: "file_read", Arguments: json.RawMessage(`{"path":"/etc/hosts","encoding":"utf8"}`),
		Source: `(fr "/etc/hosts" :utf8)`, Outcome: OK, Duration: time.Millisecond, Summary: "127.0.0.1 localhost"}
	for b.Loop() {
		if err := l.Append(e); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecent100Of10k(b *testing.B) {
	l := openTemp(b, Options{})
	var buf bytes.Buffer
	for i := range 10000 {
		line, _ := json.Marshal(Entry{Time: time.Unix(int64(i), 0).UTC(), Tool: fmt.Sprint("t", i), Summary: strings.Repeat("s", 200), Outcome: OK})
		buf.Write(line)
		buf.WriteByte('\n')
	}
	if err := os.WriteFile(l.Path(), buf.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		got, err := l.Recent(100)
		if err != nil || len(got) != 100 {
			b.Fatal(len(got), err)
		}
	}
}
