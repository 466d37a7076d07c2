package session

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/elicit"
	"github.com/mcpterm/mcpterm/convert/safe"
)

// PromptElicitor asks a person, field by field, on a pair of streams: the
// command line's terminal (prompts on stderr, answers from stdin or
// /dev/tty). Everything the server wrote is sanitised before it is shown.
// Requests are asked one at a time. An empty answer keeps the default; an
// end of input cancels; a wrong answer is explained and asked again.
type PromptElicitor struct {
	out  io.Writer
	open func(ctx context.Context, url string) error

	mu    sync.Mutex // one request at a time
	lines chan promptLine
	done  chan struct{} // closed when in ends; end says how
	end   error
}

type promptLine struct{ text string }

// maxPromptLine bounds one answer line; maxPromptTries bounds how often a
// wrong answer is asked again before the form is cancelled.
const (
	maxPromptLine  = 64 << 10
	maxPromptTries = 5
	// maxPromptChoices bounds the choices listed (a server may send a
	// thousand); the rest are still accepted by value or title.
	maxPromptChoices = 40
)

// NewPromptElicitor reads answers from in and writes prompts to out. open
// opens a URL-mode request's link when the person says so (OpenURL, in the
// command line); nil only prints it.
func NewPromptElicitor(in io.Reader, out io.Writer, open func(ctx context.Context, url string) error) *PromptElicitor {
	p := &PromptElicitor{out: out, open: open, lines: make(chan promptLine), done: make(chan struct{})}
	// The reader runs for as long as in does: a read cannot be abandoned,
	// so a request whose context ends stops waiting for the line instead.
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 4096), maxPromptLine)
		for sc.Scan() {
			p.lines <- promptLine{text: strings.TrimSuffix(sc.Text(), "\r")}
		}
		p.end = sc.Err()
		if p.end == nil {
			p.end = io.EOF
		}
		close(p.done)
	}()
	return p
}

// errPromptCancel is a person's cancel (an end of input, or "c").
var errPromptCancel = errors.New("cancelled")

