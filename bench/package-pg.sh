#!/usr/bin/env bash
# Import of a national SINAPI package on PostgreSQL while a server answers
# reads (issue 25's benchmark; not part of go test).
#
#   bash bench/package-pg.sh [generator flags]     e.g. RUNS=5 bash bench/package-pg.sh -items 5
#   CHANGELOG=SINAPI_Manutenções_2025_12.xlsx bash bench/package-pg.sh   (Caixa's whole change log)
#
# Needs PostgreSQL's server binaries (pg_config --bindir, or the Debian layout
# /usr/lib/postgresql/*/bin), ab (Debian: apache2-utils), curl and jq. It:
#  1. builds costdb, generates the national workbook with bench/sinapiworkbook
#     (27 states, both regimes, 99,000 Analítico rows by default) and zips it
#     as Caixa publishes it (SINAPI-2026-08-formato-xlsx.zip) with companions
#     named as Caixa's: the change log (manutenções, the real cut) and an
#     encargos sociais table per state, imported with the editions; famílias
#     and mão de obra, and a PDF, which the import lists as skipped;
#  2. starts a throwaway durable PostgreSQL cluster (initdb refuses root: as
#     root it runs as the user nobody), on 127.0.0.1 and a free port;
#  3. each round (RUNS, default 3): a fresh database, `costdb serve --demo` on
#     it, the demo user's token, then ab (16 clients, keep-alive) reading one
#     bank item for READ_BEFORE seconds (default 10), then ab again for as
#     long as `costdb import sinapi --db postgres://… PACKAGE.zip` runs under
#     /usr/bin/time -v (the command connects to the database directly, as
#     every command does on PostgreSQL; docs/operations.md);
#  4. prints per round the import's wall time, CPU and peak RSS, the server's
#     peak RSS (VmHWM), the reads answered by status before and during the
#     import with their p50/p99, and the load average; then the medians.
# Exit status 1 when a read was answered other than 2xx.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
before=${READ_BEFORE:-10}
clients=${CLIENTS:-16}
for c in ab curl jq; do
  command -v "$c" >/dev/null || { echo "bench/package-pg.sh: $c is needed" >&2; exit 2; }
done
bin=$(pg_config --bindir 2>/dev/null || true)
[ -x "$bin/initdb" ] || bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "bench/package-pg.sh: no PostgreSQL server binaries" >&2; exit 2; }

dir=$(mktemp -d)
chmod 755 "$dir"
as=()
if [ "$(id -u)" = 0 ]; then as=(runuser -u nobody --); fi
srv=""
cleanup() {
  [ -n "$srv" ] && kill "$srv" 2>/dev/null || true
  "${as[@]}" "$bin/pg_ctl" -D "$dir/pg" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
  echo $((20000 + RANDOM % 20000)); }

# 1. costdb and the package.
go build -o "$dir/costdb" ./cmd/costdb
mkdir "$dir/pkg"
go run ./bench/sinapiworkbook -out "$dir/pkg/SINAPI_Referência_2026_08.xlsx" "$@"
# The change log and the encargos tables are imported with the editions:
# the real cut of Caixa's 12/2025 change log (adapters/bankfiles/testdata)
# and one table per state in the layout of Caixa's PDFs (bench/sinapicharges).
# CHANGELOG=path/to/SINAPI_Manutenções_2025_12.xlsx puts the whole published
# log (28,884 rows) in the package instead of the cut kept in the project.
cp "${CHANGELOG:-adapters/bankfiles/testdata/sinapi-manutencoes-202512/SINAPI_Manutenções_2025_12_cut.xlsx}" \
  "$dir/pkg/SINAPI_Manutenções_2025_12.xlsx"
go run ./bench/sinapicharges -dir "$dir/pkg" -month 08/2026
for f in SINAPI_familias_e_coeficientes_2026_08.xlsx SINAPI_mao_de_obra_2026_08.xlsx; do
  head -c 200000 /dev/urandom >"$dir/pkg/$f" # skipped by name: only the zip's directory is read
done
printf '%%PDF-1.4\n%%%%EOF\n' >"$dir/pkg/SINAPI_Metodologias_e_Conceitos.pdf"
zip="$dir/SINAPI-2026-08-formato-xlsx.zip"
(cd "$dir/pkg" && zip -q -r "$zip" .)
echo "package: $(du -h "$zip" | cut -f1), $(ls "$dir/pkg" | wc -l) files"

# 2. The cluster (durable: fsync on, as in production).
mkdir "$dir/pg" "$dir/sock"
if [ "${#as[@]}" -gt 0 ]; then chown nobody "$dir/pg" "$dir/sock"; fi
"${as[@]}" "$bin/initdb" -D "$dir/pg" -U postgres --auth=trust -E UTF8 --locale=C >/dev/null
pgport=$(freeport)
"${as[@]}" "$bin/pg_ctl" -D "$dir/pg" -l "$dir/sock/log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -c port=$pgport -c unix_socket_directories=$dir/sock -c max_connections=200" start >/dev/null

