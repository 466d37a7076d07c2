package main

import (
	"os"

	"github.com/charmbracelet/x/term"
)

// stdoutTerminal reports whether stdout is a terminal and, if so, its width
// (0 when it cannot be read). Output meant for a person may be fitted to a
// terminal; anything else (a pipe, a file, a test's buffer) gets it whole.
func (c *cli) stdoutTerminal() (width int, ok bool) {
	if c.terminal != nil {
		return c.terminal()
	}
	f, isFile := c.stdout.(*os.File)
	if !isFile || !term.IsTerminal(f.Fd()) {
		return 0, false
	}
	w, _, err := term.GetSize(f.Fd())
	if err != nil {
		w = 0
	}
	return w, true
}
