//go:build unix

package conformance

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// termNamed are the server scenarios that name one of the fixture's own
// tools. Term mode shows a client the single tool mcp_term, whose
// declarations and (CODE ...) calls reach the fixture's tools; a client
// asking for a fixture tool by its own name is told there is none, so
// these cannot pass in term mode (passthrough shows the tools as they
// are, and passes them). Each entry is the scenario, the tool it names
// (its failure must be about that tool) and what it does with it.
// Every other scenario must pass in term mode; a listed one that starts
// passing is an error, so the list stays honest. (server-sse-polling
// names test_reconnection too, but passes whatever the answer when it
// comes as JSON, as the gateway's does.)
var termNamed = []struct{ scenario, tool, why string }{
	{"tools-call-simple-text", "test_simple_text", "calls it for one text block"},
	{"tools-call-image", "test_image_content", "calls it for an image block"},
	{"tools-call-audio", "test_audio_content", "calls it for an audio block"},
	{"tools-call-embedded-resource", "test_embedded_resource", "calls it for an embedded resource"},
	{"tools-call-mixed-content", "test_multiple_content_types", "calls it for text, image and resource blocks"},
	{"tools-call-with-logging", "test_tool_with_logging", "calls it for log messages during the call"},
	{"tools-call-error", "test_error_handling", "calls it for an isError result"},
	{"tools-call-with-progress", "test_tool_with_progress", "calls it for progress notifications"},
	{"tools-call-sampling", "test_sampling", "calls it for a sampling request back to the client"},
	{"tools-call-elicitation", "test_elicitation", "calls it for an elicitation request back to the client"},
	{"elicitation-sep1034-defaults", "test_elicitation_sep1034_defaults", "calls it for an elicitation with defaults"},
	{"elicitation-sep1330-enums", "test_elicitation_sep1330_enums", "calls it for an elicitation with enum schemas"},
	// Not a call: the scenario finds the tool by name in tools/list to read
	// its inputSchema's $schema, $defs and additionalProperties.
	{"json-schema-2020-12", "json_schema_2020_12_tool", "looks it up by name in tools/list"},
}

// passed reports whether a scenario's checks hold no FAILURE (the suite's
// own verdict: the fixture itself draws WARNINGs, for SSE priming) and the
// first failure's text.
func passed(cs []check) (bool, string) {
	c, failed := firstFailure(cs)
	if !failed {
		return true, ""
	}
	return false, c.String()
}

// firstFailure is the first FAILURE among cs, or a stand-in when there
// are no checks at all.
func firstFailure(cs []check) (check, bool) {
	if len(cs) == 0 {
		return check{Status: "FAILURE", ErrorMessage: "no checks"}, true
	}
	for _, c := range cs {
		if c.Status == "FAILURE" {
			return c, true
		}
	}
	return check{}, false
}

// TestServerScenarios runs every server scenario (--suite all) against the
// suite's fixture server, the reference, which must pass them all, and
// then against `mcpterm serve` fronting it, one gateway process per mode,
// one after the other. The gateway runs must hold the reference's
// scenarios, no more and no fewer. In passthrough every scenario the
// fixture passes must pass; in term mode every one but termNamed. Each mode's table is logged,
// with the checks whose status differs from the fixture's noted.
func TestServerScenarios(t *testing.T) {
	k := locate(t)
	bin := mcpterm(t)
	fixPort := freePort(t)
	fixURL := "http://127.0.0.1:" + fixPort + "/mcp"
	spawn(t, k.fixture, withNode(k, "PORT="+fixPort), "running on",
		k.node, filepath.Join(k.fixture, "node_modules", ".bin", "tsx"), "everything-server.ts")
	results, out := runSuite(t, k, withNode(k), "server", "--url", fixURL, "--suite", "all")
	reference := readResults(t, results)
	if len(reference) == 0 {
		t.Fatalf("no results from the fixture run:\n%s", out)
	}
	names := slices.Sorted(maps.Keys(reference))
	for _, n := range names {
		if ok, why := passed(reference[n]); !ok {
			t.Errorf("the fixture fails %s: %s", n, why)
		}
	}
	fixturePasses := func(n string) bool { ok, _ := passed(reference[n]); return ok }
	for _, e := range termNamed {
		if _, ok := reference[e.scenario]; !ok {
			t.Errorf("termNamed lists %s, which the suite did not run: remove it from the list", e.scenario)
		}
	}

	t.Run("passthrough", func(t *testing.T) {
		gateway := gatewayRun(t, k, bin, fixURL, "passthrough", reference)
		for _, n := range names {
			if ok, why := passed(gateway[n]); !ok && fixturePasses(n) {
				t.Errorf("mcpterm serve --mode passthrough does not pass %s through: %s", n, why)
			}
		}
	})
	t.Run("term", func(t *testing.T) {
		gateway := gatewayRun(t, k, bin, fixURL, "term", reference)
		for _, n := range names {
			ok, why := passed(gateway[n])
			i := slices.IndexFunc(termNamed, func(e struct{ scenario, tool, why string }) bool { return e.scenario == n })
			switch {
			case i < 0 && !ok && fixturePasses(n):
				t.Errorf("mcpterm serve --mode term fails %s, which names no fixture tool: %s", n, why)
			case i >= 0 && ok:
				t.Errorf("%s passes in term mode now: remove it from termNamed", n)
			case i >= 0 && !strings.Contains(why, termNamed[i].tool):
				t.Errorf("%s fails in term mode, but not over %s (which it %s): %s", n, termNamed[i].tool, termNamed[i].why, why)
			}
		}
	})
}

