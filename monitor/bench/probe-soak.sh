#!/usr/bin/env bash
# The probe into the monitor for a fixed time (issue 18's soak): `isowatch broker` on a free port,
# `isowatch monitor` with window W, `isowatch probe` against a PostgreSQL database, and every
# INTERVAL seconds one line of the monitor's state read from its Prometheus endpoint and the JVM:
# transactions checked (and the rate since the last line), violations published, the stream
# thread consumer's lag (records_lag_max of the repartition and events partitions, the largest
# over the last sample window), the window's size, the heap in use after a forced full GC
# (`jcmd GC.run`, every second line), the monitor's RSS and CPU seconds; after the probe ends, lines
# go on while the monitor still checks (at most 10). Then the probe's summary, and everything it
# started is stopped.
#
# Usage: probe-soak.sh JDBC_URL USER DURATION WINDOW [OUT_DIR] [INTERVAL]
#   e.g. probe-soak.sh jdbc:postgresql://127.0.0.1:5432/test postgres 10m 1000000 /tmp/soak 30
# Environment: ISOWATCH_DB_PASSWORD (the probe's), PROBE_ARGS (extra probe options, default
# "--isolation repeatable-read --scenario write-skew"), MONITOR_ARGS (extra monitor options,
# default "--level serializable"), METRICS_PORT (default 9464).
set -euo pipefail

jdbc=${1:?JDBC_URL}; user=${2:?USER}; duration=${3:?DURATION}; window=${4:?WINDOW}
out=${5:-/tmp/probe-soak}; interval=${6:-30}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
iw="$root/isowatch"
port_metrics=${METRICS_PORT:-9464}
mkdir -p "$out"
pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap stop EXIT

"$iw" broker --port 0 > "$out/broker.log" 2>&1 &
pids+=($!)
until grep -qs listening "$out/broker.log"; do
  kill -0 "${pids[0]}" 2>/dev/null || { cat "$out/broker.log" >&2; exit 2; }
  sleep 0.5
done
bootstrap=$(grep -o 'listening on [^ ]*' "$out/broker.log" | awk '{print $3}')

# shellcheck disable=SC2086 # the options hold several words on purpose
"$iw" monitor --bootstrap-servers "$bootstrap" --create-topics --window-transactions "$window" \
  --metrics-port "$port_metrics" --state-dir "$out/state" ${MONITOR_ARGS:---level serializable} \
  > "$out/monitor.log" 2>&1 &
pids+=($!)
until curl -sf "localhost:$port_metrics/metrics" > /dev/null; do
  kill -0 "${pids[1]}" 2>/dev/null || { cat "$out/monitor.log" >&2; exit 2; }
  sleep 0.5
done
mon=$(pgrep -f "isowatch.jar monitor --bootstrap-servers $bootstrap")

# shellcheck disable=SC2086
"$iw" probe --jdbc-url "$jdbc" --user "$user" --duration "$duration" --bootstrap-servers "$bootstrap" \
  ${PROBE_ARGS:---isolation repeatable-read --scenario write-skew} > "$out/probe.log" 2>&1 &
probe=$!
pids+=($probe)

set +e  # a metric not there yet is not an error
metric() { echo "$1" | awk -v n="$2" '$1 == n || index($1, n "{") == 1 { s += $2 } END { print s + 0 }'; }
echo "| time | checked | rate (txn/s) | violations | lag max | window | heap after full GC (MiB) | RSS (MiB) | CPU (s) | load |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
i=0; last=0; lastt=$(date +%s)
while :; do
  m=$(curl -s "localhost:$port_metrics/metrics" || true)
  now=$(date +%s)
  checked=$(metric "$m" isowatch_transactions_checked_total | cut -d. -f1)
  viol=$(metric "$m" isowatch_violations_total | cut -d. -f1)
  lag=$(echo "$m" | grep '^kafka_consumer_fetch_manager_records_lag_max{' | grep StreamThread | awk '{print $2}' | sort -g | tail -1)
  win=$(metric "$m" isowatch_window_transactions | cut -d. -f1)
  heap="-"
  if (( i % 2 == 0 )); then
    jcmd "$mon" GC.run > /dev/null 2>&1 || true
    heap=$(jcmd "$mon" GC.heap_info 2>/dev/null | grep -o 'used [0-9]*K' | head -1 | awk '{printf "%d", $2 / 1024}')
  fi
  rss=$(awk '/VmRSS/ {printf "%d", $2 / 1024}' "/proc/$mon/status" 2>/dev/null || echo -)
  cpu=$(ps -o times= -p "$mon" | tr -d ' ')
  rate=$(( (checked - last) / (now - lastt > 0 ? now - lastt : 1) ))
  echo "| $(date -u +%H:%M:%S) | $checked | $rate | $viol | ${lag:-0} | $win | $heap | $rss | $cpu | $(cut -d' ' -f1 /proc/loadavg) |"
  last=$checked; lastt=$now; i=$((i + 1))
  if ! kill -0 "$probe" 2>/dev/null; then
    # the probe is done: go on while the monitor still catches up, at most 10 more lines
    drained=${drained:-0}; drained=$((drained + 1))
    (( rate == 0 || drained > 10 )) && break
  fi
  sleep "$interval"
done
wait "$probe" || true
echo
tail -2 "$out/probe.log"
