package history

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/safe"
)

// TestSecretArgumentMaskedInEveryField: the value of an argument named
// password is masked not only in the arguments but in the source, the
// error and the summary of the same record, and in the records after it.
func TestSecretArgumentMaskedInEveryField(t *testing.T) {
	const pw = "hunter2-history-0123"
	l := openTemp(t, Options{Redactor: safe.NewRedactor(nil)})
	err := l.Append(Entry{Tool: "login", Arguments: json.RawMessage(`{"user":"bob","password":"` + pw + `"}`),
		Source: `(login "bob" :password "` + pw + `")`, Outcome: Failed, Error: "bad password " + pw, Summary: "echo " + pw})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append(Entry{Tool: "whoami", Summary: "you logged in with " + pw, Outcome: OK}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(l.Path())
	if bytes.Contains(data, []byte("hunter2")) {
		t.Fatalf("the password reached the file:\n%s", data)
	}
	es, _ := l.Recent(0)
	if e := es[1]; e.Source != `(login "bob" :password "***")` || e.Error != "bad password ***" || e.Summary != "echo ***" {
		t.Fatalf("entry %+v", e)
	}
}

// TestSummaryRedactsBeforeTheCut: a secret across the summary's bound is
// hidden whole; cutting first would have stored its clear start.
func TestSummaryRedactsBeforeTheCut(t *testing.T) {
	const secret = "ghp_across_the_cut_0123456789"
	l := openTemp(t, Options{Redactor: safe.NewRedactor([]string{secret})})
	text := strings.Repeat("x", 175) + secret + strings.Repeat("y", 1000)
	sum := l.Summary(text)
	if strings.Contains(sum, "ghp_") || !strings.HasPrefix(sum, strings.Repeat("x", 175)+"***") || len(sum) > SummaryBytes {
		t.Fatalf("Summary = %q", sum)
	}
	if naive, _ := safe.Cut(text, SummaryBytes); !strings.Contains(naive, "ghp_") {
		t.Fatalf("the case does not put the secret across the cut: %q", naive)
	}
	if got := l.Summary("short"); got != "short" {
		t.Fatalf("Summary(short) = %q", got)
	}
	plain := openTemp(t, Options{}) // no redactor: only the cut
	if got := plain.Summary(strings.Repeat("z", 500)); len(got) > SummaryBytes || !strings.Contains(got, "…(cut ") {
		t.Fatalf("Summary without a redactor = %q", got)
	}
}
