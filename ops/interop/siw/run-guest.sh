#!/usr/bin/env bash
# Copyright 2026 the WarpBus authors.
# Licensed under the Apache License, Version 2.0 (the "License"); see the LICENSE file at the repository root.
#
# Boot the siw interop guest under qemu and keep it only as long as it is wanted.
#
#   run-guest.sh --guest DIR --share DIR [--forward HOST_PORT:GUEST_PORT]... [--timeout SECONDS]
#                [--watch-pid PID] [--accel tcg|kvm]
#
# --guest is a directory from build-guest.sh; --share a host directory the guest mounts over 9p (this script puts
# guest-agent.sh there; the guest writes ready, agent.log and job results into it; console.log is the serial
# console). The network is qemu's user network only: each --forward makes 127.0.0.1:HOST_PORT on the host reach
# the guest's GUEST_PORT, and the guest reaches the host's loopback at 10.0.2.2. The root disk is opened with
# snapshot=on, so the cached image never changes.
#
# qemu is killed when this script gets SIGTERM/SIGINT, when --watch-pid (the test JVM) dies, or after --timeout
# (default 1800 s), so a crashed or killed test never leaves a guest behind. Exit code: qemu's, or 124 on timeout.
# TCG is the default: nested KVM does not boot a guest on the build machines.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
GUEST=""
SHARE=""
FORWARDS=()
TIMEOUT=1800
WATCH_PID=""
ACCEL="${WARPBUS_SIW_ACCEL:-tcg}"

while [ $# -gt 0 ]; do
    case "$1" in
        --guest) GUEST="$2"; shift 2 ;;
        --share) SHARE="$2"; shift 2 ;;
        --forward) FORWARDS+=("$2"); shift 2 ;;
        --timeout) TIMEOUT="$2"; shift 2 ;;
        --watch-pid) WATCH_PID="$2"; shift 2 ;;
        --accel) ACCEL="$2"; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "run-guest.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -f "$GUEST/complete" ] || { echo "run-guest.sh: $GUEST is not a built guest (build-guest.sh)" >&2; exit 2; }
[ -d "$SHARE" ] || { echo "run-guest.sh: share $SHARE is not a directory" >&2; exit 2; }
command -v qemu-system-x86_64 >/dev/null || { echo "run-guest.sh: qemu-system-x86_64 is not installed" >&2; exit 2; }

cp "$HERE/guest-agent.sh" "$SHARE/guest-agent.sh"
netdev="user,id=net0,net=10.0.2.0/24,host=10.0.2.2"
for forward in "${FORWARDS[@]}"; do
    netdev+=",hostfwd=tcp:127.0.0.1:${forward%%:*}-:${forward##*:}"
done
case "$ACCEL" in
    kvm) machine=(-accel kvm -cpu host) ;;
    tcg) machine=(-accel tcg -cpu max) ;;
    *) echo "run-guest.sh: --accel must be tcg or kvm" >&2; exit 2 ;;
esac

qemu-system-x86_64 "${machine[@]}" -machine q35 -m 768 -smp 1 -nographic -no-reboot -nodefaults \
    -kernel "$GUEST/vmlinuz" -initrd "$GUEST/initrd.img" \
    -append "console=ttyS0 root=/dev/vda rw init=/sbin/warpbus-init panic=-1 quiet loglevel=4" \
    -drive "file=$GUEST/rootfs.ext4,if=virtio,format=raw,snapshot=on" \
    -fsdev "local,id=share,path=$SHARE,security_model=none" -device virtio-9p-pci,fsdev=share,mount_tag=warpbus \
    -netdev "$netdev" -device virtio-net-pci,netdev=net0,romfile= \
    -serial "file:$SHARE/console.log" -monitor none </dev/null >"$SHARE/qemu.log" 2>&1 &
QEMU=$!
echo "$QEMU" > "$SHARE/qemu.pid"

stop() {
    kill "$QEMU" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        kill -0 "$QEMU" 2>/dev/null || return 0
        sleep 0.2
    done
    kill -9 "$QEMU" 2>/dev/null || true
}
trap 'stop; exit 143' TERM INT HUP
trap stop EXIT

deadline=$(( $(date +%s) + TIMEOUT ))
while kill -0 "$QEMU" 2>/dev/null; do
    if [ -n "$WATCH_PID" ] && ! kill -0 "$WATCH_PID" 2>/dev/null; then
        echo "run-guest.sh: process $WATCH_PID is gone, stopping the guest" >&2
        exit 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
        echo "run-guest.sh: the guest ran for ${TIMEOUT} s, stopping it" >&2
        exit 124
    fi
    sleep 0.5
done
wait "$QEMU"
