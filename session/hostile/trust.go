package hostile

import "io"

// serveTrust runs the trust/… scenarios.
func serveTrust(scenario string, in io.Reader, out, errOut io.Writer) error {
	switch scenario {
	}
	return unknown(scenario)
}
