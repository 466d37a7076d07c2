package main

import "strings"

// yesFlag is --yes: bare, every destructive tool is confirmed (as it always
// was); --yes=PATTERN (repeatable, comma-separated) confirms only the
// destructive tools matching a pattern, matched as --allow matches. It is a
// boolean flag to the flag package, so bare --yes takes no value and the
// next argument stays what it was (a call's expression, another flag); a
// pattern is given only with '='. --yes=true and --yes=false are the
// boolean's own spellings.
type yesFlag struct {
	all      bool
	patterns []string
}

func (y *yesFlag) IsBoolFlag() bool { return true }

func (y *yesFlag) String() string {
	if y == nil {
		return ""
	}
	if y.all {
		return "true"
	}
	return strings.Join(y.patterns, ",")
}

func (y *yesFlag) Set(v string) error {
	switch v {
	case "true":
		y.all = true
	case "false":
		y.all, y.patterns = false, nil
	default:
		y.patterns = append(y.patterns, v)
	}
	return nil
}
