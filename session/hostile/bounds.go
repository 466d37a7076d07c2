package hostile

import "io"

// serveBounds runs the bounds/… scenarios.
func serveBounds(scenario string, in io.Reader, out, errOut io.Writer) error {
	switch scenario {
	}
	return unknown(scenario)
}