func (p *PromptElicitor) readLine(ctx context.Context) (string, error) {
	select {
	case l := <-p.lines:
		return l.text, nil
	case <-p.done:
		if p.end == io.EOF {
			return "", errPromptCancel
		}
		return "", fmt.Errorf("reading the answer: %w", p.end)
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

func (p *PromptElicitor) printf(format string, args ...any) {
	fmt.Fprintf(p.out, format, args...)
}

// Elicit asks the person.
func (p *PromptElicitor) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var res *mcp.ElicitationResult
	var err error
	if IsURLElicitation(req) {
		res, err = p.askURL(ctx, server, req)
	} else {
		res, err = p.askForm(ctx, server, req)
	}
	if errors.Is(err, errPromptCancel) {
		p.printf("\n(cancelled)\n")
		return ElicitAction(mcp.ElicitationResponseActionCancel), nil
	}
	return res, err
}

// choose asks a one-letter question; def is the answer to an empty line.
func (p *PromptElicitor) choose(ctx context.Context, prompt string, def byte) (byte, error) {
	for range maxPromptTries {
		p.printf("%s ", prompt)
		line, err := p.readLine(ctx)
		if err != nil {
			return 0, err
		}
		a := strings.ToLower(strings.TrimSpace(line))
		if a == "" {
			return def, nil
		}
		switch a {
		case "y", "yes", "accept":
			return 'y', nil
		case "n", "no", "decline":
			return 'n', nil
		case "c", "cancel":
			return 'c', nil
		}
		p.printf("  ! answer y (accept), n (decline) or c (cancel)\n")
	}
	return 0, errPromptCancel
}

func (p *PromptElicitor) askURL(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	u := safe.Line(req.Params.URL)
	p.printf("\n%s asks you to visit a page:\n  %s\n  %s\n", safe.Line(server), indent(safe.Text(req.Params.Message)), u)
	a, err := p.choose(ctx, "Open it in the browser and accept? [y/N/c]", 'n')
	if err != nil {
		return nil, err
	}
	switch a {
	case 'c':
		return nil, errPromptCancel
	case 'n':
		return ElicitAction(mcp.ElicitationResponseActionDecline), nil
	}
	if p.open != nil {
		if err := p.open(ctx, req.Params.URL); err != nil {
			p.printf("  could not open it (%s); open the link above yourself\n", safe.Line(err.Error()))
		}
	}
	return ElicitAction(mcp.ElicitationResponseActionAccept), nil
}

func (p *PromptElicitor) askForm(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	form, err := ElicitForm(req)
	if err != nil {
		return nil, err
	}
	p.printf("\n%s asks:\n  %s\n", safe.Line(server), indent(safe.Text(req.Params.Message)))
	for _, n := range form.Notes {
		p.printf("  (note: %s)\n", safe.Line(n))
	}
	a, err := p.choose(ctx, fmt.Sprintf("Answer its %d %s? [Y/n/c]", len(form.Fields), plural(len(form.Fields), "question", "questions")), 'y')
	if err != nil {
		return nil, err
	}
	switch a {
	case 'c':
		return nil, errPromptCancel
	case 'n':
		return ElicitAction(mcp.ElicitationResponseActionDecline), nil
	}
	p.printf("  (an empty line keeps the [default] or leaves an optional field out; * marks a required field; end of input cancels)\n")
	content := map[string]any{}
	for i := range form.Fields {
		v, ok, err := p.askField(ctx, &form.Fields[i])
		if err != nil {
			return nil, err
		}
		if ok {
			content[form.Fields[i].Name] = v
		}
	}
	if err := form.Validate(content); err != nil {
		return nil, err
	}
	return ElicitAccept(content), nil
}

// askField asks one field until the answer fits; ok is false when an
// optional field is left out.
func (p *PromptElicitor) askField(ctx context.Context, f *elicit.Field) (v any, ok bool, err error) {
	req := ""
	if f.Required {
		req = " *"
	}
	p.printf("%s%s", safe.Line(f.Label()), req)
	if f.Title != "" && f.Title != f.Name {
		p.printf(" (%s)", safe.Line(f.Name))
	}
	if f.Description != "" {
		p.printf(" — %s", safe.Line(f.Description))
	}
	p.printf("\n")
	for i, o := range f.Options {
		if i == maxPromptChoices {
			p.printf("    … %d in all: type a choice's value or title\n", len(f.Options))
			break
		}
		p.printf("    %d) %s\n", i+1, safe.Line(o.Title))
	}
	if h := hint(f); h != "" {
		p.printf("  (%s)\n", h)
	}
	for range maxPromptTries {
		if f.Default != nil {
			p.printf("  [%s] > ", safe.Line(f.Show(f.Default)))
		} else {
			p.printf("  > ")
		}
		line, err := p.readLine(ctx)
		if err != nil {
			return nil, false, err
		}
		switch {
		case strings.TrimSpace(line) == "" && f.Default != nil:
			return f.Default, true, nil
		case (strings.TrimSpace(line) == "" || strings.TrimSpace(line) == "-") && !f.Required:
			return nil, false, nil
		case strings.TrimSpace(line) == "" && f.Kind != elicit.Multi:
			p.printf("  ! required\n")
			continue
		}
		v, err := f.ParseText(line)
		if err == nil {
			return v, true, nil
		}
		p.printf("  ! %s\n", safe.Line(err.Error()))
	}
	return nil, false, errPromptCancel
}

// hint says what kind of answer a field takes.
func hint(f *elicit.Field) string {
	var h []string
	switch f.Kind {
	case elicit.Boolean:
		h = append(h, "yes or no")
	case elicit.Enum:
		h = append(h, "one choice, by number or name")
	case elicit.Multi:
		h = append(h, "choices by number or name, separated by commas")
		if f.MinItems != nil {
			h = append(h, fmt.Sprintf("at least %d", *f.MinItems))
		}
		if f.MaxItems != nil {
			h = append(h, fmt.Sprintf("at most %d", *f.MaxItems))
		}
	case elicit.Number, elicit.Integer:
		h = append(h, f.Kind.String())
		if f.Minimum != nil {
			h = append(h, fmt.Sprintf("≥ %g", *f.Minimum))
		}
		if f.Maximum != nil {
			h = append(h, fmt.Sprintf("≤ %g", *f.Maximum))
		}
	case elicit.String:
		if f.Format != "" {
			h = append(h, f.Format)
		}
		if f.MinLength != nil {
			h = append(h, fmt.Sprintf("at least %d characters", *f.MinLength))
		}
		if f.MaxLength != nil {
			h = append(h, fmt.Sprintf("at most %d characters", *f.MaxLength))
		}
		if f.Pattern != "" {
			h = append(h, "matching "+safe.Line(f.Pattern))
		}
	}
	return strings.Join(h, ", ")
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n  ") }
