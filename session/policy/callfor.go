package policy

import (
	"strings"

	"github.com/mcpterm/mcpterm/convert/calls"
)

// CallFor is the policy's view of a call of tool, read from the codec of
// the server's tool list: the tool's annotations (unknown when the list
// lacks it), its CRUDE category as the AQL classification and the
// --aql-map overrides give it, and every other name that reaches it
// through this codec: the short code its MCP-Term calls may use and its
// AQL operation name. Every face checks and marks tools through it, so a
// tool the map calls a delete is destructive everywhere, and a pattern
// denies a tool by whichever of its names it matches. A nil codec knows no
// tool.
func CallFor(codec *calls.Codec, tool string) Call {
	if codec == nil || codec.Set() == nil {
		return CallOf(tool, nil, "")
	}
	c := CallOf(tool, codec.Set().Find(tool), Category(strings.ToLower(codec.Category(tool))))
	if !c.Known {
		return c
	}
	if code := codec.Code(tool); code != tool {
		c.Names = append(c.Names, code)
	}
	if a, err := codec.Adapter(); err == nil {
		if op := a.ForTool(tool); op != nil && op.Name != tool {
			c.Names = append(c.Names, op.Name)
		}
	}
	return c
}
