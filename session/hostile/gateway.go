package hostile

import "io"

// serveGateway runs the gateway/… scenarios.
func serveGateway(scenario string, in io.Reader, out, errOut io.Writer) error {
	switch scenario {
	}
	return unknown(scenario)
}
