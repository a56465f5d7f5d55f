#!/usr/bin/env bash
# Usage: simulate_sigint.sh CLI WORLD DIR [simulate options...]
# Starts a long `CLI simulate WORLD`, sends it SIGINT once its first "step" progress line is on
# stderr, and passes when it exits with code 130, says so, and has written no DIR/sigint.orbis.
set -u
# Job control: a background job of a script that has it off starts with SIGINT ignored, and
# orbis-cli (like any well-behaved program) leaves an ignored SIGINT ignored.
set -m
cli=$1 world=$2 dir=$3
shift 3
out=$dir/sigint.orbis
err=$dir/sigint.err
mkdir -p "$dir"
rm -f "$out" "$err"
"$cli" simulate "$world" --steps 100000 -o "$out" "$@" 2>"$err" >/dev/null &
pid=$!
# Waits on the state (the first progress line), not on a time.
until grep -q '^step [0-9]*/100000' "$err" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "simulate ended before reporting a step:"
        cat "$err"
        exit 1
    fi
    sleep 0.05
done
kill -INT "$pid"
wait "$pid"
code=$?
cat "$err"
if [[ $code -ne 130 ]]; then
    echo "exit code $code, expected 130"
    exit 1
fi
if ! grep -q "interrupted after [0-9]* of 100000 steps; .*sigint.orbis not written" "$err"; then
    echo "no message about the interruption"
    exit 1
fi
if [[ -e $out ]] || compgen -G "$dir/sigint.orbis*" >/dev/null; then
    echo "$out (or a temporary file of it) exists"
    exit 1
fi
echo "interrupted cleanly"
