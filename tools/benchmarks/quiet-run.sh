#!/usr/bin/env bash
# Runs a benchmark command when the machine is quiet, and says how much CPU other processes took
# while it ran: on a 2-core machine shared with builds, a median can be off by 2-3x otherwise.
#
# usage: tools/benchmarks/quiet-run.sh COMMAND [ARGS...]
# env:   QUIET_IDLE  idle percentage to wait for over 2 s (default 95)
#        QUIET_MAX   most seconds to wait (default 300; then it runs anyway and says so)
#        QUIET_TRIES runs while others took more than 0.1 core (default 3; the last one is kept)
set -uo pipefail
want=${QUIET_IDLE:-95} max=${QUIET_MAX:-300} tries=${QUIET_TRIES:-3}
jiffies() { read -r _ u n s i w x y z _ < /proc/stat; echo "$((u+n+s+x+y+z)) $((u+n+s+i+w+x+y+z))"; }
wait_quiet() {
    local start=$SECONDS b1 t1 b2 t2
    while :; do
        read -r b1 t1 <<<"$(jiffies)"; sleep 2; read -r b2 t2 <<<"$(jiffies)"
        local idle=$(( 100 - 100 * (b2 - b1) / (t2 - t1) ))
        [ "$idle" -ge "$want" ] && return 0
        if [ $((SECONDS - start)) -ge "$max" ]; then echo "# not quiet after ${max} s (idle ${idle}%)" >&2; return 1; fi
    done
}
hz=$(getconf CLK_TCK)
for try in $(seq 1 "$tries"); do
    wait_quiet
    c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)  # this shell + its reaped children
    read -r b1 _ <<<"$(jiffies)"
    s1=$(date +%s.%N)
    out=$("$@"); rc=$?
    s2=$(date +%s.%N)
    read -r b2 _ <<<"$(jiffies)"
    c2=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
    ours=$((c2 - c1))  # CPU of the command, all its threads, in jiffies
    others=$(awk -v b=$((b2 - b1)) -v o="$ours" -v e="$(echo "$s2 - $s1" | bc)" -v hz="$hz" \
        'BEGIN { v = (b - o) / hz / e; if (v < 0) v = 0; printf "%.2f", v }')
    if awk -v v="$others" 'BEGIN { exit !(v <= 0.10) }' || [ "$try" = "$tries" ]; then break; fi
    echo "# others took ${others} cores during the run: again" >&2
done
echo "$out"
echo "# others took ${others} cores during the run (try ${try})"
exit $rc
