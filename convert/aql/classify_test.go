package aql

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// corpusCategories is the expected category of every tool in the shared
// corpus. The test fails when the corpus gains a tool missing here, so each
// new real tool gets a deliberate decision.
var corpusCategories = map[string]map[string]Category{
	"server-everything": {
		"echo":                              Read, // no verb; read-only
		"get-annotated-message":             Read,
		"get-env":                           Read,
		"get-resource-links":                Read,
		"get-resource-reference":            Read,
		"get-structured-content":            Read,
		"get-sum":                           Read,
		"get-tiny-image":                    Read,
		"gzip-file-as-resource":             Create,  // no verb; additive and idempotent
		"toggle-simulated-logging":          Execute, // runtime on/off
		"toggle-subscriber-updates":         Execute,
		"trigger-long-running-operation":    Execute, // "trigger" beats its readOnlyHint
		"get-roots-list":                    Read,
		"trigger-elicitation-request":       Execute,
		"trigger-url-elicitation":           Execute,
		"trigger-sampling-request":          Execute,
		"simulate-research-query":           Execute, // "query" is a noun here; readOnlyHint=false
		"trigger-sampling-request-async":    Execute,
		"trigger-elicitation-request-async": Execute,
	},
	"server-filesystem": {
		"read_file":                 Read,
		"read_text_file":            Read,
		"read_media_file":           Read,
		"read_multiple_files":       Read,
		"write_file":                Update, // write + destructiveHint=true: may overwrite
		"edit_file":                 Update,
		"create_directory":          Create,
		"list_directory":            Read,
		"list_directory_with_sizes": Read,
		"directory_tree":            Read, // description: "Get a recursive tree view"
		"move_file":                 Update,
		"search_files":              Read,
		"get_file_info":             Read,
		"list_allowed_directories":  Read,
	},
	"server-memory": {
		"create_entities":     Create,
		"create_relations":    Create,
		"add_observations":    Create,
		"delete_entities":     Delete,
		"delete_observations": Delete,
		"delete_relations":    Delete,
		"read_graph":          Read,
		"search_nodes":        Read,
		"open_nodes":          Read, // no verb; read-only
	},
	"server-sequential-thinking": {
		"sequentialthinking": Read,
	},
}

func TestClassifyCorpus(t *testing.T) {
	sets := corpus(t)
	for _, name := range sortedKeys(sets) {
		want, ok := corpusCategories[name]
		if !ok {
			t.Errorf("corpus file %s has no expectations in corpusCategories", name)
			continue
		}
		set := sets[name]
		if len(set.Tools) != len(want) {
			t.Errorf("%s: corpus has %d tools, expectations cover %d", name, len(set.Tools), len(want))
		}
		for _, tool := range set.Tools {
			got := Classify(tool)
			w, ok := want[tool.Name]
			if !ok {
				t.Errorf("%s: tool %q has no expected category (classified %s: %s)", name, tool.Name, got.Category, got.Reason)
				continue
			}
			if got.Category != w {
				t.Errorf("%s: %s = %s (%s), want %s", name, tool.Name, got.Category, got.Reason, w)
			}
			if got.Reason == "" || got.Source == "" {
				t.Errorf("%s: %s: empty reason or source: %+v", name, tool.Name, got)
			}
			// Where the server says read-only and we say READ, or the server
			// says destructive and we say DELETE, the reason names both signals.
			if got.Category == Read && tool.Annotations.ReadOnly() && got.Source == "name" && !strings.Contains(got.Reason, "readOnlyHint=true agrees") {
				t.Errorf("%s: %s: reason %q does not mention the agreeing hint", name, tool.Name, got.Reason)
			}
		}
	}
}

