#!/usr/bin/env bash
# Copyright 2026 the WarpBus authors.
# Licensed under the Apache License, Version 2.0 (the "License"); see the LICENSE file at the repository root.
#
# Build (or find in the cache) the Linux soft-iWARP guest the interop tests boot: a Debian bookworm minbase root
# with the Debian kernel, rdma-core, librdmacm's tools and perftest, plus the siw driver built out of tree from
# Debian's linux-source of that very kernel against its linux-headers (Debian's kernels do not ship siw).
#
#   build-guest.sh [--cache DIR] [--mirror URL] [--print-key] [--force]
#
# The guest lives outside the repository, in DIR/<key>/ (default ${XDG_CACHE_HOME:-$HOME/.cache}/warpbus/siw-guest),
# where <key> hashes the versions the mirror offers for every package that matters and the content of the scripts
# that shape the image; a new kernel or rdma-core on the mirror, or a change here, builds a new guest. The last
# line on stdout is the guest's directory: vmlinuz, initrd.img, rootfs.ext4 and manifest.txt (what is in it).
#
# Four builds of siw go into the image, /opt/warpbus-siw/<variant>/siw.ko, because siw's MPA choices are
# compile-time constants in siw_main.c (Linux 6.1): "default" is the driver as released (MPA revision 2, CRC not
# required, client-server model); "p2p" sets peer_to_peer (MPA v2 peer-to-peer with a ready-to-receive message);
# "crc" sets mpa_crc_required; "v1" selects MPA revision 1. Each variant changes one constant, nothing else.
#
# Needs root (debootstrap, chroot), debootstrap, apt, mkfs.ext4 (e2fsprogs >= 1.43 for -d) and the Debian
# archive keyring. No loop mount. Takes about 2.5 minutes on two cores with a nearby mirror.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${WARPBUS_SIW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warpbus/siw-guest}"
MIRROR="${WARPBUS_SIW_MIRROR:-http://deb.debian.org/debian}"
SUITE=bookworm
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
PRINT_KEY=0
FORCE=0

while [ $# -gt 0 ]; do
    case "$1" in
        --cache) CACHE="$2"; shift 2 ;;
        --mirror) MIRROR="$2"; shift 2 ;;
        --print-key) PRINT_KEY=1; shift ;;
        --force) FORCE=1; shift ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "build-guest.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

log() { echo "build-guest: $*" >&2; }
die() { echo "build-guest: $*" >&2; exit 1; }

# What the guest runs, and what is needed only to build siw (removed from the image afterwards where it is big).
GUEST_PACKAGES=(linux-image-amd64 kmod iproute2 rdma-core ibverbs-providers rdmacm-utils perftest)
BUILD_PACKAGES=(linux-headers-amd64 linux-source-6.1 make xz-utils)
VARIANTS=(default p2p crc v1)

[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot)"
for tool in debootstrap apt-get apt-cache mkfs.ext4 sha256sum chroot; do
    command -v "$tool" >/dev/null || die "$tool is not installed (apt-get install debootstrap e2fsprogs)"
done
[ -r "$KEYRING" ] || die "$KEYRING is missing (apt-get install debian-archive-keyring)"
mkdir -p "$CACHE"

# --- the key: what the mirror offers now, asked through apt with a private state directory ------------------
APT_DIR="$CACHE/apt-index"
mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" "$APT_DIR/etc/sources.list.d" \
    "$APT_DIR/etc/preferences.d"
: > "$APT_DIR/status"
echo "deb [signed-by=$KEYRING] $MIRROR $SUITE main" > "$APT_DIR/etc/sources.list"
APT_OPTS=(-o "Dir::State=$APT_DIR" -o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::State::status=$APT_DIR/status"
    -o "Dir::Cache=$APT_DIR/cache" -o "Dir::Etc::SourceList=$APT_DIR/etc/sources.list"
    -o "Dir::Etc::SourceParts=$APT_DIR/etc/sources.list.d" -o "Dir::Etc::PreferencesParts=$APT_DIR/etc/preferences.d"
    -o "APT::Architecture=amd64" -o "APT::Architectures=amd64" -o "Debug::NoLocking=1")
