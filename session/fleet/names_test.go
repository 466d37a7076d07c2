package fleet

import "testing"

// TestNamerNamespacesOnlyClashes: a name one upstream has is kept; a name
// two share becomes SERVER_NAME for both, unique even against listed names.
func TestNamerNamespacesOnlyClashes(t *testing.T) {
	n := newNamer([][]string{{"echo", "read", "a_read"}, {"read", "write"}, {"read"}})
	cases := []struct{ server, name, want string }{
		{"one", "echo", "echo"},
		{"a", "read", "a_read_2"},
		{"two", "read", "two_read"},
		{"two", "write", "write"},
		{"my server", "read", "my-server_read"},
	}
	for _, c := range cases {
		if got := n.name(c.server, c.name); got != c.want {
			t.Errorf("name(%q, %q) = %q, want %q", c.server, c.name, got, c.want)
		}
	}
}

// TestNamespacedURIRoundTrip: a clashing URI is read back to its server.
func TestNamespacedURIRoundTrip(t *testing.T) {
	u := namespacedURI("my:server", "file:///x")
	s, orig, ok := splitURI(u)
	if !ok || s != "my:server" || orig != "file:///x" {
		t.Fatalf("splitURI(%q) = %q %q %v", u, s, orig, ok)
	}
}
