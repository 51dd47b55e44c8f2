#!/usr/bin/env bash
# Race shoebox against the usual ExifTool way of sorting by date, on the
# same tree the bench generates:
#
#   bench/compare.sh [count] [work-dir]      (defaults: 10000, a temp dir)
#
# ExifTool (Debian package libimage-exiftool-perl) is installed if missing.
# Both tools copy; both run with a warm cache, one after the other.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10000}
work=${2:-$(mktemp -d -t shoebox-compare-XXXX)}
mkdir -p "$work"

if ! command -v exiftool >/dev/null; then
  echo "installing exiftool (libimage-exiftool-perl)..." >&2
  apt-get update -qq && apt-get install -y -qq libimage-exiftool-perl >/dev/null
fi

go build -o "$work/shoebox" ./cmd/shoebox
# The bench generates the tree (and reuses it when it is already there).
go run ./cmd/bench "$count" "$work/gen" --keep --scan-only >/dev/null
src="$work/gen/src"
rm -rf "$work/exiftool-lib" "$work/shoebox-lib" "$work/shoebox-lib-bench"
mkdir -p "$work/exiftool-lib"

seconds() { local s e; s=$(date +%s.%N); "$@"; e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { print a / b }'; }

# Warm the cache for both runs alike.
find "$src" -type f -exec cat {} + >/dev/null

t_exif=$(cd "$work/exiftool-lib" && seconds exiftool -q -q -o ./ '-Directory<DateTimeOriginal' -d %Y/%Y-%m-%d -r "$src")
t_shoe=$(seconds "$work/shoebox" sort -q "$src" "$work/shoebox-lib")
# The bench's settings: four workers whatever the disk reports, no dedup.
t_bench=$(seconds "$work/shoebox" sort -q --workers 4 --dedup off "$src" "$work/shoebox-lib-bench")

count_files() { find "$1" -path '*/.shoebox' -prune -o -type f -print | wc -l; }
n_exif=$(count_files "$work/exiftool-lib")
n_shoe=$(count_files "$work/shoebox-lib")
n_bench=$(count_files "$work/shoebox-lib-bench")
echo "| tool | files sorted | seconds | files/s | vs exiftool |"
echo "| --- | ---: | ---: | ---: | ---: |"
printf '| exiftool %s | %d | %.2f | %.0f | 1.0x |\n' "$(exiftool -ver)" "$n_exif" "$t_exif" "$(div "$n_exif" "$t_exif")"
printf '| shoebox sort (defaults) | %d | %.2f | %.0f | %.1fx |\n' "$n_shoe" "$t_shoe" "$(div "$n_shoe" "$t_shoe")" "$(div "$t_exif" "$t_shoe")"
printf '| shoebox sort --workers 4 --dedup off | %d | %.2f | %.0f | %.1fx |\n' "$n_bench" "$t_bench" "$(div "$n_bench" "$t_bench")" "$(div "$t_exif" "$t_bench")"
