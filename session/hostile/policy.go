package hostile

import "io"

// servePolicy runs the policy/… scenarios.
func servePolicy(scenario string, in io.Reader, out, errOut io.Writer) error {
	switch scenario {
	}
	return unknown(scenario)
}
