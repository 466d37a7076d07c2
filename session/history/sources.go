package history

// Sources returns what was written to make the last calls to server, oldest
// first, each once: a single call's source, a batch's whole text (once for
// all its calls). This is what a composer's history steps through; keeping
// it per server means a call made to one server never comes back as a
// call to another, where its tool may not exist. server "" takes every
// server's calls. At most limit sources come back (all when limit <= 0):
// the newest.
func (l *Log) Sources(server string, limit int) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	err := l.Scan(func(e Entry) bool {
		if server != "" && e.Server != server {
			return true
		}
		src := e.Source
		if e.Batch != "" {
			src = e.Batch
		}
		if src != "" && !seen[src] {
			seen[src] = true
			out = append(out, src)
		}
		return limit <= 0 || len(out) < limit
	})
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}
