#!/usr/bin/env bash
# storage.sh regenerates the bench's storage rows in one command (Linux, root):
#
#   bench/storage.sh [COUNT] [ROWS...]      e.g. bench/storage.sh 100
#
# ROWS default to: ext4 btrfs btrfs-reflink xfs xfs-reflink sshfs-1ms sshfs-10ms.
# Sweeps that choose the automatic worker counts (not in the default rows):
#   meta-sweep-ext4, meta-sweep-Nms   header readers 2..64 on $SWEEP_COUNT
#                                     small files (--scan-only), cold
#   copy-sweep-ext4, copy-sweep-Nms   copy workers 1..8 on COUNT real-size photos
# Each row sorts COUNT real-size photos (3–5 MB, real EXIF) with the source
# and the library on that storage, warm and then cold, with the workers the
# sorter chooses, against `cp -r && sync` and `rsync -a && sync` on the same
# tree, then re-runs the sort into the same library. What it builds:
#   ext4        the local disk under $STORAGE_TMP (default /var/tmp)
#   btrfs, xfs  a sparse image file on that disk, loop-mounted
#   sshfs-Nms   an sshd inside a network namespace made here (veth pair),
#               N ms added to each round trip, mounted with sshfs. The delay
#               is tc netem's where the kernel has it, else cmd/bench/netdelay's,
#               a relay in the namespace in front of sshd (same added latency,
#               pipelined, the link's bandwidth).
# Everything it mounts, starts or creates is undone on exit (trap), also on
# Ctrl-C. Extra bench flags go in BENCH_FLAGS (e.g. "--meta-workers 16").
# The rows land in $OUT (default ./storage-rows.md); full outputs beside it.
set -euo pipefail

