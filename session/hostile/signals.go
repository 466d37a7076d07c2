package hostile

import "io"

// serveSignals runs the signals/… scenarios.
func serveSignals(scenario string, in io.Reader, out, errOut io.Writer) error {
	switch scenario {
	}
	return unknown(scenario)
}
