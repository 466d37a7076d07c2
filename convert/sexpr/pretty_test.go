package sexpr

import "testing"

func TestPrettyKeepsRecordPairsTogether(t *testing.T) {
	n, err := ParseOne(`(ok (:id "a1" :title "write the docs" :tags ("x" "y") :done false) ((:k 1) (:k 2)))`)
	if err != nil {
		t.Fatal(err)
	}
	got := Pretty(n, 30)
	want := `(ok
  (:id "a1"
   :title "write the docs"
   :tags ("x" "y")
   :done false)
  ((:k 1) (:k 2)))`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	back, err := ParseOne(got)
	if err != nil || !Equal(back, n) {
		t.Fatalf("pretty output does not read back: %v", err)
	}
	// Data lists line their items up under the first.
	n, _ = ParseOne(`(("aaaaaaaaaa" "bbbbbbbbbb") ("cccccccccc" "dddddddddd"))`)
	if got, want := Pretty(n, 30), "((\"aaaaaaaaaa\" \"bbbbbbbbbb\")\n (\"cccccccccc\" \"dddddddddd\"))"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestPrettyParameterLayout(t *testing.T) {
	// A parameter keeps its type on its line; its doc and :key value pairs
	// follow, each pair together; sibling parameters line up.
	n, _ := ParseOne(`(path (string :minLength 1) "Absolute path of the file" :default "/etc/hosts")`)
	if got, want := Pretty(n, 40), "(path (string :minLength 1)\n  \"Absolute path of the file\"\n  :default \"/etc/hosts\")"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	n, _ = ParseOne(`(opt (enc :utf8|:base64) (off (opt number)))`)
	if got, want := Pretty(n, 30), "(opt\n  (enc :utf8|:base64)\n  (off (opt number)))"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
