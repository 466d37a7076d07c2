package session

// serveExtraMode serves the stdio modes that need packages other helpers own
// (the demo server); false when mode is not one of them.
func serveExtraMode(mode string) bool { return false }
