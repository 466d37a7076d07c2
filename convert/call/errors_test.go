package call

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/nearest"
)

// Every error kind, with the exact place it points at and what it says.
func TestErrors(t *testing.T) {
	r := NewResolver(fixtures(t))
	tests := []struct {
		src  string
		kind ErrorKind
		pos  string
		says []string
	}{
		// unknown tool, with near misses among names and codes
		{`(fil_read "/x")`, ErrUnknownTool, "1:2", []string{"unknown tool fil_read", "did you mean file_read?"}},
		{`(FILE-READ "/x")`, ErrUnknownTool, "1:2", []string{"did you mean file_read?"}},
		{`(frr "/x")`, ErrUnknownTool, "1:2", []string{"did you mean fr?"}},
		{`(zzzzzz)`, ErrUnknownTool, "1:2", []string{"unknown tool zzzzzz"}},
		{`{"name": "file_reed"}`, ErrUnknownTool, "1:10", []string{"did you mean file_read?"}},
		// unknown parameter
		{`(fr "/x" :encc :utf8)`, ErrUnknownParam, "1:10", []string{"unknown parameter :encc", "did you mean :enc?", "one of :path :enc :off :lim"}},
		{`(li "o" "r" :state :open :sortt :name)`, ErrUnknownParam, "1:26", []string{"unknown parameter :sortt", "did you mean :sort?"}},
		{`(li "o" "r" :state :open :zzz 1)`, ErrUnknownParam, "1:26", []string{"unknown parameter :zzz"}},
		{`(nu "d" ((delete 1 :lenn 2)))`, ErrUnknownParam, "1:20", []string{"unknown parameter :lenn", "did you mean :len?"}},
		// missing required: at the closing parenthesis, named with its type
		{`(fr)`, ErrMissing, "1:4", []string{"missing required parameter path", "expected (path string)"}},
		{`(fr :enc :utf8)`, ErrMissing, "1:15", []string{"missing required parameter path"}},
		{`(dpq "q")`, ErrMissing, "1:9", []string{"missing required parameters srcs, out", "(srcs (list Source)) (out (rec"}},
		{"(nu \"d\"\n  (insert 0))", ErrMissing, "2:12", []string{"missing required parameter blocks", "(blocks (list Block))"}},
		// wrong type, with the expected type in MCP-Term notation
		{`(fr 12)`, ErrType, "1:5", []string{"wrong type: found number 12", "expected string"}},
		{`(fr /etc/hosts)`, ErrType, "1:5", []string{"unexpected symbol /etc/hosts", `strings are quoted: "/etc/hosts"`}},
		{`(fr "/x" :off 1.5)`, ErrType, "1:15", []string{"not an integer: found number 1.5", "expected (opt integer)"}},
		{`(fr "/x" :off "3")`, ErrType, "1:15", []string{`found string "3"`, "expected (opt integer)"}},
		{`(ms :tags (:a "x"))`, ErrType, "1:15", []string{"expected (list string)"}},
		{`(ms :mode nil)`, ErrType, "1:11", []string{"found nil", "expected (or bool number string)"}},
		{`(li :owner :me :repo "r")`, ErrType, "1:12", []string{`keyword :me where a string goes`, `write "me"`}},
		{`(ms :entity "x")`, ErrType, "1:13", []string{`found string "x"`, "expected (rec (id string) (opt (size integer)))"}},
		// duplicate argument / key / batch id
		{`(fr "/x" :path "/y")`, ErrDuplicate, "1:10", []string{"duplicate argument :path (already given at 1:5)"}},
		{`(fr "/x" :lim 1 :lim 2)`, ErrDuplicate, "1:17", []string{"duplicate argument :lim (already given at 1:10)"}},
		{`(ms :tags (:a ("x") :a ()))`, ErrDuplicate, "1:21", []string{"duplicate key :a (first given at 1:12)"}},
		{`(batch (1 (fr "/a")) (1 (fr "/b")))`, ErrDuplicate, "1:23", []string{"duplicate batch id 1 (first used at 1:9)"}},
		{`[{"name":"fr","id":"a"},{"name":"fr","id":"a"}]`, ErrDuplicate, "1:25", []string{"duplicate batch id a"}},
		// too many positional arguments
		{`(fr "/x" :utf8 1 2 3)`, ErrTooMany, "1:20", []string{"too many positional arguments", "at most 4: (path string) (enc :utf8|:base64)"}},
		{`(ms :point (1 2 3))`, ErrTooMany, "1:17", []string{"too many elements: at most 2"}},
		// enum and const values, listing the allowed ones
		{`(fr "/x" :utf16)`, ErrEnum, "1:10", []string{"value not allowed: found keyword :utf16", "expected :utf8|:base64"}},
		{`(fr "/x" :enc "UTF8")`, ErrEnum, "1:15", []string{`found string "UTF8"`, "did you mean :utf8?"}},
		{`(li "o" "r" :sort :reactions-+2)`, ErrEnum, "1:19", []string{"did you mean :reactions-+1", ":created|:updated|", "|:title|:number"}},
		{`(ms :version 3)`, ErrEnum, "1:14", []string{"found number 3", "expected 2"}},
		{`(nu "d" (insrt 0 ()))`, ErrEnum, "1:10", []string{"unknown variant: found symbol insrt", "did you mean insert?", "(or (insert ...) (delete ...) (retain ...))"}},
		{`(ms :flags (:a :d))`, ErrEnum, "1:16", []string{"found keyword :d", "expected :a|:b|:c"}},
		// shape
		{`(fr :enc :utf8 "/x")`, ErrShape, "1:16", []string{"positional argument after named arguments", "expected :name value"}},
		{`(fr "/x" :lim)`, ErrShape, "1:10", []string{"no value after :lim", "expected (opt integer)"}},
		{`(fr "/a") (fr "/b")`, ErrShape, "1:11", []string{"more than one call", "(batch (1 CALL) (2 CALL) ...)"}},
		{`(batch)`, ErrShape, "1:7", []string{"empty batch"}},
		{`(batch (1 "x"))`, ErrShape, "1:8", []string{"where a batch entry goes", "(ID CALL)"}},
		{`(batch ("a" (fr "/x")))`, ErrShape, "1:9", []string{`found string "a" where the id goes`}},
		{`(batch :concurency 2 (1 (fr "/a")))`, ErrShape, "1:8", []string{"unknown batch option :concurency", "did you mean :concurrency?"}},
		{`(batch (1 (fr "/a")) :stop-on-error)`, ErrShape, "1:22", []string{"batch options go before the calls"}},
		{`(batch (1 (batch (2 (fr "/a")))))`, ErrShape, "1:12", []string{"batches do not nest"}},
		{``, ErrShape, "1:1", []string{"no call given"}},
		{`("json" "x")`, ErrUnknownTool, "1:2", []string{"unknown tool json"}},
		{`(ms :meta (json "{"))`, ErrSyntax, "1:17", []string{"invalid JSON in (json ...)"}},
		// syntax, from the reader and the JSON decoder
		{`(fr "/a"`, ErrSyntax, "1:9", []string{"expected ')' to close the list opened at 1:1"}},
		{`(fr "\q")`, ErrSyntax, "1:6", []string{`unknown escape \q`}},
		{"{\"name\": \"fr\",\n \"arguments\": {\"path\": }}", ErrSyntax, "2:23", []string{"invalid JSON"}},
		// limits
		{`(fr "/x" :off 1e400000)`, ErrLimit, "1:15", []string{"number exponent beyond ±1000"}},
		{`(fr "/x" :off ` + strings.Repeat("9", 1001) + `)`, ErrLimit, "1:15", []string{"number literal longer than 1000"}},
		{`(batch :concurrency 1000 (1 (fr "/a")))`, ErrLimit, "1:21", []string{"concurrency 1000 out of range", "0 to 64"}},
		// JSON Schema validation, at the offending argument
		{`(nu "d" ((delete 0 -1)))`, ErrSchema, "1:20", []string{"invalid argument /ops/0/len: minimum: got -1, want 0"}},
		{`(li "o" "r" :page 0)`, ErrSchema, "1:19", []string{"invalid argument /page"}},
		{`(dpq "q" () (:csv))`, ErrSchema, "1:10", []string{"invalid argument /srcs: minItems: got 0, want 1"}},
		{`(dpq "q" ((sql :pg "h" "db" "")) (:csv))`, ErrSchema, "1:29", []string{"invalid argument /srcs/0/q: minLength"}},
		{`(dpq "q" ((api "u" :headers ("bad key" "v"))) (:csv))`, ErrSchema, "1:40", []string{"/srcs/0/headers/bad key", "invalid propertyName 'bad key'"}},
		{`(ms :entity ("Bad"))`, ErrSchema, "1:14", []string{"/entity/id", "does not match pattern"}},
		{`(ms :entity ("ok" :size 3))`, ErrSchema, "1:25", []string{"/entity/size", "multipleOf"}},
		{`(li "o" "r" "extra" 1)`, ErrEnum, "1:13", []string{`found string "extra"`}},
		{"{\"name\":\"file_read\",\n \"arguments\": {\"path\": \"x\", \"lim\": 0}}", ErrSchema, "2:36", []string{"invalid argument /lim: minimum: got 0, want 1"}},
		{`{"name":"fr","arguments":{"path":1}}`, ErrSchema, "1:34", []string{"got number, want string", "expected string"}},
		{`{"name":"li","arguments":{"owner":"o","repo":"r","extra":1}}`, ErrSchema, "1:58", []string{"additional properties 'extra' not allowed"}},
	}
	for _, tt := range tests {
		_, err := r.Parse(tt.src)
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%s: want a %s error, got %v", tt.src, tt.kind, err)
			continue
		}
		if ce.Kind != tt.kind || ce.Pos.String() != tt.pos {
			t.Errorf("%s: got %s at %s, want %s at %s: %v", tt.src, ce.Kind, ce.Pos, tt.kind, tt.pos, err)
		}
		for _, s := range tt.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: error %q does not say %q", tt.src, err, s)
			}
		}
		if !strings.HasPrefix(err.Error(), tt.pos+": ") {
			t.Errorf("%s: error %q does not start with its position", tt.src, err)
		}
	}
}

