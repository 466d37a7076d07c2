// Package conformance runs the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in testdata/install.sh) against
// mcpterm: its client scenarios with mcpterm's command line as the client,
// and its server scenarios against `mcpterm serve` fronting the suite's own
// fixture server, in passthrough and in term mode, with the fixture alone as
// the reference. It holds tests
// only; CI installs the suite first (bash testdata/install.sh), and without
// it the tests skip, except under CI=true where they fail.
//
// MCPTERM_CONFORMANCE_BIN runs the tests against a prebuilt mcpterm instead
// of building this tree (how the before/after table of an issue is made);
// MCPTERM_CONFORMANCE_DIR is where install.sh put the suite.
package conformance
