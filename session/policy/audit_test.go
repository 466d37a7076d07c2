package policy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/safe"
)

func readAudit(t *testing.T, path string) []AuditRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []AuditRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r AuditRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("bad audit line %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

func TestAudit(t *testing.T) {
	secret := "sk-audit-secret-998877"
	path := filepath.Join(t.TempDir(), "logs", "audit.jsonl")
	a, err := OpenAudit(path, safe.NewRedactor([]string{secret}))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := New(Rules{Deny: []string{"delete_*"}})
	d := p.Check(known("delete_todo", destructive))
	if err := a.Record(AuditRecord{Tool: "delete_todo", Arguments: json.RawMessage(`{"id":3}`), Decision: d.Verdict, Reason: d.Reason}); err != nil {
		t.Fatal(err)
	}
	err = a.Record(AuditRecord{
		Time: time.Date(2026, 3, 2, 0, 0, 0, 0, time.FixedZone("CST", 8*3600)), Server: "gh", Tool: "search",
		Arguments: json.RawMessage(`{"q":"` + secret + `","token":"tok-in-args"}`), Decision: Allow, Reason: "ok",
		Outcome: "ok", Duration: 2500 * time.Microsecond, Bytes: 12345, Cut: 10345,
	})
	if err != nil {
		t.Fatal(err)
	}
	huge := `{"blob":"` + strings.Repeat("z", 100000) + `"}`
	if err := a.Record(AuditRecord{Tool: "upload", Arguments: json.RawMessage(huge), Decision: Confirm, Error: secret}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, s := range []string{secret, "tok-in-args"} {
		if strings.Contains(string(data), s) {
			t.Fatalf("audit file contains %q", s)
		}
	}
	recs := readAudit(t, path)
	if len(recs) != 3 {
		t.Fatalf("%d records", len(recs))
	}
	if recs[0].Decision != Deny || !strings.Contains(recs[0].Reason, `--deny "delete_*"`) || recs[0].Time.IsZero() {
		t.Errorf("record 0: %+v", recs[0])
	}
	r1 := recs[1]
	if r1.Duration != 2500*time.Microsecond || r1.Bytes != 12345 || r1.Cut != 10345 || r1.Time.Location() != time.UTC || r1.Time.Hour() != 16 {
		t.Errorf("record 1: %+v", r1)
	}
	if !strings.Contains(string(data), `"duration_ms":2.5`) {
		t.Errorf("duration not in ms: %s", data)
	}
	if len(recs[2].Arguments) > maxAuditField+64 || !json.Valid(recs[2].Arguments) || !strings.Contains(string(recs[2].Arguments), "…(cut ") {
		t.Errorf("huge arguments not bounded: %d bytes", len(recs[2].Arguments))
	}
}

func TestAuditConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	a1, _ := OpenAudit(path, nil)
	a2, _ := OpenAudit(path, nil)
	var wg sync.WaitGroup
	for g, a := range []*Audit{a1, a2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if err := a.Record(AuditRecord{Tool: fmt.Sprintf("g%d-%d", g, i), Decision: Allow, Reason: strings.Repeat("r", 2000)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if recs := readAudit(t, path); len(recs) != 100 {
		t.Fatalf("%d records, want 100", len(recs))
	}
}
