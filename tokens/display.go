package tokens

// DisplayName is what a view calls the server: its config entry's name
// (`tokens --all`), else the name it gave, else where its list came from,
// so every format (text, csv, the charts) names a server the same way. It
// is untrusted text: sanitise it for the output.
func (s *ServerReport) DisplayName() string {
	if s.Entry != "" {
		return s.Entry
	}
	if s.Server != "" {
		return s.Server
	}
	if s.Source != "" {
		return s.Source
	}
	return "(unnamed server)"
}
