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
	if got, want := Pretty(n, 20), "((\"aaaaaaaaaa\" \"bbbbbbbbbb\")\n (\"cccccccccc\" \"dddddddddd\"))"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
