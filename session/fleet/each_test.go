package fleet

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
)

// TestListEachSkipsTheFailingAndKeepsTheRest: entries are listed at once,
// each within its own bound; one that cannot be resolved, one that cannot
// be reached and one that never answers are reported with why, in the
// order given, and never stop the demo servers beside them from being
// counted. The hung one is released by its own timeout while the healthy
// ones have already answered.
func TestListEachSkipsTheFailingAndKeepsTheRest(t *testing.T) {
	demoSpec := func(name string) Spec {
		return Spec{Name: name, Dial: func(ctx context.Context) (*session.Session, error) {
			return session.Open(ctx, session.Source{Kind: session.InProcess, Name: "demo", Server: demo.New(demo.Options{})}, session.Options{})
		}}
	}
	closed := 0
	specs := []Spec{
		demoSpec("first"),
		{Name: "untrusted", Err: errors.New("project entry not trusted"), Close: func() { closed++ }},
		{Name: "unreachable", Dial: func(context.Context) (*session.Session, error) {
			return nil, errors.New("fork/exec /nonexistent: no such file")
		}},
		{Name: "hung", Dial: func(ctx context.Context) (*session.Session, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}},
		demoSpec("second"),
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got := ListEach(ctx, specs, 2*time.Second)
	if len(got) != len(specs) {
		t.Fatalf("%d results for %d entries", len(got), len(specs))
	}
	for i, l := range got {
		if l.Name != specs[i].Name {
			t.Errorf("result %d is %q, want %q", i, l.Name, specs[i].Name)
		}
	}
	for _, i := range []int{0, 4} {
		l := got[i]
		if l.Err != nil || l.Set == nil || len(l.Set.Tools) == 0 {
			t.Fatalf("%s: %v %v", l.Name, l.Err, l.Set)
		}
		if l.Set.Server == "" || l.Set.Server == l.Name {
			t.Errorf("%s: the set is named %q, want the name the server gave", l.Name, l.Set.Server)
		}
	}
	for i, want := range map[int]string{1: "not trusted", 2: "connecting: fork/exec", 3: "no answer within 2s"} {
		if got[i].Err == nil || !strings.Contains(got[i].Err.Error(), want) || got[i].Set != nil {
			t.Errorf("%s: %v, want an error with %q", got[i].Name, got[i].Err, want)
		}
	}
	if closed != 1 {
		t.Errorf("the unusable entry was released %d times, want once", closed)
	}
}
