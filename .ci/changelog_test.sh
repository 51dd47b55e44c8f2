#!/usr/bin/env bash
# Tests .ci/changelog.sh on made-up changelogs, then checks the real one
# has the Unreleased entry: run by test.sh.
set -euo pipefail
cd "$(dirname "$0")"
dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
fail=0
expect() { # expect ok|fail VERSION FILE-CONTENT
	printf '%s' "$3" >"$dir/CHANGELOG.md"
	if ./changelog.sh "$2" "$dir/CHANGELOG.md" >/dev/null 2>"$dir/err"; then got=ok; else got=fail; fi
	if [ "$got" != "$1" ]; then
		echo "changelog_test: version $2 gave $got, want $1, for:"; printf '%s\n' "$3"; cat "$dir/err"
		fail=1
	fi
}
log='# Changelog

## [Unreleased]
- Relative dates.

## [1.2.0] - 2026-11-01
- First.

## [1.1.0] - 2026-10-01
'
expect ok v1.2.0 "$log"
expect ok 1.2.0 "$log"
expect ok ci "$log"
expect fail v1.3.0 "$log"            # no entry
expect fail v1.1.0 "$log"            # an entry with no change listed
expect ok v1.2 "$log"                # not a release version: the Unreleased entry
expect fail v1.2.0 '# Changelog
## [Unreleased]
- Something.
'
expect fail ci '# Changelog
## [1.0.0]
- Something.
'
expect fail v1.20.0 "$log"           # 1.2.0 is not 1.20.0
expect fail v1.2.00 "$log"
rm -f "$dir/CHANGELOG.md"
if ./changelog.sh v1.0.0 "$dir/CHANGELOG.md" 2>"$dir/err"; then echo "changelog_test: a missing file passed"; fail=1; fi
grep -q 'no such file' "$dir/err" || { echo "changelog_test: a missing file's message: $(cat "$dir/err")"; fail=1; }
./changelog.sh ci >/dev/null
exit $fail
