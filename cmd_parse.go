package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// newFlagSet is a subcommand's flag set. Its Usage prints the command's
// usage lines and then its flags to fs.Output(), so the same text goes to
// stdout for --help and to stderr after a mistake (parseFlags).
func newFlagSet(name string, usage ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		w := fs.Output()
		for _, l := range usage {
			fmt.Fprintln(w, l)
		}
		if hasFlags(fs) {
			fmt.Fprintln(w, "\nflags:")
			var defaults bytes.Buffer
			fs.SetOutput(&defaults)
			fs.PrintDefaults()
			fs.SetOutput(w)
			io.WriteString(w, longFlagRE.ReplaceAllString(defaults.String(), "$1--$2"))
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parseFlags parses a subcommand's arguments (flags and positional
// arguments in any order, the server command after --). --help, -h and
// -help print the usage on stdout and end the command with exit 0; a bad
// flag is said on stderr with a pointer to --help, exit 2. ok is false when
// the command should end with code.
func (c *cli) parseFlags(fs *flag.FlagSet, args []string) (pos, cmdline []string, code int, ok bool) {
	usage := fs.Usage
	var msg bytes.Buffer
	fs.Usage = func() {}
	fs.SetOutput(&msg)
	pos, cmdline, err := parseInterleaved(fs, args)
	fs.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(c.stdout)
		usage()
		fs.SetOutput(c.stderr)
		return nil, nil, exitOK, false
	case err != nil:
		fs.SetOutput(c.stderr)
		who := "mcpterm " + fs.Name()
		if fs.Name() == "mcpterm" { // the workbench's own flags
			who = "mcpterm"
		}
		fmt.Fprintf(c.stderr, "%s: %s\n", who, flagMessage(strings.TrimSpace(msg.String())))
		fmt.Fprintf(c.stderr, "%s: run '%s --help' for its flags\n", who, who)
		return nil, nil, exitUsage, false
	}
	fs.SetOutput(c.stderr)
	return pos, cmdline, exitOK, true
}

// parseSelection is parseFlags for a subcommand that takes the server
// selection: the command line after -- becomes the stdio server's.
func (c *cli) parseSelection(fs *flag.FlagSet, sf *serverFlags, args []string) (pos []string, code int, ok bool) {
	pos, cmdline, code, ok := c.parseFlags(fs, args)
	if ok {
		sf.Command = cmdline
	}
	return pos, code, ok
}

// longFlagRE finds the long flags' names in flag.PrintDefaults' output,
// which spells them with one dash.
var longFlagRE = regexp.MustCompile(`(?m)^(  )-([A-Za-z0-9][-A-Za-z0-9_]+)`)

var flagNameRE = regexp.MustCompile(`(^|flag |defined: |argument: )-([A-Za-z0-9][-A-Za-z0-9_]+)`)

// flagMessage writes the flag package's message with the long flags
// spelled as the help spells them (--output, not -output).
func flagMessage(msg string) string {
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return flagNameRE.ReplaceAllString(msg, "$1--$2")
}

// enumFlag is a string flag with a known set of values. Set takes any
// value (the command checks it, with its own message); the list is what
// the flag's help says and what shell completion offers, so neither can
// promise a value the command refuses.
type enumFlag struct {
	value  *string
	values []string
}

func (e *enumFlag) String() string {
	if e == nil || e.value == nil {
		return ""
	}
	return *e.value
}

func (e *enumFlag) Set(s string) error { *e.value = s; return nil }

// enum defines an enumFlag on fs; usage is followed by the values, which
// also name the flag's argument unless usage names it (`FORM`).
func enum(fs *flag.FlagSet, p *string, name, def string, values []string, usage string) {
	*p = def
	list := strings.Join(values, ", ")
	if !strings.Contains(usage, "`") {
		list = "`" + strings.Join(values, "|") + "`"
	}
	fs.Var(&enumFlag{value: p, values: values}, name, usage+": "+list)
}

// enumValues are the values a flag takes, if it is an enumFlag.
func enumValues(f *flag.Flag) []string {
	if e, ok := f.Value.(*enumFlag); ok {
		return e.values
	}
	return nil
}

// takesValue reports a flag that reads the next argument (not a boolean).
func takesValue(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// flagArgs are the flags before -- (the server command's own flags are
// not mcpterm's).
func flagArgs(args []string) []string {
	for i, a := range args {
		if a == "--" {
			return args[:i]
		}
	}
	return args
}

// flagValueIn reports whether one of the named flags is given value in args
// (as --name value, --name=value, with one dash or two). It is read before
// the flags are parsed, to know how to report a mistake in them.
func flagValueIn(args []string, value string, names ...string) bool {
	args = flagArgs(args)
	for i, a := range args {
		for _, n := range names {
			for _, spelled := range []string{"-" + n, "--" + n} {
				if a == spelled+"="+value || (a == spelled && i+1 < len(args) && args[i+1] == value) {
					return true
				}
			}
		}
	}
	return false
}

// helpAsked reports -h, -help or --help among the flags.
func helpAsked(args []string) bool {
	for _, a := range flagArgs(args) {
		switch a {
		case "-h", "-help", "--help", "--h":
			return true
		}
	}
	return false
}
