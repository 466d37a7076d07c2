#!/bin/sh
# A headless "browser" for the OAuth tests: it GETs the authorization URL
# and follows its redirects to mcpterm's loopback callback, as the
# conformance suite's own example clients do.
exec curl -sS -L --max-redirs 5 --max-time 30 -o /dev/null "$1"
