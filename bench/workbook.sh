#!/usr/bin/env bash
# Import benchmark of the national SINAPI workbook (not part of go test).
#
#   bench/workbook.sh [generator flags]     e.g. RUNS=7 bench/workbook.sh -items 5
#
# Builds costdb, generates a full-size workbook with bench/sinapiworkbook
# (default: 27 states, 5,000 insumos, 9,000 compositions, 10 items each =
# 99,000 Analítico rows), then imports it RUNS times (default 5), each into a
# fresh bbolt file, under /usr/bin/time -v, and prints every run and the
# medians of wall time, CPU time (user + system) and peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
book="$dir/SINAPI_Referência_2026_08.xlsx"
go build -o "$dir/costdb" ./cmd/costdb
go run ./bench/sinapiworkbook -out "$book" "$@"
echo "workbook: $(du -h "$book" | cut -f1)"
walls=() cpus=() rsss=()
for i in $(seq "$runs"); do
  rm -f "$dir/b.db"
  /usr/bin/time -v "$dir/costdb" import sinapi --db "$dir/b.db" "$book" >"$dir/out" 2>"$dir/time"
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$dir/time")
  cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$dir/time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$dir/time")
  echo "run $i: wall ${wall}s, cpu ${cpu}s, peak RSS ${rss} MB, database $(du -m "$dir/b.db" | cut -f1) MB"
  walls+=("$wall") cpus+=("$cpu") rsss+=("$rss")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
tail -1 "$dir/out"
echo "median of $runs: wall $(median "${walls[@]}")s, cpu $(median "${cpus[@]}")s, peak RSS $(median "${rsss[@]}") MB"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
