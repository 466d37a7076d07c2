package hostile

import "io"

// serveEnv runs the env/… scenarios.
func serveEnv(scenario string, in io.Reader, out, errOut io.Writer) error {
	switch scenario {
	}
	return unknown(scenario)
}
