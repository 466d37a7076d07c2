package chart

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/mcpterm/mcpterm/tokens"
)

// chromium is Debian's browser, which .ci/run installs. Without it the
// test skips on a developer's machine but fails in CI (CI=true), where a
// check that silently skipped would be a check that cannot fail.
func chromium(t *testing.T) string {
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed (.ci/run installs it): the page cannot be checked in a browser")
		}
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	return path
}

// TestHTMLInChromium opens the page in a real headless Chromium and
// checks what a person would do with it: the chart renders (every bar has
// a width in the layout), no load was attempted and no script error or
// console error happened (the CSP hashes let the inline script run — the
// sorting proves it), a click on a form's header sorts that table by the
// form numerically, a second click reverses it, a click on the tool
// header sorts by name, and each row still pairs a tool with its own
// count. Then it takes a screenshot (kept at $MCPTERM_SCREENSHOT when set,
// for a person to look at) and checks it is a picture with content.
func TestHTMLInChromium(t *testing.T) {
	exe := chromium(t)
	r := report(t, todoSet(t), hardSet(t))
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, []byte(HTML(r, Options{Date: testDate})), 0o644); err != nil {
		t.Fatal(err)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		chromedp.WindowSize(1200, 900), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(filepath.Join(dir, "profile")))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to run its sandbox as root
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	alloc, stopAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer stopAlloc()
	bctx, stopBrowser := chromedp.NewContext(alloc)
	defer stopBrowser()

	var mu sync.Mutex
	var problems []string
	if err := chromedp.Listen(bctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				problems = append(problems, "log: "+ev.Entry.Text)
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				problems = append(problems, "console error")
			}
		}
	}); err != nil {
		t.Fatal(err)
	}

	col := slices.Index(r.Forms, tokens.Baseline) + 1 // column 0 is the tool
	jsonHead := fmt.Sprintf("#tools-0 thead th:nth-child(%d)", col+1)
	if err := chromedp.Do(bctx,
		chromedp.Navigate("file://"+page),
		chromedp.WaitVisible(chromedp.CSS("#tools-0 tbody tr")),
	); err != nil {
		t.Fatal(err)
	}
	bars := evaluate[int](t, bctx, `document.querySelectorAll("svg rect.bar").length`)
	minBar := evaluate[float64](t, bctx, `Math.min(...Array.from(document.querySelectorAll("svg rect.bar")).filter(b => b.getAttribute("data-value") !== "0").map(b => b.getBoundingClientRect().width))`)
	resources := evaluate[int](t, bctx, `performance.getEntriesByType("resource").length`)
	if want := (len(r.Servers) + 1) * len(Shown(r)); bars != want || minBar <= 0 {
		t.Errorf("the chart shows %d bars (want %d), the narrowest non-zero %.2f px", bars, want, minBar)
	}
	if resources != 0 {
		t.Errorf("the page loaded %d resources", resources)
	}

	s := r.Servers[0]
	counts := map[string]int{}
	for _, tc := range s.Tools {
		counts[tc.Name] = tc.Counts[tokens.Baseline]
	}
	// rows reads the first table in DOM order as (tool, json count) pairs,
	// and the sorted header's aria-sort.
	rows := func(click string) (names []string, values []int, sort string) {
		t.Helper()
		if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS(click))); err != nil {
			t.Fatal(err)
		}
		cells := evaluate[[][]string](t, bctx, fmt.Sprintf(`Array.from(document.querySelectorAll("#tools-0 tbody tr")).map(r => [r.cells[0].textContent, r.cells[%d].textContent])`, col))
		sort = evaluate[string](t, bctx, `(document.querySelector("#tools-0 thead th[aria-sort]") || {getAttribute: () => ""}).getAttribute("aria-sort")`)
		for _, c := range cells {
			n, err := strconv.Atoi(c[1])
			if err != nil {
				t.Fatalf("cell %q: %v", c[1], err)
			}
			if counts[c[0]] != n {
				t.Errorf("row %q shows %d, the report says %d: a row came apart", c[0], n, counts[c[0]])
			}
			names, values = append(names, c[0]), append(values, n)
		}
		if len(names) != len(s.Tools) {
			t.Fatalf("%d rows, want %d", len(names), len(s.Tools))
		}
		return names, values, sort
	}

	want := make([]int, 0, len(s.Tools))
	for _, tc := range s.Tools {
		want = append(want, tc.Counts[tokens.Baseline])
	}
	slices.Sort(want)
	if _, got, sort := rows(jsonHead); !slices.Equal(got, want) || sort != "ascending" {
		t.Errorf("after a click on json: %v (%s), want %v ascending", got, sort, want)
	}
	slices.Reverse(want)
	if _, got, sort := rows(jsonHead); !slices.Equal(got, want) || sort != "descending" {
		t.Errorf("after a second click: %v (%s), want %v descending", got, sort, want)
	}
	var names []string
	for _, tc := range s.Tools {
		names = append(names, tc.Name)
	}
	slices.Sort(names)
	if got, _, sort := rows("#tools-0 thead th:nth-child(1)"); !slices.Equal(got, names) || sort != "ascending" {
		t.Errorf("after a click on tool: %v (%s), want %v", got, sort, names)
	}
	// Leave the json sort for the screenshot: largest first is what a
	// reader looks for.
	rows(jsonHead)
	rows(jsonHead)

	shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	b := img.Bounds()
	colours := map[uint32]bool{}
	for y := b.Min.Y; y < min(b.Max.Y, 800); y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	if b.Dx() < 960 || b.Dy() < 900 || len(colours) < 8 {
		t.Errorf("screenshot %dx%d with %d colours: not the page", b.Dx(), b.Dy(), len(colours))
	}
	keep := filepath.Join(dir, "report.png")
	if p := os.Getenv("MCPTERM_SCREENSHOT"); p != "" {
		keep = p
	}
	if err := os.WriteFile(keep, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %dx%d: %s", b.Dx(), b.Dy(), keep)

	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the browser reported: %q", problems)
	}
}

// evaluate runs a script in the page and decodes its value.
func evaluate[T any](t *testing.T, ctx context.Context, script string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](script))
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return v
}
