#!/usr/bin/env bash
# Checks that CHANGELOG.md has an entry for the version being released:
#   .ci/changelog.sh VERSION [CHANGELOG]
# A release version (v1.2.3, 1.2.3, v1.2.3-rc.1) needs its own heading,
# "## [1.2.3]" (with or without the v, a date may follow), holding at least
# one "- " line; any other version (ci, a snapshot) needs the
# "## [Unreleased]" heading instead. .ci/release.sh runs it before building
# anything; .ci/changelog_test.sh tests it.
set -euo pipefail
version=${1:?usage: .ci/changelog.sh VERSION [CHANGELOG]}
file=${2:-$(dirname "$0")/../CHANGELOG.md}
if [ ! -f "$file" ]; then
	echo "changelog: $file: no such file; a release needs CHANGELOG.md with an entry for $version" >&2
	exit 1
fi
if [[ $version =~ ^v?([0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]*)?)$ ]]; then
	want=${BASH_REMATCH[1]}
else
	want=Unreleased
fi
# The entry: from its heading to the next "## " heading.
entry=$(awk -v want="$want" '
	/^## / {
		h = $0; sub(/^## +\[?v?/, "", h); sub(/\].*$/, "", h); sub(/[ \t].*$/, "", h)
		inside = (h == want); next
	}
	inside' "$file")
if ! grep -Eq "^## +\[?v?${want//./\\.}\]?( |$)" "$file"; then
	echo "changelog: $file has no entry for $version: add a \"## [$want]\" section listing its user-visible changes" >&2
	exit 1
fi
if ! grep -q '^- ' <<<"$entry"; then
	echo "changelog: $file: the \"## [$want]\" section lists no change (want lines starting with \"- \")" >&2
	exit 1
fi
echo "changelog: $file has an entry for $version"
