#!/bin/sh
# The data partition is the last on the card and is built small (the image
# stays small to flash): grow it and its ext4 to the end of the card. Runs
# at every boot before the partition is checked and mounted (growing it
# mounted made systemd lose the mount now and then: the partition's device
# changes under it); does nothing once less than 1 MiB is left to take.
set -eu
source=$(awk '$2 == "/var/lib/ts-gate" { print $1 }' /etc/fstab)
link=/dev/disk/by-partuuid/${source#PARTUUID=}
for _ in $(seq 30); do [ -e "$link" ] && break; sleep 1; done
dev=$(readlink -f "$link")
name=${dev##*/}
disk=$(basename "$(readlink -f "/sys/class/block/$name/..")")
nr=$(cat "/sys/class/block/$name/partition")
end=$(( $(cat "/sys/class/block/$name/start") + $(cat "/sys/class/block/$name/size") ))
total=$(cat "/sys/class/block/$disk/size")
[ $(( total - end )) -ge 2048 ] || exit 0
echo "growing $dev to the end of /dev/$disk ($(( (total - end) / 2048 )) MiB more)"
# Root is mounted from this disk: write the table, then tell the kernel the
# one partition's new size (BLKPG) instead of re-reading the whole table.
echo ', +' | sfdisk --quiet --no-reread --no-tell-kernel -N "$nr" "/dev/$disk"
partx --update --nr "$nr" "/dev/$disk"
udevadm settle
e2fsck -f -p "$dev"
resize2fs "$dev"
