package term

import (
	"os"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

func TestDevPrint(t *testing.T) {
	f := os.Getenv("TERM_DEV")
	if f == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(f)
	set, err := toolset.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Render(set, Options{Lean: os.Getenv("LEAN") != ""})
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString(doc.Text)
	t.Logf("%+v %+v", doc.LeftOut, doc.Dropped)
}
