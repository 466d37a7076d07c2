package themes

import (
	"reflect"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestParseAndResolve(t *testing.T) {
	cases := []struct {
		in       string
		noColor  bool
		darkBg   bool
		want     string
		follows  bool
		wantFail bool
	}{
		{in: "", darkBg: true, want: "dark", follows: true},
		{in: "auto", darkBg: false, want: "light", follows: true},
		{in: "Light", darkBg: true, want: "light"},
		{in: "hc", darkBg: false, want: "high-contrast"},
		{in: "dark", noColor: true, want: "mono"},
		{in: "auto", noColor: true, darkBg: true, want: "mono"},
		{in: "solarized", wantFail: true},
	}
	for _, c := range cases {
		ch, err := Parse(c.in, c.noColor)
		if c.wantFail {
			if err == nil {
				t.Errorf("Parse(%q) accepted an unknown theme", c.in)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.in, err)
		}
		if got := ch.Resolve(c.darkBg).Name; got != c.want {
			t.Errorf("Parse(%q, noColor=%v).Resolve(dark=%v) = %s, want %s", c.in, c.noColor, c.darkBg, got, c.want)
		}
		if ch.FollowsBackground() != c.follows {
			t.Errorf("Parse(%q).FollowsBackground() = %v", c.in, !c.follows)
		}
	}
}

// Every palette must define every colour: a nil colour would silently
// render as the terminal default and hide a meaning (an error looking like body text).
func TestPalettesComplete(t *testing.T) {
	for _, name := range Names()[1:] {
		p := builtin[name]()
		if p.Name != name {
			t.Errorf("palette %s reports name %s", name, p.Name)
		}
		v := reflect.ValueOf(p)
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if f.Kind() == reflect.Interface && f.IsNil() {
				t.Errorf("palette %s: %s is nil", name, v.Type().Field(i).Name)
			}
			if p.Mono && f.Kind() == reflect.Interface && !f.IsNil() {
				if _, ok := f.Interface().(lipgloss.NoColor); !ok {
					t.Errorf("mono palette has a colour in %s", v.Type().Field(i).Name)
				}
			}
		}
	}
}

func TestNamesStable(t *testing.T) {
	want := []string{"auto", "dark", "high-contrast", "light", "mono"}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
}
