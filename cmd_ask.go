package main

import (
	"flag"

	"github.com/mcpterm/mcpterm/session"
)

// askFlags say how the command line answers what a server asks its client:
// sampling (cmd_sampling.go) and elicitation (cmd_elicit.go). The answering
// itself is session's; these only choose.
type askFlags struct {
	// elicit is --elicit ask|decline|defaults|FILE.
	elicit string
	// samplingEndpoint, samplingModel and samplingKeyEnv are
	// --sampling-endpoint URL, --sampling-model M, --sampling-key-env VAR:
	// an OpenAI-compatible chat-completions endpoint that answers sampling.
	samplingEndpoint string
	samplingModel    string
	samplingKeyEnv   string
	// cmd is the command, for the notices (set by checkSampling).
	cmd string
}

func (a *askFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.elicit, "elicit", "", "answer a server's elicitation: `ask` (prompt on the terminal; the default when stdin is one), decline, defaults (accept the schema's defaults) or a JSON FILE of answers")
	fs.StringVar(&a.samplingEndpoint, "sampling-endpoint", "", "answer a server's sampling requests with the OpenAI-compatible chat-completions endpoint at `URL` (default: decline them)")
	fs.StringVar(&a.samplingModel, "sampling-model", "", "with --sampling-endpoint: the `MODEL` to ask")
	fs.StringVar(&a.samplingKeyEnv, "sampling-key-env", "", "with --sampling-endpoint: send 'Authorization: Bearer $`VAR`'")
}

// asker is the command line's answerer of a server's questions.
func (c *cli) asker(a *askFlags) session.Asker {
	return session.Pair{Sampler: c.sampler(a), Elicitor: c.elicitor(a)}
}
