package live

import "github.com/mcpterm/mcpterm/ui"

// NewCodec is the composer's call codec.
func NewCodec() ui.Codec { return ui.JSONCodec{} }