// gatewayRun starts `mcpterm serve --mode mode` fronting fixURL, runs the
// server scenarios against it, logs the table next to reference and
// returns the results. It fails the test when the run's scenarios are not
// the reference's. The gateway ends with t.
func gatewayRun(t *testing.T, k kit, bin, fixURL, mode string, reference map[string][]check) map[string][]check {
	t.Helper()
	listen := "127.0.0.1:" + freePort(t)
	gw := spawn(t, t.TempDir(), withNode(k), "serving MCP over streamable HTTP at",
		bin, "serve", "--yes", "--mode", mode, "--listen", listen, "--url", fixURL)
	results, out := runSuite(t, k, withNode(k), "server", "--url", "http://"+listen+"/mcp", "--suite", "all")
	gateway := readResults(t, results)
	if len(gateway) == 0 {
		t.Fatalf("no results from the %s run:\n%s\ngateway:\n%s", mode, out, gw.output())
	}
	names := slices.Sorted(maps.Keys(reference))
	got := slices.Sorted(maps.Keys(gateway))
	if !slices.Equal(names, got) {
		t.Errorf("the %s run's scenarios are not the fixture's:\nfixture: %v\n%s: %v", mode, names, mode, got)
	}

	var table strings.Builder
	fmt.Fprintf(&table, "%-32s %-8s %s\n", "scenario", "fixture", "mcpterm serve --mode "+mode)
	for _, n := range names {
		okRef, _ := passed(reference[n])
		c, failed := firstFailure(gateway[n])
		note := checkDiff(reference[n], gateway[n])
		if failed {
			note = c.ErrorMessage
		}
		fmt.Fprintf(&table, "%-32s %-8s %s\n", n, verdict(okRef), strings.TrimSpace(verdict(!failed)+" "+firstLine(note)))
	}
	t.Logf("server scenarios, %s:\n%s", mode, table.String())
	if t.Failed() {
		t.Logf("the suite said:\n%s\ngateway:\n%s", tail(out, 40), tail(gw.output(), 40))
	}
	return gateway
}

// checkDiff names the reference's verdict checks (not its INFO log) whose
// status the gateway's run does not repeat, e.g. a SUCCESS over SSE that
// became the suite's INFO for a JSON answer: a pass that took another
// path.
func checkDiff(ref, gw []check) string {
	status := map[string]string{}
	for _, c := range gw {
		status[c.ID] = c.Status
	}
	var diffs []string
	for _, c := range ref {
		if c.Status == "INFO" {
			continue
		}
		got, ok := status[c.ID]
		if !ok {
			got = "absent"
		}
		if got != c.Status {
			diffs = append(diffs, c.ID+" "+c.Status+"→"+got)
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	return "(" + strings.Join(diffs, ", ") + ")"
}

func verdict(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:100]) + "…"
	}
	return s
}