secs() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$1"; }
# abstats FILE: "N answered, non-2xx M, failed F, p50 X ms, p99 Y ms"
abstats() {
  awk '/^Complete requests:/ {n=$3} /^Failed requests:/ {f=$3} /^Non-2xx responses:/ {x=$3}
    /^  50%/ {p50=$2} /^  99%/ {p99=$2}
    END {printf "%d answered, non-2xx %d, failed %d, p50 %s ms, p99 %s ms", n, x, f, p50, p99}' "$1"
}
median() { printf '%s\n' $1 | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
walls="" cpus="" rsss="" srss="" bwalls="" brsss="" p50b="" p99b="" p50d="" p99d="" bad=0
for i in $(seq "$runs"); do
  db="postgres://postgres@127.0.0.1:$pgport/round$i?sslmode=disable"
  "${as[@]}" "$bin/createdb" -h "$dir/sock" -p "$pgport" -U postgres "round$i"
  port=$(freeport)
  "$dir/costdb" serve --addr "127.0.0.1:$port" --admin-addr off --db "$db" --signing-key-file "$dir/keys" --demo >"$dir/serve.out" 2>"$dir/serve.err" &
  srv=$!
  for _ in $(seq 120); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.5; done
  secret=$(grep -o -m1 'cdb_[A-Za-z0-9_-]*' "$dir/serve.out" "$dir/serve.err" | head -1 | cut -d: -f2)
  token=$(curl -sf -X POST "http://127.0.0.1:$port/api/public/v2/authenticate" -H 'Content-Type: application/json' \
    -d "{\"email\":\"demo@costdb.local\",\"secret_token\":\"$secret\"}" | jq -r .data.attributes.access_token)
  bank=$(curl -sf "http://127.0.0.1:$port/api/public/v2/banks" -H "Authorization: Bearer $token" | jq -r '.data[0].id')
  code=$(curl -sf "http://127.0.0.1:$port/api/public/v2/banks/$bank/items?page%5Bsize%5D=1" -H "Authorization: Bearer $token" |
    jq -r '.data[0].attributes.code')
  url="http://127.0.0.1:$port/api/public/v2/banks/$bank/items/$code"
  curl -sf -o /dev/null "$url" -H "Authorization: Bearer $token" || { echo "read $url fails" >&2; exit 1; }
  ab -q -k -l -c "$clients" -t "$before" -n 100000000 -H "Authorization: Bearer $token" "$url" >"$dir/ab.before" 2>&1 || true
  ab -q -k -l -r -c "$clients" -t 3600 -n 100000000 -H "Authorization: Bearer $token" "$url" >"$dir/ab.during" 2>&1 &
  abpid=$!
  sleep 1
  load0=$(cut -d' ' -f1 /proc/loadavg)
  if ! /usr/bin/time -v "$dir/costdb" import sinapi --db "$db" "$zip" >"$dir/out" 2>"$dir/time"; then
    kill -INT "$abpid" 2>/dev/null || true
    cat "$dir/out" "$dir/time" >&2
    exit 1
  fi
  load1=$(cut -d' ' -f1 /proc/loadavg)
  kill -INT "$abpid"
  wait "$abpid" || true
  # The same package into a fresh bbolt file, in the same round.
  /usr/bin/time -v "$dir/costdb" import sinapi --db "$dir/round$i.db" "$zip" >"$dir/out.bolt" 2>"$dir/time.bolt" ||
    { cat "$dir/out.bolt" "$dir/time.bolt" >&2; exit 1; }
  bwall=$(secs "$dir/time.bolt")
  brss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$dir/time.bolt")
  rm -f "$dir/round$i.db"
  wall=$(secs "$dir/time")
  cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$dir/time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$dir/time")
  srvrss=$(awk '/VmHWM/ {printf "%.0f", $2/1024}' "/proc/$srv/status")
  kill "$srv"
  wait "$srv" || true
  srv=""
  echo "round $i: import wall ${wall}s, cpu ${cpu}s, peak RSS ${rss} MB; server peak RSS ${srvrss} MB; load ${load0}→${load1}"
  echo "  bbolt (no server): import wall ${bwall}s, peak RSS ${brss} MB"
  echo "  reads before: $(abstats "$dir/ab.before")"
  echo "  reads during: $(abstats "$dir/ab.during")"
  echo "  $(grep -c -i 'skip' "$dir/out") files skipped; $(grep -v -i skip "$dir/out" | tail -1)"
  for f in "$dir/ab.before" "$dir/ab.during"; do
    if awk '/^Non-2xx responses:/ && $3 > 0 {e=1} /^Failed requests:/ && $3 > 0 {e=1} /^Complete requests:/ && $3 == 0 {e=1} END {exit !e}' "$f"; then
      bad=1
      echo "  NOT all 2xx: $f" >&2
      sed -n '/^Complete/,/^Non-2xx/p' "$f" >&2
    fi
  done
  walls+="$wall " cpus+="$cpu " rsss+="$rss " srss+="$srvrss " bwalls+="$bwall " brsss+="$brss "
  p50b+="$(awk '/^  50%/ {print $2}' "$dir/ab.before") " p99b+="$(awk '/^  99%/ {print $2}' "$dir/ab.before") "
  p50d+="$(awk '/^  50%/ {print $2}' "$dir/ab.during") " p99d+="$(awk '/^  99%/ {print $2}' "$dir/ab.during") "
done
echo "median of $runs: import wall $(median "$walls")s, cpu $(median "$cpus")s, peak RSS $(median "$rsss") MB; server peak RSS $(median "$srss") MB"
echo "bbolt, same rounds: import wall $(median "$bwalls")s, peak RSS $(median "$brsss") MB"
echo "reads p50/p99: before $(median "$p50b")/$(median "$p99b") ms, during the import $(median "$p50d")/$(median "$p99d") ms"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
exit "$bad"
