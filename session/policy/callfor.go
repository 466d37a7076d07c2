package policy

import (
	"strings"

	"github.com/mcpterm/mcpterm/convert/calls"
)

// CallFor is the policy's view of a call of tool, read from the codec of
// the server's tool list: the tool's annotations (unknown when the list
// lacks it) and its CRUDE category as the AQL classification and the
// --aql-map overrides give it. Every face checks and marks tools through
// it, so a tool the map calls a delete is destructive everywhere. A nil
// codec knows no tool.
func CallFor(codec *calls.Codec, tool string) Call {
	if codec == nil || codec.Set() == nil {
		return CallOf(tool, nil, "")
	}
	return CallOf(tool, codec.Set().Find(tool), Category(strings.ToLower(codec.Category(tool))))
}
