package tokens

// ContextWindow is the context window a config's bill is compared with:
// 200k tokens, the window of the models most MCP clients run on, so "what
// share of the window do my servers take before any work" has one answer
// in every face.
const ContextWindow = 200_000

// WindowShare is form's count as a percentage of ContextWindow.
func WindowShare(counts map[string]int, form string) (pct float64, ok bool) {
	n, ok := counts[form]
	if !ok {
		return 0, false
	}
	return 100 * float64(n) / ContextWindow, true
}

// Skipped is a server a report over a config could not count (it could not
// be resolved, reached or listed), with why; the rest of the report is
// complete without it.
type Skipped struct {
	Server string
	Reason string
}
