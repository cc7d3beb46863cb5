#!/bin/sh
# Copyright 2026 the WarpBus authors.
# Licensed under the Apache License, Version 2.0 (the "License"); see the LICENSE file at the repository root.
#
# PID 1 of the siw interop guest (installed as /sbin/warpbus-init by build-guest.sh). No init system: mount what the
# tools need, bring up the qemu user network (guest 10.0.2.15, the host's loopback is 10.0.2.2), mount the 9p share
# "warpbus" and hand over to the agent the host put there (guest-agent.sh), so changing the agent needs no rebuild.
# Powers the guest off when the agent ends or anything here fails.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

halt_guest() {
    echo "warpbus-init: $*" > /dev/console
    sync
    echo o > /proc/sysrq-trigger
    sleep 10
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
echo 1 > /proc/sys/kernel/sysrq
hostname warpbus-siw

modprobe virtio_net || halt_guest "no virtio_net"
modprobe 9pnet_virtio && modprobe 9p || halt_guest "no 9p"
mkdir -p /share
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 warpbus /share || halt_guest "cannot mount the 9p share"

ip link set lo up
ip link set eth0 up || halt_guest "no eth0"
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2

[ -r /share/guest-agent.sh ] || halt_guest "no /share/guest-agent.sh"
/bin/sh /share/guest-agent.sh > /share/agent.log 2>&1
halt_guest "agent ended with $?"
