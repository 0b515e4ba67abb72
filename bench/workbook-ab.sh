#!/usr/bin/env bash
# The national SINAPI workbook's import, this tree against another commit,
# in the same run (not part of go test).
#
#   bench/workbook-ab.sh REV [generator flags]     e.g. RUNS=3 bench/workbook-ab.sh HEAD~3
#
# Builds costdb from REV (a git worktree) and from this tree, generates one
# full-size workbook with bench/sinapiworkbook (27 states by default), then
# imports it RUNS times (default 3) with each build, alternately, each into
# a fresh bbolt file, under /usr/bin/time, and prints every run and the
# medians of wall time and peak RSS of each side.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: bench/workbook-ab.sh REV [generator flags]}
shift
runs=${RUNS:-3}
dir=$(mktemp -d)
trap 'git worktree remove --force "$dir/before" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
git worktree add -q --detach "$dir/before" "$rev"
(cd "$dir/before" && go build -o "$dir/costdb-before" ./cmd/costdb)
go build -o "$dir/costdb-after" ./cmd/costdb
book="$dir/SINAPI_Referência_2026_08.xlsx"
go run ./bench/sinapiworkbook -out "$book" "$@" >/dev/null
echo "workbook: $(du -h "$book" | cut -f1); before: $rev ($(git rev-parse --short "$rev")), after: this tree"
declare -A walls rsss
for i in $(seq "$runs"); do
  for side in before after; do
    rm -f "$dir/b.db"
    /usr/bin/time -f "%e %M" "$dir/costdb-$side" import sinapi --db "$dir/b.db" "$book" >/dev/null 2>"$dir/time"
    read -r wall kb < <(tail -1 "$dir/time")
    echo "round $i $side: wall ${wall}s, peak RSS $((kb / 1024)) MB"
    walls[$side]+="$wall " rsss[$side]+="$((kb / 1024)) "
  done
done
median() { printf '%s\n' $@ | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
for side in before after; do
  echo "median of $runs, $side: wall $(median ${walls[$side]})s, peak RSS $(median ${rsss[$side]}) MB"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
