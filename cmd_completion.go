package main

import (
	"flag"
	"fmt"
	"strings"
)

// completionFlags builds completion's flag set (none of its own).
func (c *cli) completionFlags() *flag.FlagSet {
	return newFlagSet("completion",
		"usage: mcpterm completion bash|zsh|fish",
		"",
		"Prints a completion script for the shell, made from the same command and flag tables",
		"the commands parse with: subcommands, their flags, the values of flags that take a fixed",
		"set (--output, --format, --to, ...), files for FILE flags, the names --server takes",
		"(from mcpterm servers --names), and after -- a command. Install it with:",
		"  bash: source <(mcpterm completion bash)          (or save it in ~/.local/share/bash-completion/completions/mcpterm)",
		"  zsh:  mcpterm completion zsh > \"${fpath[1]}/_mcpterm\"   (then restart zsh)",
		"  fish: mcpterm completion fish > ~/.config/fish/completions/mcpterm.fish")
}

// runCompletion prints the script for one shell.
func (c *cli) runCompletion(args []string) int {
	fs := c.completionFlags()
	pos, cmdline, code, ok := c.parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) != 1 || len(cmdline) > 0 {
		fmt.Fprintln(c.stderr, "mcpterm completion: name one shell: bash, zsh or fish")
		return exitUsage
	}
	model := c.completionModel()
	var script string
	switch pos[0] {
	case "bash":
		script = bashCompletion(model)
	case "zsh":
		script = zshCompletion(model)
	case "fish":
		script = fishCompletion(model)
	default:
		fmt.Fprintf(c.stderr, "mcpterm completion: %s: want bash, zsh or fish\n", quoteArg(pos[0]))
		return exitUsage
	}
	fmt.Fprint(c.stdout, script)
	return exitOK
}

// complFlag is one flag as completion knows it.
type complFlag struct {
	name   string   // without dashes
	value  bool     // reads the next argument
	values []string // the fixed set it takes, if any
	file   bool     // a file name
	server bool     // a configured server's name
	usage  string   // one line
}

// spelled is the flag as completion offers it: -x for one letter, --name
// otherwise (Go's flag package takes both spellings).
func (f complFlag) spelled() string {
	if len(f.name) == 1 {
		return "-" + f.name
	}
	return "--" + f.name
}

// complCmd is a subcommand (or, with name "", the workbench) as completion
// knows it.
type complCmd struct {
	name, short string
	flags       []complFlag
	args        string // subcommand.args
	selection   bool
}

// complModel is everything the scripts are made from.
type complModel struct {
	commands  []complCmd // the subcommands, in the usage's order
	workbench complCmd   // mcpterm's own flags (the workbench's)
}

// completionModel reads the subcommand table and each command's flag
// set, the workbench's too.
func (c *cli) completionModel() complModel {
	var m complModel
	for _, sc := range subcommands() {
		cmd := complCmd{name: sc.name, short: sc.short, args: sc.args, selection: sc.selection}
		sc.flags(c).VisitAll(func(f *flag.Flag) { cmd.flags = append(cmd.flags, flagOf(f)) })
		m.commands = append(m.commands, cmd)
	}
	m.workbench = complCmd{short: "the workbench", selection: true, flags: c.workbenchFlags()}
	m.workbench.flags = append(m.workbench.flags,
		complFlag{name: "help", usage: "show the usage"}, complFlag{name: "version", usage: "print the version"})
	return m
}

// flagOf describes a flag of a flag set.
func flagOf(f *flag.Flag) complFlag {
	argName, usage := flag.UnquoteUsage(f)
	cf := complFlag{name: f.Name, value: takesValue(f), values: enumValues(f), usage: oneLine(usage)}
	cf.file = cf.value && argName == "FILE"
	cf.server = f.Name == "server"
	return cf
}

// workbenchFlags are the workbench's flags (cmd_tui.go's flag set).
func (c *cli) workbenchFlags() []complFlag {
	fs, _, _ := c.tuiFlags()
	var out []complFlag
	fs.VisitAll(func(f *flag.Flag) { out = append(out, flagOf(f)) })
	return out
}

// oneLine keeps a usage text to one line for a shell's menu.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}

// commandNames are the subcommands' names.
func (m complModel) commandNames() []string {
	var out []string
	for _, c := range m.commands {
		out = append(out, c.name)
	}
	return out
}

// argValues are the fixed words a command's positional argument takes.
func (m complModel) argValues(cmd complCmd) []string {
	switch cmd.args {
	case "shell":
		return []string{"bash", "zsh", "fish"}
	case "command":
		return m.commandNames()
	case "verb": // mcpterm tasks
		return []string{"list", "get", "cancel", "result"}
	}
	return nil
}
