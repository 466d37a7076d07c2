#!/usr/bin/env bash
# measure.sh BINARY — the workbench's resident memory in the three cases of
# issue 14: the demo server with its counts shown, an 85-tool saved list
# (the corpus's lists twice over, the second copy renamed) and the demo
# after 1,000 calls. It runs the real binary in a detached tmux session
# with a private HOME and state directory, waits on the screen (the
# header's token figures) and on the history file (one line a call), and
# prints VmRSS and VmHWM from /proc. Figures only: nothing is asserted.
set -euo pipefail
bin=$(realpath "${1:?usage: measure.sh BINARY}")
here=$(cd "$(dirname "$0")" && pwd)
corpus=${CORPUS:-$here/../../../shared/corpus}
work=$(mktemp -d)
sess=wbmem$$
trap 'tmux kill-session -t "$sess" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/state"

# wait_for CMD...: runs CMD every 0.1 s until it succeeds, 60 s at most.
wait_for() {
	for _ in $(seq 600); do "$@" && return 0; sleep 0.1; done
	echo "measure.sh: timed out waiting for: $*" >&2; exit 1
}
counts_shown() { tmux capture-pane -p -t "$sess" | sed -n 2p | grep -q 'JSON [0-9]'; }
# mem prints the figures once the screen is there and again a second later,
# when the start-up's garbage has been collected and given back.
status() { awk '/VmRSS|VmHWM|RssAnon|RssFile/ {printf "%s %.1f  ", $1, $2/1024}' "/proc/$pid/status"; }
mem() { status; printf '| 1 s later: '; sleep 1; status; echo; }
start() {
	tmux new -d -s "$sess" -x 160 -y 48 "env HOME=$work/home XDG_STATE_HOME=$work/state ${MEASURE_ENV:-} $bin $*"
	pid=$(tmux list-panes -t "$sess" -F '#{pane_pid}')
	wait_for counts_shown
}
stop() { tmux kill-session -t "$sess"; }

start
printf 'demo, counts shown:   '; mem
stop

python3 - "$corpus" "$work/85.json" <<'PY'
import glob, json, sys
tools = []
for f in sorted(glob.glob(sys.argv[1] + "/*.tools.json")):
    tools += json.load(open(f))["tools"]
more = [dict(t, name="b_" + t["name"]) for t in tools]
out = (tools + more)[:85]
assert len(out) == 85, len(out)
json.dump({"tools": out}, open(sys.argv[2], "w"))
PY
start --tools "$work/85.json"
printf '85 tools, counts:     '; mem
stop

# 1,000 calls: a batch of 50 list_todos run 20 times from the composer,
# each run waited for by the history file's line count.
hist=$work/state/mcpterm/history.jsonl
at_least() { [ -f "$hist" ] && [ "$(wc -l <"$hist")" -ge "$1" ]; }
start
tmux send-keys -t "$sess" 2
batch="(batch"; for i in $(seq 50); do batch+=" ($i (lt))"; done; batch+=")"
tmux send-keys -t "$sess" -l "$batch"
for run in $(seq 20); do
	tmux send-keys -t "$sess" C-g
	wait_for at_least $((run * 50))
done
printf 'demo, 1,000 calls:    '; mem
stop
