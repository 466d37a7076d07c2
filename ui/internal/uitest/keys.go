// Package uitest holds what the workbench's tests and its widgets' tests
// share.
package uitest

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Key builds a key press from its String() form: "ctrl+a", "enter",
// "shift+tab", "x".
func Key(s string) tea.KeyPressMsg {
	named := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp, "down": tea.KeyDown,
		"left": tea.KeyLeft, "right": tea.KeyRight, "backspace": tea.KeyBackspace, "delete": tea.KeyDelete,
		"pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp, "home": tea.KeyHome, "end": tea.KeyEnd, "space": tea.KeySpace,
		"f1": tea.KeyF1, "f5": tea.KeyF5,
	}
	var mod tea.KeyMod
	for {
		switch {
		case strings.HasPrefix(s, "ctrl+"):
			mod |= tea.ModCtrl
			s = s[5:]
			continue
		case strings.HasPrefix(s, "shift+"):
			mod |= tea.ModShift
			s = s[6:]
			continue
		case strings.HasPrefix(s, "alt+"):
			mod |= tea.ModAlt
			s = s[4:]
			continue
		}
		break
	}
	if r, ok := named[s]; ok {
		return tea.KeyPressMsg{Code: r, Mod: mod}
	}
	r := []rune(s)[0]
	if mod != 0 {
		return tea.KeyPressMsg{Code: r, Mod: mod}
	}
	return tea.KeyPressMsg{Code: r, Text: s}
}
