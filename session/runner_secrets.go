package session

import (
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/safe"
)

// maxRecordSource bounds the source (or batch) kept in a history entry.
const maxRecordSource = 4096

// redactor is the run's redactor: RunnerOptions.Redactor, else the
// History's; nil when there is neither.
func (r *Runner) redactor() *safe.Redactor {
	if r.opts.Redactor != nil {
		return r.opts.Redactor
	}
	if r.opts.History != nil {
		return r.opts.History.Redactor()
	}
	return nil
}

// learnPlan teaches the redactor the values of every secret-named argument
// of p before anything runs or is recorded: a batch's history entries all
// carry the batch's source, which holds the passwords of calls not sent yet.
func (r *Runner) learnPlan(p *calls.Plan) {
	red := r.redactor()
	if red == nil {
		return
	}
	for i := range p.Items {
		red.AddArgsValue(p.Items[i].Arguments)
	}
	if h := r.opts.History; h != nil && h.Redactor() != red {
		for i := range p.Items {
			h.Redactor().AddArgsValue(p.Items[i].Arguments)
		}
	}
}

// clipSource bounds the source kept in a history entry, redacting it
// before the cut so a secret across the bound leaves no clear start.
func (r *Runner) clipSource(s string) string {
	s, _ = r.redactor().Cut(s, maxRecordSource)
	return s
}
