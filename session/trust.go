package session

import (
	"path/filepath"

	"github.com/mcpterm/mcpterm/session/config"
	"github.com/mcpterm/mcpterm/session/history"
)

// TrustNote is what resolving a --server selection had to say about
// project configs (config.Choose): an untrusted entry set aside for the
// user's own, a file newly trusted, a trust store that cannot be used. The
// command line prints Notices; the workbench asks about SetAside.
type TrustNote struct {
	SetAside *config.Question
	Notices  []string
}

// TrustStore is the trust store in env's state directory
// ($XDG_STATE_HOME/mcpterm/trust.json, as history finds it); nil when
// neither XDG_STATE_HOME nor a home directory is known, which remembers
// nothing.
func TrustStore(env Env) *config.TrustStore {
	env = env.WithDefaults()
	dir, err := history.StateDir(env.Getenv, env.Home)
	if err != nil {
		return nil
	}
	return config.NewTrustStore(filepath.Join(dir, config.TrustFileName), nil)
}

// AnswerTrust remembers the user's answer to a trust question about the
// file as it was shown (the hash of the bytes read then): a face that asks
// calls it, then resolves the selection again, so a file changed while the
// question was open is asked about again rather than trusted unseen.
func AnswerTrust(env Env, q *config.Question, trusted bool) error {
	return TrustStore(env).Record(q.File, trusted)
}

// chooseServer is the config lookup of a --server selection under the
// trust rule, every face's: see config.Choose.
func chooseServer(set *config.Set, sel Selection, env Env, note *TrustNote) (config.Server, error) {
	ch, err := set.Choose(sel.Server, config.Trust{Store: TrustStore(env), TrustProject: sel.TrustProject})
	if err != nil {
		return config.Server{}, err
	}
	if note != nil {
		note.SetAside, note.Notices = ch.SetAside, ch.Notices
	}
	return ch.Server, nil
}
