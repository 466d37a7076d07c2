package aql

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

func TestSnakeName(t *testing.T) {
	cases := map[string]string{
		"get_user":            "get_user",
		"get-user":            "get_user",
		"getUser":             "get_user",
		"GetUser":             "get_user",
		"getUserByID":         "get_user_by_id",
		"API-get-user":        "api_get_user",
		"HTMLParser2":         "html_parser2",
		"getV2User":           "get_v2_user",
		"user.delete":         "user_delete",
		"a..b--c__d":          "a_b_c_d",
		"  spaced  name ":     "spaced_name",
		"2fa-verify":          "op_2fa_verify",
		"日本語ツール":              "op",
		"":                    "op",
		"ÜberTool":            "ber_tool",
		"s3:PutObject":        "s3_put_object",
		"mcp__github__search": "mcp_github_search",
		"already_snake_2":     "already_snake_2",
	}
	for in, want := range cases {
		if got := SnakeName(in); got != want {
			t.Errorf("SnakeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	got := Words("XMLHttpRequest-v2.fetchAll")
	want := []string{"xml", "http", "request", "v2", "fetch", "all"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
}

// TestSnakeNameProperties: on random names from a tricky alphabet, the
// result is always a valid operation name, is stable (snake of snake is
// itself), and a valid name maps to itself.
func TestSnakeNameProperties(t *testing.T) {
	alphabet := []rune("aZb0_-. ./:Ää日9Xy")
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 5000; i++ {
		n := r.Intn(12)
		var b strings.Builder
		for j := 0; j < n; j++ {
			b.WriteRune(alphabet[r.Intn(len(alphabet))])
		}
		s := b.String()
		got := SnakeName(s)
		if !ValidName(got) {
			t.Fatalf("SnakeName(%q) = %q is not a valid name", s, got)
		}
		if again := SnakeName(got); again != got {
			t.Fatalf("SnakeName not stable: %q -> %q -> %q", s, got, again)
		}
		if ValidName(s) && !strings.Contains(s, "__") && !strings.HasSuffix(s, "_") && got != s {
			t.Fatalf("valid name %q changed to %q", s, got)
		}
	}
}

func TestUniqueNames(t *testing.T) {
	names := []string{"getUser", "get_user", "get-user", "introspect", "Introspect", "x", "X", "日本", "中文"}
	got := uniqueNames(names, make([]string, len(names)))
	want := []string{"get_user_2", "get_user", "get_user_3", "introspect_tool", "introspect_tool_2", "x", "x_2", "op", "op_2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("uniqueNames = %q, want %q", got, want)
	}
	// fixed names win, even over a tool whose own name is that name
	fixed := []string{"", "", "get_user", "", "", "", "", "", ""}
	got = uniqueNames(names, fixed)
	if got[2] != "get_user" || got[1] == "get_user" {
		t.Errorf("fixed name not honoured: %q", got)
	}
}

// TestUniqueNamesProperty: any list of distinct names gets distinct, valid,
// unreserved names.
func TestUniqueNamesProperty(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	pieces := []string{"get", "Get", "-", "_", "user", "User", ".", "introspect", "2", "日"}
	for i := 0; i < 500; i++ {
		seen := map[string]bool{}
		var names []string
		for j := 0; j < 1+r.Intn(20); j++ {
			var b strings.Builder
			for k := 0; k < 1+r.Intn(4); k++ {
				b.WriteString(pieces[r.Intn(len(pieces))])
			}
			if !seen[b.String()] {
				seen[b.String()] = true
				names = append(names, b.String())
			}
		}
		out := uniqueNames(names, make([]string, len(names)))
		taken := map[string]bool{}
		for k, n := range out {
			if !ValidName(n) || reserved[n] || taken[n] {
				t.Fatalf("names %q -> %q: entry %d (%q) invalid, reserved or duplicate", names, out, k, n)
			}
			taken[n] = true
		}
	}
}

// TestNamesReversible: on every fixture and corpus server, each operation
// maps back to exactly its tool, and each tool to its operation.
func TestNamesReversible(t *testing.T) {
	sets := corpus(t)
	sets["hard"] = loadFixture(t, "hard.tools.json")
	sets["todo"] = loadFixture(t, "todo.tools.json")
	for name, set := range sets {
		a := mustAdapter(t, set, nil, Single)
		for _, tool := range set.Tools {
			op := a.ForTool(tool.Name)
			if op == nil || a.Operation(op.Name) != op || op.Tool != tool {
				t.Errorf("%s: %q does not round-trip", name, tool.Name)
			}
		}
	}
	a := mustAdapter(t, loadFixture(t, "hard.tools.json"), nil, Single)
	want := map[string]string{
		"API-get-user": "api_get_user", "createUser": "create_user", "UpdateUserProfile": "update_user_profile",
		"user.delete": "user_delete", "run-report2": "run_report2", "get_user": "get_user", "getUser": "get_user_2",
		"introspect": "introspect_tool", "2fa-verify": "op_2fa_verify", "日本語ツール": "op",
	}
	for tool, op := range want {
		if got := a.ForTool(tool).Name; got != op {
			t.Errorf("%s -> %s, want %s", tool, got, op)
		}
	}
}

// TestParamNames: top-level parameters get snake_case names unless that
// would collide, and the schema's own spelling stays the real name.
func TestParamNames(t *testing.T) {
	a := mustAdapter(t, loadFixture(t, "hard.tools.json"), nil, Single)
	got := func(op string) string {
		var parts []string
		for _, p := range a.Operation(op).Params {
			parts = append(parts, fmt.Sprintf("%s=%s", p.Name, p.Real))
		}
		return strings.Join(parts, " ")
	}
	if g := got("api_get_user"); g != "user_id=userId include_profile=includeProfile fields=fields" {
		t.Errorf("api_get_user params: %s", g)
	}
	if g := got("get_user_2"); g != "ID=ID id=id" {
		t.Errorf("get_user_2 params (ID must keep its name: its snake form is taken): %s", g)
	}
	if a.Operation("api_get_user").Fields {
		t.Error("a tool with its own 'fields' parameter must not get the projection")
	}
}
