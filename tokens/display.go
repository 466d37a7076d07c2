package tokens

// DisplayName is what a view calls the server: the name it gave, else
// where its list came from, so every format (text, csv, the charts) names
// a server the same way. It is untrusted text: sanitise it for the output.
func (s *ServerReport) DisplayName() string {
	if s.Server != "" {
		return s.Server
	}
	if s.Source != "" {
		return s.Source
	}
	return "(unnamed server)"
}
