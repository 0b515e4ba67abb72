#!/usr/bin/env bash
# bench/migrate.sh: times `costdb migrate` of a bbolt database into an empty
# PostgreSQL database (issue 29), this tree against another commit, in
# alternating rounds, each into a fresh database of one throwaway durable
# cluster. Prints each round (wall, CPU, peak RSS) and the medians, with
# the source file's bytes per second of wall time.
#
#   RUNS=3 DB=big.db bash bench/migrate.sh [BEFORE_COMMIT]
#
# DB is the bbolt file to copy; without it one is generated with
# bench/migratedb (ARGS: its flags, e.g. "-resources 100000 -compositions
# 10000 -editions 20"). Without BEFORE_COMMIT only this tree is timed.
set -euo pipefail
runs=${RUNS:-3}
before=${1:-}
bin=$(pg_config --bindir 2>/dev/null || true)
[ -x "$bin/initdb" ] || bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "bench/migrate.sh: no PostgreSQL server binaries" >&2; exit 2; }
dir=$(mktemp -d)
chmod 755 "$dir"
as=()
if [ "$(id -u)" = 0 ]; then as=(runuser -u nobody --); fi
cleanup() {
  "${as[@]}" "$bin/pg_ctl" -D "$dir/pg" -m immediate -w stop >/dev/null 2>&1 || true
  [ -n "$before" ] && git worktree remove --force "$dir/before" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
  echo $((20000 + RANDOM % 20000)); }

go build -o "$dir/after" ./cmd/costdb
sides=(after)
if [ -n "$before" ]; then
  git worktree add --detach "$dir/before" "$before" >/dev/null 2>&1
  (cd "$dir/before" && go build -o "$dir/before.bin" ./cmd/costdb)
  sides=(before after)
fi
db=${DB:-}
if [ -z "$db" ]; then
  db="$dir/src.db"
  go run ./bench/migratedb -db "$db" ${ARGS:-}
fi
chmod 644 "$db"
size=$(stat -c %s "$db")
echo "source: $db, $size bytes"

mkdir "$dir/pg" "$dir/sock"
if [ "${#as[@]}" -gt 0 ]; then chown nobody "$dir/pg" "$dir/sock"; fi
"${as[@]}" "$bin/initdb" -D "$dir/pg" -U postgres --auth=trust -E UTF8 --locale=C >/dev/null
pgport=$(freeport)
"${as[@]}" "$bin/pg_ctl" -D "$dir/pg" -l "$dir/sock/log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -c port=$pgport -c unix_socket_directories=$dir/sock" start >/dev/null

secs() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$1"; }
median() { printf '%s\n' $1 | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
declare -A walls cpus rsss
for i in $(seq "$runs"); do
  for side in "${sides[@]}"; do
    name="${side}_$i"
    "${as[@]}" "$bin/createdb" -h "$dir/sock" -p "$pgport" -U postgres "$name"
    exe="$dir/after"
    [ "$side" = before ] && exe="$dir/before.bin"
    if ! /usr/bin/time -v "$exe" migrate --from "$db" --to "postgres://postgres@127.0.0.1:$pgport/$name?sslmode=disable" \
      >"$dir/out" 2>"$dir/time"; then
      cat "$dir/out" "$dir/time" >&2
      exit 1
    fi
    grep -q MISMATCH "$dir/out" && { cat "$dir/out"; exit 1; }
    w=$(secs "$dir/time")
    c=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$dir/time")
    r=$(awk -F': ' '/Maximum resident/ {print int($2/1024)}' "$dir/time")
    echo "round $i $side: ${w} s wall, ${c} s CPU, ${r} MB peak RSS, load $(cut -d' ' -f1 /proc/loadavg)"
    walls[$side]+="$w " cpus[$side]+="$c " rsss[$side]+="$r "
    "${as[@]}" "$bin/dropdb" -h "$dir/sock" -p "$pgport" -U postgres "$name"
  done
done
tail -n +1 "$dir/out" | sed 's/^/  /'
for side in "${sides[@]}"; do
  w=$(median "${walls[$side]}")
  echo "$side: median ${w} s wall, $(median "${cpus[$side]}") s CPU, $(median "${rsss[$side]}") MB; $(awk -v s="$size" -v w="$w" 'BEGIN {printf "%.1f", s/w/1e6}') MB/s of the source"
done
