#!/usr/bin/env bash
# Prepares Wine to run Go's Windows binaries (tests included) on Linux:
#   eval "$(.ci/wine/setup.sh)"   # exports WINEPREFIX, WINEDEBUG, or exits 1
# Installs Debian's wine64 and the MinGW compiler when missing, creates a
# Wine prefix under $SHOEBOX_WINE_CACHE (default ~/.cache/shoebox-wine), and
# puts into its system32 the bcryptprimitives.dll (ProcessPrng) that Wine 8
# lacks and the Go runtime needs. Prints the exports on stdout, progress
# and the reason for giving up on stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${SHOEBOX_WINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/shoebox-wine}
say() { echo "wine: $*" >&2; }

# Debian's wine64 package installs /usr/lib/wine/wine64, not on PATH.
wine_cmd() { command -v wine64 || { [ -x /usr/lib/wine/wine64 ] && echo /usr/lib/wine/wine64; }; }

install_missing() {
	local need=()
	wine_cmd >/dev/null || need+=(wine64)
	command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64)
	[ ${#need[@]} -eq 0 ] && return 0
	say "installing ${need[*]}"
	if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } >&2; then
		say "cannot install ${need[*]} (not Debian, not root, or offline)"
		return 1
	fi
}

make_prefix() {
	export WINEPREFIX=$cache/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
	local sys32=$WINEPREFIX/drive_c/windows/system32
	if [ ! -f "$sys32/kernel32.dll" ]; then
		say "creating the prefix in $WINEPREFIX"
		mkdir -p "$cache"
		"$(wine_cmd)" wineboot -i >/dev/null 2>&1 || true
		"$(dirname "$(readlink -f "$(wine_cmd)")")/wineserver" -w 2>/dev/null || true
	fi
	[ -f "$sys32/kernel32.dll" ] || { say "wineboot did not create $sys32"; return 1; }
	if [ ! -f "$sys32/bcryptprimitives.dll" ] || [ "$here/processprng.c" -nt "$sys32/bcryptprimitives.dll" ]; then
		say "building bcryptprimitives.dll (ProcessPrng -> RtlGenRandom)"
		x86_64-w64-mingw32-gcc -O2 -shared -o "$sys32/bcryptprimitives.dll" \
			"$here/processprng.c" "$here/bcryptprimitives.def" -ladvapi32
	fi
}

if ! install_missing || ! make_prefix; then
	say "Windows tests skipped: Wine is not available here"
	exit 1
fi
echo "export WINEPREFIX='$WINEPREFIX' WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml='"