// TestClassifyRules checks each documented rule on hand-made tools: every
// category, the conflicts, and the annotation-only fallbacks.
func TestClassifyRules(t *testing.T) {
	tr, fa := true, false
	ann := func(ro, de, id *bool) toolset.Annotations {
		return toolset.Annotations{ReadOnlyHint: ro, DestructiveHint: de, IdempotentHint: id}
	}
	cases := []struct {
		name, desc string
		a          toolset.Annotations
		want       Category
		source     string
		conflict   bool
	}{
		// name verbs, each category
		{"get_user", "", ann(nil, nil, nil), Read, "name", false},
		{"listUsers", "", ann(nil, nil, nil), Read, "name", false},
		{"search-docs", "", ann(&tr, nil, nil), Read, "name", false},
		{"createUser", "", ann(nil, nil, nil), Create, "name", false},
		{"upload_file", "", ann(nil, &fa, nil), Create, "name", false},
		{"UpdateProfile", "", ann(nil, nil, nil), Update, "name", false},
		{"rename.file", "", ann(nil, &tr, nil), Update, "name", false},
		{"delete_user", "", ann(nil, &tr, nil), Delete, "name", false},
		{"API-remove-item", "", ann(nil, nil, nil), Delete, "name", false},
		{"purge_cache", "", ann(nil, nil, nil), Delete, "name", false},
		{"run_job", "", ann(nil, nil, nil), Execute, "name", false},
		{"cancelTask", "", ann(nil, nil, nil), Execute, "name", false},
		{"file_read", "", ann(nil, nil, nil), Read, "name", false}, // verb need not come first
		// upsert verbs
		{"write_file", "", ann(&fa, &tr, &tr), Update, "name", false},
		{"save_note", "", ann(nil, &fa, nil), Create, "name", false},
		{"put_object", "", ann(nil, nil, nil), Create, "name", false},
		// conflicts
		{"delete_everything", "", ann(&tr, nil, nil), Delete, "name", true},    // write verb beats read-only hint
		{"trigger_build", "", ann(&tr, &fa, nil), Execute, "name", true},       // same for EXECUTE
		{"clear_cache", "", ann(&fa, &fa, nil), Delete, "name", true},          // removal stays DELETE
		{"create_or_replace", "", ann(&fa, &tr, nil), Update, "name", true},    // CREATE + destructive -> UPDATE
		{"get_or_create", "", ann(&fa, &fa, nil), Create, "name", true},        // READ + not read-only -> next verb
		{"fetch_url", "", ann(&fa, nil, nil), Execute, "name", true},           // READ + not read-only, no other verb
		{"get_and_save", "", ann(&fa, &tr, nil), Update, "name", true},         // next verb is upsert + destructive
		{"list_things", "", ann(&tr, &tr, nil), Read, "name", false},           // read-only wins over destructive for READ
		{"simulate_query", "", ann(&fa, &fa, &fa), Execute, "name", true},      // noun "query"
		{"checkout", "", ann(nil, nil, nil), Execute, "default", false},        // whole words only: no "check"
		{"reset_state", "", ann(nil, &tr, &fa), Execute, "annotations", false}, // "set" is not a word of "reset"
		{"directory_tree", "Get a tree.", ann(&tr, nil, nil), Read, "description", false},
		{"thing", "Returns the thing.", ann(nil, nil, nil), Read, "description", false},
		{"thing", "Deletes the thing.", ann(nil, nil, nil), Delete, "description", false},
		{"thing", "Queries the index.", ann(nil, nil, nil), Read, "description", false},
		{"thing", "Pushes a commit.", ann(nil, nil, nil), Execute, "default", false},
		// annotations only
		{"echo", "", ann(&tr, nil, nil), Read, "annotations", false},
		{"gzip", "", ann(&fa, &fa, &tr), Create, "annotations", false},
		{"gzip", "", ann(&fa, &fa, &fa), Execute, "annotations", false},
		{"frobnicate", "", ann(nil, &tr, &tr), Update, "annotations", false},
		{"frobnicate", "", ann(nil, &tr, nil), Execute, "annotations", false},
		{"frobnicate", "", ann(&fa, nil, nil), Execute, "annotations", false},
		{"frobnicate", "", ann(nil, nil, nil), Execute, "default", false},
	}
	for _, c := range cases {
		got := Classify(&toolset.Tool{Name: c.name, Description: c.desc, Annotations: c.a})
		if got.Category != c.want || got.Source != c.source || got.Conflict != c.conflict {
			t.Errorf("%s %q: got %s from %s (conflict %v): %s; want %s from %s (conflict %v)",
				c.name, c.desc, got.Category, got.Source, got.Conflict, got.Reason, c.want, c.source, c.conflict)
		}
	}
}

// TestClassifyNeverReadWhenServerSaysItWrites is the safety property: a
// tool the server marks as not read-only is never put on the READ endpoint,
// whatever its name says.
func TestClassifyNeverReadWhenServerSaysItWrites(t *testing.T) {
	fa := false
	for w := range verbs {
		for _, name := range []string{w, w + "_x", "x_" + w, w + "_get", "get_" + w} {
			c := Classify(&toolset.Tool{Name: name, Annotations: toolset.Annotations{ReadOnlyHint: &fa}})
			if c.Category == Read {
				t.Errorf("%s with readOnlyHint=false classified READ: %s", name, c.Reason)
			}
		}
	}
}

func TestClassifyFixtures(t *testing.T) {
	want := map[string]map[string]Category{
		"todo.tools.json": {
			"list_todos": Read, "get_todo": Read, "create_todo": Create, "update_todo": Update,
			"delete_todo": Delete, "clear_completed": Delete, // the seed calls it EXECUTE; "clear" is a DELETE verb in the spec
		},
		"hard.tools.json": {
			"API-get-user": Read, "createUser": Create, "UpdateUserProfile": Update, "user.delete": Delete,
			"run-report2": Execute, "set_config": Update, "get_user": Read, "introspect": Execute,
			"2fa-verify": Execute, "日本語ツール": Execute, "tree": Read, "getUser": Read,
			"purge_cache": Delete, "get_or_create_session": Create, "import_and_overwrite": Update,
		},
	}
	for file, cats := range want {
		set := loadFixture(t, file)
		if len(set.Tools) != len(cats) {
			t.Errorf("%s: %d tools, %d expectations", file, len(set.Tools), len(cats))
		}
		for _, tool := range set.Tools {
			if got := Classify(tool); got.Category != cats[tool.Name] {
				t.Errorf("%s: %s = %s (%s), want %s", file, tool.Name, got.Category, got.Reason, cats[tool.Name])
			}
		}
	}
}

func loadFixture(t testing.TB, name string) *toolset.Set {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	set, err := toolset.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return set
}
