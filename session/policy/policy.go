// Package policy holds the safety rules for agents that drive `mcpterm call`
// (and the gateway) in a loop, as seed 003's CLI dispatch loop does for
// shell commands: an allow-list, a deny-list, a read-only mode, explicit
// confirmation for destructive tools, an audit log, and capped output.
//
// The API:
//
//   - New(Rules{Allow, Deny, ReadOnly, Yes, YesFor}) (*Policy, error): patterns are
//     globs on tool names: * any run, ? one character, [abc] [a-z] [!x]
//     classes, \ escapes; an entry may list several patterns separated by
//     commas. They ignore letter case.
//   - (*Policy).Check(Call) Decision: Allow, Deny or Confirm (destructive,
//     needs --yes), always with a reason a person or an agent can act on.
//   - IsDestructive(Call): the rule the check uses, for badges in the UI.
//   - OpenAudit(path, redactor) / (*Audit).Record(AuditRecord): JSON lines.
//   - Cap(text, n): bound printed output, saying how much was cut.
//
// Patterns match a tool by its identity, not by the text that reached it:
// the caller resolves whatever was typed (a name in any case, a short code,
// an AQL operation name) to the tool first, and the check matches the
// patterns against every name of that tool (Call.Names, filled by CallFor):
// its real name, its short code, its AQL operation name. A --deny pattern
// also matches the tool's spelling variants, its name in snake_case
// (Variant: "Delete-File", "deleteFile" and "delete_file\u200b" are all
// "delete_file"), and a --deny pattern without wildcards refuses every
// name with its own variant, so denying a name denies every tool a model
// could mistake for it; --allow matches only names that really reach the
// tool.
//
// The order of the checks: a --deny match refuses (deny wins over allow);
// with an allow-list, a tool matching none of it is refused; --read-only
// refuses every tool not annotated readOnlyHint: true, and any tool the
// caller classified as a delete; a destructive tool needs --yes, or a
// --yes PATTERN matching it as --allow would (so approving one tool never
// approves another), or else the person's confirmation, which the face
// asks for (Verdict Confirm).
// Destructive is aql.Destructive, the one rule of every face: annotated
// destructiveHint: true, or not read-only with no destructiveHint (the MCP
// default), or classified as a delete (AQL's DELETE category, by name or
// --aql-map) whatever its readOnlyHint says. Annotations are untrusted
// hints, so hints from the caller can only make a call stricter, never
// looser, and a name never makes a tool read-only; a tool the server does
// not list has no annotations at all.
package policy

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Rules are the user's settings, as given on the command line.
type Rules struct {
	Allow    []string // --allow patterns; none means every tool
	Deny     []string // --deny patterns; they win over Allow
	ReadOnly bool     // --read-only
	Yes      bool     // --yes: every destructive tool confirmed
	// YesFor are --yes PATTERN entries: destructive tools matching one are
	// confirmed, matched as Allow is (every name that reaches the tool, any
	// case, comma-separated lists); the rest still need confirming.
	YesFor []string
}

// Category is a caller's classification of a tool, such as AQL's CRUDE
// categories; only Delete changes a decision.
type Category string

const (
	Create  Category = "create"
	Read    Category = "read"
	Update  Category = "update"
	Delete  Category = "delete"
	Execute Category = "execute"
)

// Call is what a decision is about.
type Call struct {
	Tool string // the real tool name
	// Names are the other names that reach the tool (its short code, its
	// AQL operation name), which the patterns match too. CallFor fills
	// them from the codec the calls are read with.
	Names []string
	// Known is set when the server lists the tool, so Annotations are what
	// it declared; an unlisted tool has none.
	Known       bool
	Annotations toolset.Annotations
	Category    Category
}

// CallOf describes a listed tool; t may be nil for a tool the server does
// not list.
func CallOf(name string, t *toolset.Tool, c Category) Call {
	if t == nil {
		return Call{Tool: name, Category: c}
	}
	return Call{Tool: name, Known: true, Annotations: t.Annotations, Category: c}
}

// Verdict is the outcome of a check.
type Verdict string

const (
	Allow   Verdict = "allow"
	Deny    Verdict = "deny"
	Confirm Verdict = "confirm" // destructive and not confirmed: run again with --yes
)

// Decision is a verdict with the reason for it.
type Decision struct {
	Verdict     Verdict
	Reason      string // one sentence, naming the tool and the rule
	Rule        string // the deciding rule: `--deny "delete_*"`, "--read-only", "destructive", ...
	Destructive bool
}

// Allowed reports whether the call may run.
func (d Decision) Allowed() bool { return d.Verdict == Allow }

// Policy is a validated set of rules; it is immutable and safe for
// concurrent use.
type Policy struct {
	allow, deny []pattern
	yesFor      []pattern
	readOnly    bool
	yes         bool
}

// New validates the rules' patterns.
func New(r Rules) (*Policy, error) {
	p := &Policy{readOnly: r.ReadOnly, yes: r.Yes}
	var err error
	if p.allow, err = compileAll(r.Allow, "--allow"); err != nil {
		return nil, err
	}
	if p.deny, err = compileAll(r.Deny, "--deny"); err != nil {
		return nil, err
	}
	if p.yesFor, err = compileAll(r.YesFor, "--yes"); err != nil {
		return nil, err
	}
	return p, nil
}

func compileAll(entries []string, flag string) ([]pattern, error) {
	var out []pattern
	for _, e := range entries {
		for _, s := range strings.Split(e, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			pt, err := compile(s)
			if err != nil {
				return nil, fmt.Errorf("policy: %s %q: %w", flag, s, err)
			}
			out = append(out, pt)
		}
	}
	return out, nil
}

