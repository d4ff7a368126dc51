#!/bin/sh
# The data partition is the last on the card and is built small (the image
# stays small to flash): grow it and its ext4 to the end of the card. Runs
# at every boot; does nothing once there is less than 1 MiB left to take.
set -eu
dev=$(findmnt -no SOURCE /var/lib/ts-gate)
name=${dev##*/}
disk=$(basename "$(readlink -f "/sys/class/block/$name/..")")
nr=$(cat "/sys/class/block/$name/partition")
end=$(( $(cat "/sys/class/block/$name/start") + $(cat "/sys/class/block/$name/size") ))
total=$(cat "/sys/class/block/$disk/size")
[ $(( total - end )) -ge 2048 ] || exit 0
echo "growing $dev to the end of /dev/$disk ($(( (total - end) / 2048 )) MiB more)"
# The partition is mounted: write the table only, then tell the kernel the
# one partition's new size (BLKPG) and grow the mounted ext4 online.
echo ', +' | sfdisk --quiet --no-reread --no-tell-kernel -N "$nr" "/dev/$disk"
partx --update --nr "$nr" "/dev/$disk"
resize2fs "$dev"