if ! apt-get "${APT_OPTS[@]}" -qq update >"$APT_DIR/update.log" 2>&1; then
    cat "$APT_DIR/update.log" >&2
    die "cannot read the package index of $MIRROR $SUITE"
fi
versions=""
for package in "${GUEST_PACKAGES[@]}" "${BUILD_PACKAGES[@]}"; do
    version="$(apt-cache "${APT_OPTS[@]}" policy "$package" | awk '/Candidate:/ { print $2 }')"
    [ -n "$version" ] && [ "$version" != "(none)" ] || die "$MIRROR $SUITE offers no $package"
    versions+="$package=$version"$'\n'
done
kernel_package="$(apt-cache "${APT_OPTS[@]}" depends linux-image-amd64 |
    awk '/Depends: linux-image-[0-9]/ { print $2; exit }')"
[ -n "$kernel_package" ] || die "cannot tell which kernel linux-image-amd64 depends on"
KVER="${kernel_package#linux-image-}"
key="$( { printf '%s' "$versions"; echo "kernel=$KVER"; cat "$0" "$HERE/guest-init.sh"; } | sha256sum | cut -c1-16)"
GUEST="$CACHE/$key"
if [ "$PRINT_KEY" = 1 ]; then
    echo "$key"
    exit 0
fi
if [ "$FORCE" = 0 ] && [ -f "$GUEST/complete" ]; then
    log "cached guest $GUEST (kernel $KVER)"
    echo "$GUEST"
    exit 0
fi

# --- the build ------------------------------------------------------------------------------------------------
WORK="$CACHE/build-$key.$$"
ROOT="$WORK/root"
cleanup() {
    rm -rf "$WORK"
}
trap cleanup EXIT
rm -rf "$GUEST"
mkdir -p "$WORK"
started=$(date +%s)

log "debootstrap $SUITE (minbase) from $MIRROR, kernel $KVER"
include="$(IFS=,; echo "${GUEST_PACKAGES[*]},${BUILD_PACKAGES[*]}")"
if ! debootstrap --variant=minbase --include="$include" --keyring="$KEYRING" "$SUITE" "$ROOT" "$MIRROR" \
    >"$WORK/debootstrap.log" 2>&1; then
    tail -40 "$WORK/debootstrap.log" >&2
    [ -f "$ROOT/debootstrap/debootstrap.log" ] && tail -40 "$ROOT/debootstrap/debootstrap.log" >&2
    die "debootstrap failed"
fi

# The versions installed must be the ones the key names: otherwise the mirror moved while we built.
installed=""
for package in "${GUEST_PACKAGES[@]}" "${BUILD_PACKAGES[@]}"; do
    installed+="$package=$(chroot "$ROOT" dpkg-query -W -f='${Version}' "$package")"$'\n'
done
[ "$installed" = "$versions" ] || die "the mirror changed during the build: expected
$versions
installed
$installed"
[ -d "$ROOT/lib/modules/$KVER" ] || die "kernel $KVER is not in the guest: $(ls "$ROOT/lib/modules")"
[ -d "$ROOT/usr/src/linux-headers-$KVER" ] || die "linux-headers-$KVER is not in the guest"