// Check decides whether a call may run.
func (p *Policy) Check(c Call) Decision {
	name := quote(c.Tool)
	for _, pt := range p.deny {
		if as, ok := pt.denies(c); ok {
			rule := "--deny " + quote(pt.src)
			who := name
			if as != c.Tool {
				who = fmt.Sprintf("%s (as %s)", name, quote(as))
			}
			return Decision{Verdict: Deny, Rule: rule, Reason: fmt.Sprintf("tool %s is refused by %s", who, rule),
				Destructive: IsDestructive(c)}
		}
	}
	if len(p.allow) > 0 {
		matched := false
		for _, pt := range p.allow {
			if _, ok := pt.matchAny(c.names()); ok {
				matched = true
				break
			}
		}
		if !matched {
			var list []string
			for _, pt := range p.allow {
				list = append(list, quote(pt.src))
			}
			return Decision{Verdict: Deny, Rule: "--allow", Destructive: IsDestructive(c),
				Reason: fmt.Sprintf("tool %s is not allowed: it matches none of --allow %s", name, strings.Join(list, ", "))}
		}
	}
	destructive, why := destructiveWhy(c)
	if p.readOnly && (!c.Annotations.ReadOnly() || destructive) {
		reason := fmt.Sprintf("tool %s is not annotated readOnlyHint: true, and --read-only runs nothing else", name)
		switch {
		case destructive && c.Annotations.ReadOnly():
			reason = fmt.Sprintf("tool %s is %s, and --read-only refuses it", name, why)
		case !c.Known:
			reason = fmt.Sprintf("tool %s is not in the server's tool list, so nothing says it is read-only, and --read-only runs only tools annotated readOnlyHint: true", name)
		}
		return Decision{Verdict: Deny, Rule: "--read-only", Reason: reason, Destructive: destructive}
	}
	if destructive && !p.yes {
		for _, pt := range p.yesFor {
			if as, ok := pt.matchAny(c.names()); ok {
				rule := "--yes " + quote(pt.src)
				who := name
				if as != c.Tool {
					who = fmt.Sprintf("%s (as %s)", name, quote(as))
				}
				return Decision{Verdict: Allow, Rule: rule, Destructive: true,
					Reason: fmt.Sprintf("tool %s is destructive (%s) and confirmed by %s", who, why, rule)}
			}
		}
		return Decision{Verdict: Confirm, Rule: "destructive", Destructive: true,
			Reason: fmt.Sprintf("tool %s is destructive (%s); pass --yes to run it", name, why)}
	}
	if destructive {
		return Decision{Verdict: Allow, Rule: "--yes", Destructive: true,
			Reason: fmt.Sprintf("tool %s is destructive (%s) and confirmed by --yes", name, why)}
	}
	return Decision{Verdict: Allow, Rule: "non-destructive", Reason: fmt.Sprintf("tool %s is allowed (%s)", name, why)}
}

// Denies reports whether the deny list refuses the tool c is about,
// whatever else the rules say: the tools a refusal or a "did you mean"
// must never name, and that the gateway leaves out of what it lists.
func (p *Policy) Denies(c Call) bool {
	if p == nil {
		return false
	}
	for _, pt := range p.deny {
		if _, ok := pt.denies(c); ok {
			return true
		}
	}
	return false
}

// denies reports whether a --deny pattern refuses the tool of c, and by
// which name: any name that reaches it, or its Variant; a pattern with no
// wildcards also refuses every tool whose Variant is the pattern's, so
// --deny DeleteFile refuses delete_file as --deny delete_file refuses
// DeleteFile.
func (pt pattern) denies(c Call) (string, bool) {
	names := c.names()
	if as, ok := pt.matchAny(append(names, Variant(c.Tool))); ok {
		return as, true
	}
	if pt.literal {
		if v := Variant(pt.text); v != "" {
			for _, n := range names {
				if Variant(n) == v {
					return n, true
				}
			}
		}
	}
	return "", false
}

// names are every name that reaches the tool, its real name first.
func (c Call) names() []string {
	out := make([]string, 0, 1+len(c.Names))
	out = append(out, c.Tool)
	for _, n := range c.Names {
		if n != "" && n != c.Tool {
			out = append(out, n)
		}
	}
	return out
}

// Variant is the spelling a name shares with its variants, which a
// --deny pattern matches too: its words in snake_case, as AQL names
// operations (aql.Words), so case, '-', '.', camelCase and invisible or
// non-ASCII characters between words make no difference. A name with no
// ASCII words has no variant form ("").
func Variant(name string) string { return strings.Join(aql.Words(name), "_") }

// IsDestructive applies the destructive rule of the package comment.
func IsDestructive(c Call) bool {
	d, _ := destructiveWhy(c)
	return d
}

func destructiveWhy(c Call) (bool, string) {
	cat := aql.Category(strings.ToUpper(string(c.Category)))
	if !c.Known && cat != aql.Delete {
		return true, "not in the server's tool list, so MCP's default applies: not read-only means destructive"
	}
	return aql.Destructive(c.Annotations, cat)
}

// quote shows a name from a server (or a pattern) on one line, quoted,
// with any terminal control sequences neutralised and invisible characters
// (zero-width, bidi controls) written as escapes, so "delete_file\u200b"
// cannot pass for delete_file in a refusal.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range safe.Line(s) {
		if r == ' ' || unicode.IsGraphic(r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Cap bounds output an agent will read to n bytes (marker included; n <= 0
// means no bound), cutting on a UTF-8 boundary and ending with
// "…(cut N bytes)". It returns how many bytes of text were left out.
func Cap(text string, n int) (string, int) { return safe.Cut(text, n) }
