#!/usr/bin/env bash
# Import benchmark of the per-state SINAPI reports, R3 of issue 11 (not part
# of go test). docs/performance.md defines the rows counted.
#
#   bench/import.sh                 # RUNS=3 by default; SHAPE=states or one
#
# Builds costdb, generates with bench/sinapistates the 100,000-row and the
# 1,000,000-row imports (CSV, the layout of Caixa's per-state insumos and
# analytic reports; 50,000 data rows per state and regime), then imports
# them alternately RUNS times each, every import into a fresh bbolt file,
# under /usr/bin/time -v, and prints every run, the medians of wall time,
# CPU time (user + system) and peak RSS, and the ratios of the 1M medians
# to the 100k ones.
#
#   SHAPE=states (default): 100k rows = 1 state, 1M rows = 10 states (AC to
#     MA), both regimes, in ONE import: costdb import sinapi --state all
#     --month 10/2024 DIR (each file's state told by its name).
#   SHAPE=one: one state of 100k rows and one state of 1M rows (10 times the
#     insumos and compositions), costdb import sinapi --state AC ... FILE...
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
shape=${SHAPE:-states}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/costdb" ./cmd/costdb
case "$shape" in
states)
  go run ./bench/sinapistates -out "$dir/100k" -states 1
  go run ./bench/sinapistates -out "$dir/1M" -states 10
  args() { echo --state all --month 10/2024 "$dir/$1"; }
  ;;
one)
  go run ./bench/sinapistates -out "$dir/100k" -states 1
  go run ./bench/sinapistates -out "$dir/1M" -states 1 -insumos 50000 -compositions 75000
  args() { echo --state AC --month 10/2024 "$dir/$1"/*.csv; }
  ;;
*)
  echo "SHAPE is states or one" >&2
  exit 2
  ;;
esac
echo "files: 100k $(du -sh "$dir/100k" | cut -f1), 1M $(du -sh "$dir/1M" | cut -f1); shape $shape"
declare -A walls cpus rsss
for i in $(seq "$runs"); do
  for size in 100k 1M; do
    rm -f "$dir/b.db"
    # shellcheck disable=SC2046
    if ! /usr/bin/time -v "$dir/costdb" import sinapi --db "$dir/b.db" $(args "$size") >"$dir/out" 2>"$dir/time"; then
      cat "$dir/out" "$dir/time" >&2
      exit 1
    fi
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$dir/time")
    cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$dir/time")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$dir/time")
    echo "run $i $size: wall ${wall}s, cpu ${cpu}s, peak RSS ${rss} MB, database $(du -m "$dir/b.db" | cut -f1) MB; $(grep -c . "$dir/out") summary lines, $(grep -m1 -i 'took' "$dir/out")"
    walls[$size]+="$wall " cpus[$size]+="$cpu " rsss[$size]+="$rss "
  done
done
median() { printf '%s\n' $1 | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
for size in 100k 1M; do
  echo "median of $runs, $size rows: wall $(median "${walls[$size]}")s, cpu $(median "${cpus[$size]}")s, peak RSS $(median "${rsss[$size]}") MB"
done
awk -v w1="$(median "${walls[100k]}")" -v w2="$(median "${walls[1M]}")" -v c1="$(median "${cpus[100k]}")" -v c2="$(median "${cpus[1M]}")" \
  'BEGIN {printf "1M / 100k: wall %.2f, cpu %.2f (target: at most 11)\n", w2/w1, c2/c1}'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