log "building siw for $KVER from Debian's linux-source ($(echo "$versions" | awk -F= '/^linux-source/ { print $2 }'))"
source_tar="$(cd "$ROOT/usr/src" && ls linux-source-6.1.tar.*)"
chroot "$ROOT" tar -C /usr/src -xf "/usr/src/$source_tar" linux-source-6.1/drivers/infiniband/sw/siw
SRC="$ROOT/usr/src/linux-source-6.1/drivers/infiniband/sw/siw"
grep -q '^const bool peer_to_peer;$' "$SRC/siw_main.c" || die "siw_main.c no longer declares peer_to_peer as expected"
grep -q '^const bool mpa_crc_required;$' "$SRC/siw_main.c" || die "siw_main.c: mpa_crc_required is not as expected"
grep -q '^u_char mpa_version = MPA_REVISION_2;$' "$SRC/siw_main.c" || die "siw_main.c: mpa_version is not as expected"
for variant in "${VARIANTS[@]}"; do
    dir="$ROOT/usr/src/siw-$variant"
    cp -a "$SRC" "$dir"
    case "$variant" in
        default) ;;
        p2p) sed -i 's/^const bool peer_to_peer;$/const bool peer_to_peer = true;/' "$dir/siw_main.c" ;;
        crc) sed -i 's/^const bool mpa_crc_required;$/const bool mpa_crc_required = true;/' "$dir/siw_main.c" ;;
        v1) sed -i 's/^u_char mpa_version = MPA_REVISION_2;$/u_char mpa_version = MPA_REVISION_1;/' "$dir/siw_main.c" ;;
    esac
    if ! chroot "$ROOT" make -C "/usr/src/linux-headers-$KVER" M="/usr/src/siw-$variant" CONFIG_RDMA_SIW=m \
        -j"$(nproc)" modules >"$WORK/siw-$variant.log" 2>&1; then
        tail -40 "$WORK/siw-$variant.log" >&2
        die "building siw ($variant) failed"
    fi
    mkdir -p "$ROOT/opt/warpbus-siw/$variant"
    cp "$dir/siw.ko" "$ROOT/opt/warpbus-siw/$variant/siw.ko"
done
mkdir -p "$ROOT/lib/modules/$KVER/extra"
cp "$ROOT/opt/warpbus-siw/default/siw.ko" "$ROOT/lib/modules/$KVER/extra/siw.ko"
chroot "$ROOT" depmod -a "$KVER"
chroot "$ROOT" modinfo -F vermagic "/opt/warpbus-siw/default/siw.ko" | grep -q "^$KVER " ||
    die "siw.ko was not built for $KVER"

log "shaping the image"
install -m 0755 "$HERE/guest-init.sh" "$ROOT/sbin/warpbus-init"
# A small initramfs: only what mounts the root disk. MODULES=most would make TCG spend seconds unpacking drivers.
cat > "$ROOT/etc/initramfs-tools/conf.d/warpbus.conf" <<'EOF'
MODULES=list
COMPRESS=gzip
EOF
printf '%s\n' virtio_pci virtio_blk ext4 crc32c_generic > "$ROOT/etc/initramfs-tools/modules"
chroot "$ROOT" update-initramfs -u -k "$KVER" >"$WORK/initramfs.log" 2>&1 ||
    { tail -20 "$WORK/initramfs.log" >&2; die "update-initramfs failed"; }
echo warpbus-siw > "$ROOT/etc/hostname"
# Drop what only the build needed and what the guest never loads (graphics, sound, wireless, media drivers).
chroot "$ROOT" dpkg --purge linux-source-6.1 >/dev/null
rm -rf "$ROOT"/usr/src/linux-source-6.1 "$ROOT"/usr/src/siw-* "$ROOT"/var/cache/apt/archives/*.deb \
    "$ROOT"/var/lib/apt/lists/*_Packages
for drivers in gpu sound media net/wireless staging infiniband/hw; do
    rm -rf "$ROOT/lib/modules/$KVER/kernel/drivers/$drivers"
done
rm -rf "$ROOT/lib/modules/$KVER/kernel/sound"
chroot "$ROOT" depmod -a "$KVER"

mkdir -p "$WORK/out"
{
    echo "key=$key"
    echo "suite=$SUITE"
    echo "mirror=$MIRROR"
    echo "kernel=$KVER"
    printf '%s' "$versions"
    echo "siw-variants=${VARIANTS[*]}"
    echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$WORK/out/manifest.txt"
cp "$ROOT/boot/vmlinuz-$KVER" "$WORK/out/vmlinuz"
cp "$ROOT/boot/initrd.img-$KVER" "$WORK/out/initrd.img"
size_mb=$(( $(du -sm "$ROOT" | cut -f1) + 256 ))
mkfs.ext4 -q -F -L warpbus-siw -d "$ROOT" "$WORK/out/rootfs.ext4" "${size_mb}M" ||
    die "mkfs.ext4 -d failed (e2fsprogs >= 1.43 is needed)"
touch "$WORK/out/complete"
mv "$WORK/out" "$GUEST"
log "built $GUEST in $(( $(date +%s) - started )) s (image ${size_mb} MiB)"
echo "$GUEST"