COUNT=${1:-100}
shift || true
ROWS=("$@")
[ ${#ROWS[@]} -gt 0 ] || ROWS=(ext4 btrfs btrfs-reflink xfs xfs-reflink sshfs-1ms sshfs-10ms)
OUT=${OUT:-$PWD/storage-rows.md}
CACHES=${CACHES:-"warm cold"}
SWEEP_COUNT=${SWEEP_COUNT:-2000}
META_VALUES=${META_VALUES:-"2 4 8 16 32 64"}
COPY_VALUES=${COPY_VALUES:-"1 2 4 8"}
BENCH_FLAGS=${BENCH_FLAGS:-}
IMAGE_SIZE=${IMAGE_SIZE:-4G}
NS=sbx-nas$$
VETH=sbxh$$
ADDR_HOST=10.213.$(($$ % 250)).1
ADDR_NAS=10.213.$(($$ % 250)).2

if [ "$(id -u)" != 0 ]; then
	echo "storage.sh: needs root (loop mounts, network namespaces, dropping caches)" >&2
	exit 2
fi
ROOT=$(mktemp -d "${STORAGE_TMP:-/var/tmp}/shoebox-storage.XXXXXX")
MOUNTS=()
SSHD_PID=
RELAY_PID=
MOUNTED=
NETEM=

cleanup() {
	set +e
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		fusermount -u "${MOUNTS[$i]}" 2>/dev/null || umount "${MOUNTS[$i]}" 2>/dev/null || umount -l "${MOUNTS[$i]}"
	done
	[ -n "$MOUNTED" ] && fusermount -u "$ROOT/sshfs.mnt"
	[ -n "$RELAY_PID" ] && kill "$RELAY_PID" 2>/dev/null
	[ -n "$SSHD_PID" ] && kill "$SSHD_PID" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	ip link del "$VETH" 2>/dev/null
	rm -rf "$ROOT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

need() { command -v "$1" >/dev/null || { echo "storage.sh: $1 is missing (apt-get install $2): row $3 skipped" >&2; return 1; }; }

echo "building the bench ..." >&2
go build -o "$ROOT/bench" ./cmd/bench
go build -o "$ROOT/netdelay" ./cmd/bench/netdelay
{
	echo "Storage rows, $COUNT real-size photos each, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, kernel $(uname -r)"
	echo
	"$ROOT/bench" --print-summary-header
} >"$OUT"
LOG=${OUT%.md}.log
: >"$LOG"

# bench_row LABEL WORKDIR [extra bench flags...]: one row per cache state.
bench_row() {
	local label=$1 work=$2
	shift 2
	for cache in $CACHES; do
		local flags=(--real-size --workers auto --compare --rerun --keep --label "$label")
		[ "$cache" = cold ] && flags+=(--cold)
		echo "== $label, $cache" | tee -a "$LOG" >&2
		if "$ROOT/bench" "$COUNT" "$work" "${flags[@]}" "$@" $BENCH_FLAGS >>"$LOG" 2>&1; then
			grep '^SUMMARY ' "$LOG" | tail -1 | sed 's/^SUMMARY //' | tee -a "$OUT" >&2
		else
			echo "| $label | $cache | failed: see $(basename "$LOG") | | | | | | | |" | tee -a "$OUT" >&2
		fi
	done
}

# sweep LABEL COUNT WORKDIR FLAG "VALUES" [bench flags...]: one row per value of
# FLAG, cold where allowed.
sweep() {
	local label=$1 count=$2 work=$3 flag=$4 values=$5
	shift 5
	for v in $values; do
		echo "== $label, $flag $v" | tee -a "$LOG" >&2
		if "$ROOT/bench" "$count" "$work" "$flag" "$v" --keep --cold --label "$label, $flag $v" "$@" $BENCH_FLAGS >>"$LOG" 2>&1; then
			grep '^SUMMARY ' "$LOG" | tail -1 | sed 's/^SUMMARY //' | tee -a "$OUT" >&2
		else
			echo "| $label, $flag $v | failed: see $(basename "$LOG") | | | | | | | | |" | tee -a "$OUT" >&2
		fi
	done
}

# loop_fs TYPE: a fresh image of TYPE, loop-mounted at $ROOT/TYPE.mnt.
loop_fs() {
	local type=$1 img=$ROOT/$1.img mnt=$ROOT/$1.mnt
	truncate -s "$IMAGE_SIZE" "$img"
	case $type in
	btrfs) mkfs.btrfs -q "$img" >/dev/null ;;
	xfs) mkfs.xfs -q -m reflink=1 "$img" ;;
	esac
	mkdir -p "$mnt"
	mount -o loop "$img" "$mnt"
	MOUNTS+=("$mnt")
}

# nas: an sshd in its own network namespace, reached over a veth pair, its
# export mounted with sshfs at $ROOT/sshfs.mnt.
nas() {
	[ -n "$SSHD_PID" ] && return 0
	need sshd openssh-server sshfs && need sshfs sshfs sshfs || return 1
	ip netns add "$NS"
	ip link add "$VETH" type veth peer name sbxn0 netns "$NS"
	ip addr add "$ADDR_HOST/24" dev "$VETH"
	ip link set "$VETH" up
	ip -n "$NS" addr add "$ADDR_NAS/24" dev sbxn0
	ip -n "$NS" link set sbxn0 up
	ip -n "$NS" link set lo up
	if tc qdisc add dev "$VETH" root netem delay 1ms 2>/dev/null; then
		NETEM=1
	else
		echo "storage.sh: no tc netem in this kernel: the delay comes from cmd/bench/netdelay" >&2
		NETEM=
	fi
	ssh-keygen -q -t ed25519 -N '' -f "$ROOT/client_key"
	ssh-keygen -q -t ed25519 -N '' -f "$ROOT/host_key"
	cp "$ROOT/client_key.pub" "$ROOT/authorized_keys"
	mkdir -p "$ROOT/export" "$ROOT/sshfs.mnt" /run/sshd
	cat >"$ROOT/sshd_config" <<-CONF
		ListenAddress $ADDR_NAS:22
		ListenAddress 127.0.0.1:22
		HostKey $ROOT/host_key
		AuthorizedKeysFile $ROOT/authorized_keys
		PermitRootLogin prohibit-password
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		UsePAM no
		StrictModes no
		PidFile $ROOT/sshd.pid
		Subsystem sftp internal-sftp
	CONF
	ip netns exec "$NS" /usr/sbin/sshd -D -f "$ROOT/sshd_config" &
	SSHD_PID=$!
}

delay_how() { if [ -n "$NETEM" ]; then echo "netns, veth, tc netem"; else echo "netns, veth, netdelay relay"; fi; }

# set_delay 10ms: the added round trip, then (re)mount the export through it.
set_delay() {
	local port=22
	if [ -n "$MOUNTED" ]; then
		fusermount -u "$ROOT/sshfs.mnt"
		MOUNTED=
	fi
	if [ -n "$NETEM" ]; then
		tc qdisc change dev "$VETH" root netem delay "$1"
	else
		[ -n "$RELAY_PID" ] && kill "$RELAY_PID" && wait "$RELAY_PID" 2>/dev/null || true
		ip netns exec "$NS" "$ROOT/netdelay" -listen "$ADDR_NAS:2222" -to 127.0.0.1:22 -rtt "$1" &
		RELAY_PID=$!
		port=2222
	fi
	for _ in $(seq 50); do
		sshfs "root@$ADDR_NAS:$ROOT/export" "$ROOT/sshfs.mnt" -p "$port" -o "IdentityFile=$ROOT/client_key,StrictHostKeyChecking=no,UserKnownHostsFile=/dev/null,LogLevel=ERROR" 2>/dev/null && break
		sleep 0.2
	done
	mountpoint -q "$ROOT/sshfs.mnt" || { echo "storage.sh: sshfs mount failed" >&2; return 1; }
	MOUNTED=1
}

for row in "${ROWS[@]}"; do
	case $row in
	ext4)
		bench_row "local $(findmnt -no FSTYPE -T "$ROOT") ($(findmnt -no SOURCE -T "$ROOT"))" "$ROOT/local"
		rm -rf "$ROOT/local"
		;;
	btrfs | btrfs-reflink | xfs | xfs-reflink)
		type=${row%-reflink}
		need "mkfs.$type" "${type}-progs" "$row" || continue
		mnt=$ROOT/$type.mnt
		mountpoint -q "$mnt" 2>/dev/null || loop_fs "$type"
		if [ "$row" = "$type" ]; then
			bench_row "$type, loop image" "$mnt/work" --mode copy
		else
			bench_row "$type, loop image, --mode reflink" "$mnt/work" --mode reflink
		fi
		;;
	sshfs-*ms)
		delay=${row#sshfs-}
		nas && set_delay "$delay" || continue
		# The tree is written on the server's side (untimed): through a
		# 10 ms link, writing it would take longer than the row.
		"$ROOT/bench" "$COUNT" "$ROOT/export/work" --real-size --generate-only --keep >>"$LOG" 2>&1
		bench_row "sshfs, +$delay round trip ($(delay_how))" "$ROOT/sshfs.mnt/work"
		;;
	meta-sweep-ext4)
		sweep "ext4, small files" "$SWEEP_COUNT" "$ROOT/sweep" --meta-workers "$META_VALUES" --workers 4 --scan-only
		;;
	meta-sweep-*ms)
		delay=${row#meta-sweep-}
		nas && set_delay "$delay" || continue
		"$ROOT/bench" "$SWEEP_COUNT" "$ROOT/export/sweep" --generate-only --keep >>"$LOG" 2>&1
		sweep "sshfs +$delay, small files" "$SWEEP_COUNT" "$ROOT/sshfs.mnt/sweep" --meta-workers "$META_VALUES" --workers 2 --scan-only
		;;
	copy-sweep-ext4)
		sweep "ext4, real-size" "$COUNT" "$ROOT/local" --workers "$COPY_VALUES" --real-size
		;;
	copy-sweep-*ms)
		delay=${row#copy-sweep-}
		nas && set_delay "$delay" || continue
		"$ROOT/bench" "$COUNT" "$ROOT/export/work" --real-size --generate-only --keep >>"$LOG" 2>&1
		sweep "sshfs +$delay, real-size" "$COUNT" "$ROOT/sshfs.mnt/work" --workers "$COPY_VALUES" --real-size
		;;
	*)
		echo "storage.sh: unknown row $row" >&2
		;;
	esac
done
echo "rows in $OUT, full output in $LOG" >&2
