package call

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// "Did you mean" in every position a name is written: the first argument of
// a call (read positionally until it turns out to be a misspelt keyword),
// later ones, fields of nested records and variants, variant tags, and enum
// values of a union of enums. Transposed letters (paht, lne, cdoe) are the
// commonest slip and the one Levenshtein distance alone missed in names
// under six letters.
func TestDidYouMeanEveryPosition(t *testing.T) {
	r := NewResolver(fixtures(t))
	u := NewResolver(unionEnums(t))
	tests := []struct {
		r    *Resolver
		src  string
		kind ErrorKind
		pos  string
		says string
	}{
		{r, `(fr :paht "/etc/hosts")`, ErrUnknownParam, "1:5", "unknown parameter :paht (did you mean :path?)"},
		{r, `(fr :pth "/etc/hosts")`, ErrUnknownParam, "1:5", "(did you mean :path?)"},
		{r, `(fr :ecn :utf8 "/x")`, ErrUnknownParam, "1:5", "(did you mean :enc?)"},
		{r, `(fr "/x" :paht "/y")`, ErrUnknownParam, "1:10", "(did you mean :path?)"},
		{r, `(fr "/x" :ecn :utf8)`, ErrUnknownParam, "1:10", "(did you mean :enc?)"},
		{r, `(fr "/x" :utf8 :fof 1)`, ErrUnknownParam, "1:16", "(did you mean :off?)"},
		{r, `(fr "/x" :enc :utf8 :lmi 1)`, ErrUnknownParam, "1:21", "(did you mean :lim?)"},
		{r, `(fr "/x" :enc :uft8)`, ErrEnum, "1:15", "(did you mean :utf8?)"},
		// nested records and variants, first field and later ones
		{r, `(nu "d" ((delete 1 :lne 2)))`, ErrUnknownParam, "1:20", "unknown parameter :lne (did you mean :len?)"},
		{r, `(nu "d" ((delete :ops 1 :len 2)))`, ErrUnknownParam, "1:18", "(did you mean :pos?)"},
		{r, `(dpq "q" ((sql :pg "h" "db" "select 1")) (:fromat :csv))`, ErrUnknownParam, "1:43", "(did you mean :format?)"},
		{r, `(dpq "q" ((sql :pg "h" "db" "select 1")) (:csv :limit 1 :levle1 ()))`, ErrUnknownParam, "1:57", "(did you mean :level1?)"},
		{r, `(ms :entity ("id" :szie 2))`, ErrUnknownParam, "1:19", "(did you mean :size?)"},
		// variant tags
		{r, `(nu "d" ((insrt 0 ())))`, ErrEnum, "1:11", "unknown variant: found symbol insrt (did you mean insert?)"},
		{r, `(nu "d" ((insert 0 ((cdoe "x")))))`, ErrEnum, "1:22", "(did you mean code?)"},
		{r, `(dpq "q" ((slq :pg "h" "db" "select 1")) (:csv))`, ErrEnum, "1:12", "(did you mean sql?)"},
		// a union of enums: each member rejects the word where it stands
		{u, `(pick :opne)`, ErrType, "1:7", "(did you mean :open?)"},
		{u, `(pick "atuo")`, ErrType, "1:7", "(did you mean :auto?)"},
	}
	for _, tt := range tests {
		_, err := tt.r.Read(tt.src)
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%s: want a %s error, got %v", tt.src, tt.kind, err)
			continue
		}
		if ce.Kind != tt.kind || ce.Pos.String() != tt.pos || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s:\n got  %s at %s: %v\n want %s at %s saying %q", tt.src, ce.Kind, ce.Pos, err, tt.kind, tt.pos, tt.says)
		}
	}
}

// A word nothing is close to gets no suggestion, and a swap is offered only
// after the names within the edit limit.
func TestSuggestSwaps(t *testing.T) {
	for _, tt := range []struct {
		word  string
		cands []string
		want  []string
	}{
		{"paht", []string{"path", "enc"}, []string{"path"}},
		{"lne", []string{"pos", "len"}, []string{"len"}},
		{"pth", []string{"path", "pat"}, []string{"path"}},
		{"tpae", []string{"tape", "type"}, []string{"tape"}},
		{"enc", []string{"ecn", "end"}, []string{"end", "ecn"}},
		{"ab", []string{"ba"}, []string{"ba"}},
		{"a", []string{"b"}, []string{"b"}},
		{"zzzz", []string{"path"}, nil},
		{"path", []string{"path"}, nil},
		{"B\xaf", []string{"bp", "fr"}, []string{"bp"}}, // folding makes the invalid byte three
		{"\xffa", []string{"a\xff"}, nil},
	} {
		got := suggest(tt.word, tt.cands)
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("suggest(%q, %q) = %q, want %q", tt.word, tt.cands, got, tt.want)
		}
	}
}

// unionEnums is one tool whose only parameter is a union of two enums and a
// number, so no member's own error can carry the suggestion.
func unionEnums(t testing.TB) *toolset.Set {
	t.Helper()
	set, err := toolset.Parse([]byte(`{"tools": [{"name": "pick", "inputSchema": {"type": "object",
		"properties": {"mode": {"anyOf": [{"enum": ["open", "closed"]}, {"const": "auto"}, {"type": "number"}]}},
		"required": ["mode"]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return set
}
