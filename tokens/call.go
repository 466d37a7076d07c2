package tokens

import "github.com/mcpterm/mcpterm/convert/calls"

// CallCost is what writing a call costs a model: the text as it stands,
// and the same calls written as JSON tools/call params — {"name",
// "arguments"} per call, a list for a batch, minified (calls.ModelJSON) —
// the form a model writes when it is handed JSON Schema. Every face that
// shows a call's cost shows these two figures.
type CallCost struct {
	Written int
	JSON    int // -1 when the text does not read as calls (no plan)
}

// CountCall counts src and, when it was read, p's JSON form.
func CountCall(c *Counter, src string, p *calls.Plan) (CallCost, error) {
	cost := CallCost{JSON: -1}
	var err error
	if cost.Written, err = c.Count(src); err != nil {
		return cost, err
	}
	if p != nil {
		if cost.JSON, err = c.Count(calls.ModelJSON(p)); err != nil {
			return cost, err
		}
	}
	return cost, nil
}
