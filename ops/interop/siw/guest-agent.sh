#!/bin/sh
# Copyright 2026 the WarpBus authors.
# Licensed under the Apache License, Version 2.0 (the "License"); see the LICENSE file at the repository root.
#
# The siw interop guest's agent, run by /sbin/warpbus-init from the 9p share at every boot. It keeps the kernel log
# in /share/kernel.log, loads siw (the "default" build) with its connection-management debug messages on, creates
# siw0 on eth0, writes /share/ready (kernel, package versions, the RDMA link), then runs every job the host drops
# into /share/jobs/NAME.sh, each in the background:
#   stdout -> /share/out/NAME.out, stderr -> /share/out/NAME.err, exit code -> /share/out/NAME.rc (written last).
# The host writes a job under a dot name and renames it, so a job is never read half-written.
set -u
SHARE=/share
mkdir -p "$SHARE/jobs" "$SHARE/run" "$SHARE/out"

# Large TCP send buffers for siw's kernel sockets. Under TCG the qemu user network's window to the guest fills
# often; siw then meets a full send buffer and waits for the socket's write-space callback to resume its send
# queue, and that resume is now and then lost: the connection stalls with an FPDU half sent. With 4 MiB buffers
# a 64 KiB ping never fills one.
echo "4096 4194304 16777216" > /proc/sys/net/ipv4/tcp_wmem
echo 16777216 > /proc/sys/net/core/wmem_max

# The guest's kernel log, live in the share, with siw's connection-management debug messages (a few lines per
# connection, from siw_cm.c only; the console keeps loglevel 4, so none of it slows the serial console). A failed
# interop case reads it: a kernel BUG, or what siw's CM did with a connection, is visible only here.
stdbuf -oL dmesg -w > "$SHARE/kernel.log" 2>&1 &

modprobe siw || { echo "modprobe siw failed" > "$SHARE/failed"; exit 1; }
echo "file siw_cm.c +p" > /proc/dynamic_debug/control 2>/dev/null || echo "no dynamic debug for siw_cm.c" >&2
modprobe rdma_ucm
modprobe ib_uverbs
rdma link add siw0 type siw netdev eth0 || { echo "rdma link add failed" > "$SHARE/failed"; exit 1; }

{
    echo "kernel=$(uname -r)"
    for package in rdma-core ibverbs-providers rdmacm-utils perftest iproute2; do
        echo "$package=$(dpkg-query -W -f='${Version}' "$package")"
    done
    echo "siw=$(modinfo -F vermagic siw | cut -d' ' -f1) $(modinfo -F filename siw)"
    echo "link=$(rdma link show | tr '\n' ' ')"
    echo "tcp_wmem=$(cat /proc/sys/net/ipv4/tcp_wmem)"
    echo "siw_cm_debug=$(grep -c 'siw_cm.c.* =p ' /proc/dynamic_debug/control) messages"
} > "$SHARE/.ready"
mv "$SHARE/.ready" "$SHARE/ready"

while :; do
    for job in "$SHARE"/jobs/*.sh; do
        [ -e "$job" ] || continue
        name="$(basename "$job" .sh)"
        mv "$job" "$SHARE/run/$name.sh" || continue
        (
            cd /tmp
            /bin/sh "$SHARE/run/$name.sh" > "$SHARE/out/$name.out" 2> "$SHARE/out/$name.err"
            echo $? > "$SHARE/out/.$name.rc"
            mv "$SHARE/out/.$name.rc" "$SHARE/out/$name.rc"
        ) &
    done
    sleep 0.05
done
