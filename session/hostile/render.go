package hostile

import "io"

// serveRender runs the render/… scenarios.
func serveRender(scenario string, in io.Reader, out, errOut io.Writer) error {
	switch scenario {
	}
	return unknown(scenario)
}
