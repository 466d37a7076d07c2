#!/bin/sh
# The conformance suite's client command: it appends the scenario server's
# URL and names the scenario in MCP_CONFORMANCE_SCENARIO; this runs the
# mcpterm command a user would for what the scenario's server offers.
# MCPTERM is the mcpterm binary under test.
set -eu
url="$1"
case "$MCP_CONFORMANCE_SCENARIO" in
initialize)
  exec "$MCPTERM" tools --url "$url" ;;
tools_call)
  exec "$MCPTERM" call --yes --url "$url" '(add_numbers :a 2 :b 3)' ;;
sse-retry)
  exec "$MCPTERM" call --yes --url "$url" '(test_reconnection)' ;;
elicitation-sep1034-client-defaults)
  exec "$MCPTERM" call --yes --elicit defaults --url "$url" '(test_client_elicitation_defaults)' ;;
*)
  echo "client.sh: no mcpterm command for scenario $MCP_CONFORMANCE_SCENARIO" >&2
  exit 2 ;;
esac