// The offset in a position is the byte offset: columns count characters.
func TestErrorPositionsCountCharacters(t *testing.T) {
	r := NewResolver(fixtures(t))
	_, err := r.Parse(`(fr "漢字" :lim x)`)
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("got %v", err)
	}
	if ce.Pos.Line != 1 || ce.Pos.Col != 15 || ce.Pos.Offset != 18 {
		t.Errorf("position %+v, want line 1, column 15, offset 18", ce.Pos)
	}
}

func TestSuggest(t *testing.T) {
	cands := []string{"read_file", "read_text_file", "write_file", "rf", "list_directory"}
	for _, tt := range []struct {
		word string
		want string
	}{
		{"read-file", "read_file"},
		{"READ_FILE", "read_file"},
		{"reed_file", "read_file"},
		{"rd", "rf"},
		{"list_directry", "list_directory"},
		{"completely_different", ""},
	} {
		got := suggest(tt.word, cands)
		if (tt.want == "") != (len(got) == 0) || len(got) > 0 && got[0] != tt.want {
			t.Errorf("suggest(%q) = %v, want %q first", tt.word, got, tt.want)
		}
	}
	if d := nearest.Distance("kitten", "sitting", 10); d != 3 {
		t.Errorf("nearest.Distance(kitten, sitting) = %d, want 3", d)
	}
	if d := nearest.Distance("abc", "abcdefgh", 2); d != 3 {
		t.Errorf("levenshtein with bound 2 = %d, want 3 (past the bound)", d)
	}
}

