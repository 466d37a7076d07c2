package ui

import "strings"

// oneLine flattens untrusted text for a single table cell.
func oneLine(s string) string {
	if strings.ContainsAny(s, "\n") {
		s = strings.Join(strings.Fields(s), " ")
	}
	return s
}
