#!/usr/bin/env bash
# Runs the test suite for GOOS=windows under Wine:  .ci/wine/test.sh [go test flags] [packages]
# Skips (exit 0, saying why) where Wine cannot be installed. Prints the
# count of tests passed, failed and skipped, and each skip's reason.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! env=$(.ci/wine/setup.sh); then
	echo "wine: SKIPPED the Windows test suite: Wine could not be set up (see above)"
	exit 0
fi
eval "$env"
overlay=$(.ci/wine/overlay.sh)
server=$(dirname "$(readlink -f "$(command -v wine64 || echo /usr/lib/wine/wine64)")")/wineserver
"$server" -p 2>/dev/null || true # one server for every test binary
trap '"$server" -k 2>/dev/null || true' EXIT
log=$(mktemp)
pkgs=("$@")
[ ${#pkgs[@]} -eq 0 ] && pkgs=(./...)
status=0
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -overlay "$overlay" -exec "$PWD/.ci/wine/exec.sh" \
	-count=1 -v "${pkgs[@]}" >"$log" 2>&1 || status=$?
grep -E '^(FAIL|ok|---|panic:)|^\s+--- FAIL|\[(setup|build) failed\]' "$log" | grep -v -- '--- PASS\|--- SKIP' || true
echo "wine: $(grep -cE '^\s*--- PASS' "$log") passed, $(grep -cE '^\s*--- FAIL' "$log") failed, $(grep -cE '^\s*--- SKIP' "$log") skipped (subtests included)"
grep -A1 -E '^\s*--- SKIP' "$log" | grep -vE '^\s*--- SKIP|^--$' | sed 's/^\s*/wine: skip: /' | sort | uniq -c | sort -rn || true
rm -f "$log"
exit $status