// Each call of a batch knows where it starts, JSON or not.
func TestCallPositions(t *testing.T) {
	r := NewResolver(fixtures(t))
	_, err := r.Parse("[{\"name\":\"fr\",\"arguments\":{\"path\":\"/a\"}},\n {\"name\":\"fr\",\"arguments\":null}]")
	if err == nil {
		t.Fatalf("a call without its required path validated")
	}
	if !strings.HasPrefix(err.Error(), "2:2: ") {
		t.Errorf("error at %v, want the second call at 2:2", err)
	}
	b, err := r.Parse("[{\"name\":\"fr\",\"arguments\":{\"path\":\"/a\"}},\n {\"name\":\"bp\",\"arguments\":{\"root\":\"/\"}}]")
	if err != nil || b.Calls[0].Pos.String() != "1:2" || b.Calls[1].Pos.String() != "2:2" {
		t.Errorf("JSON call positions: %v %v", b, err)
	}
	b, err = r.Parse("(batch\n  (1 (fr \"/a\"))\n  (2 (bp \"/\")))")
	if err != nil || b.Calls[0].Pos.String() != "2:6" || b.Calls[1].Pos.String() != "3:6" {
		t.Errorf("batch call positions: %v %v", b, err)
	}
}

// Comments may precede JSON input too, and positions still count from the
// real start of the text.
func TestJSONAfterComments(t *testing.T) {
	r := NewResolver(fixtures(t))
	b, err := r.Parse("; a call\n;; as JSON\n{\"name\":\"fr\",\"arguments\":{\"path\":\"/x\"}}")
	if err != nil || b.Calls[0].Arguments.Compact() != `{"path":"/x"}` {
		t.Fatalf("%v %v", b, err)
	}
	_, err = r.Parse("; a call\n{\"name\":\"fr\",\"arguments\":{\"path\":1}}")
	if err == nil || !strings.HasPrefix(err.Error(), "2:34: ") {
		t.Errorf("error position after a comment: %v", err)
	}
}
