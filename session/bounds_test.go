package session

import (
	"errors"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/session/internal/testserver"
)

// TestCallMaxTimeCapsProgress: progress restarts the idle timeout, but the
// overall deadline does not move, so a call that reports progress for
// longer than MaxTime ends as a timeout that says so.
func TestCallMaxTimeCapsProgress(t *testing.T) {
	rec := &testserver.Recorder{}
	s := open(t, inProcess(rec), Options{MaxCallTime: 300 * time.Millisecond})
	ctx := ctxT(t, 20*time.Second)
	// 100 steps of 50 ms, each with progress: the idle timeout of 1 s
	// never runs out, the overall 300 ms does.
	r := s.Call(ctx, CallRequest{Tool: "slow", Arguments: obj(t, `{"steps":100,"ms":50}`), Timeout: time.Second, MaxTime: 300 * time.Millisecond})
	var te *TimeoutError
	if !errors.As(r.Err, &te) || !te.Overall || !errors.Is(r.Err, ErrTimeout) || Classify(r.Err) != ClassTimeout {
		t.Fatalf("err %v (%T), want an overall timeout", r.Err, r.Err)
	}
	if want := "tools/call slow: gave up after the --max-time of 300ms (progress kept arriving)"; r.Err.Error() != want {
		t.Errorf("message %q, want %q", r.Err.Error(), want)
	}
	if !r.Cancelled || r.Progress == 0 {
		t.Errorf("cancelled %v, progress %d", r.Cancelled, r.Progress)
	}
}

// TestMaxTimeDefaults: the overall deadline defaults to ten times the
// call timeout, from --timeout when only that is given.
func TestMaxTimeDefaults(t *testing.T) {
	if o := (Options{CallTimeout: 2 * time.Second}).withDefaults(); o.MaxCallTime != 20*time.Second {
		t.Errorf("default max time %v", o.MaxCallTime)
	}
	for _, tc := range []struct {
		sel  Selection
		want time.Duration
	}{
		{Selection{Timeout: 2 * time.Second}, 20 * time.Second},
		{Selection{Timeout: 2 * time.Second, MaxTime: 5 * time.Second}, 5 * time.Second},
		{Selection{MaxTime: 7 * time.Second}, 7 * time.Second},
		{Selection{}, 600 * time.Second},
	} {
		tgt, err := Resolve(tc.sel, Env{Getenv: func(string) string { return "" }}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := tgt.Options.withDefaults().MaxCallTime; got != tc.want {
			t.Errorf("%+v: max time %v, want %v", tc.sel, got, tc.want)
		}
	}
}
