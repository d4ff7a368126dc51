#!/bin/bash
# The SD image's Wi-Fi access point, for the coach's phone, as ts-gate.conf
# on the boot partition asks: wifi.ssid and wifi.passphrase (both, or no
# access point), wifi.country, wifi.channel. ts-gate.service checks those
# values like any other key and refuses a bad one by its line; this script
# only starts what they describe: hostapd (WPA2) on the board's first
# wireless interface, the box at 192.168.4.1, and systemd-networkd's DHCP
# server for the phones that join. The passphrase is never logged.
set -u
conf=/boot/firmware/ts-gate.conf
ADDRESS=192.168.4.1
say() { echo "ts-gate-wifi: $*"; }
# value NAME: the last `NAME = value` line's value, up to a '#' (a comment),
# trimmed; spaces inside it are kept.
value() {
    sed -n "s/^[[:space:]]*$1[[:space:]]*=\([^#]*\).*/\1/p" "$conf" 2>/dev/null | tail -n 1 |
        sed 's/^[[:space:]]*//; s/[[:space:]]*$//'
}
ssid=$(value 'wifi\.ssid')
pass=$(value 'wifi\.passphrase')
country=$(value 'wifi\.country')
channel=$(value 'wifi\.channel')
if [ -z "$ssid" ] && [ -z "$pass" ]; then
    say "no wifi.ssid and wifi.passphrase in ts-gate.conf: no access point"
    exit 0
fi
# The same rules ts-gate applies (BoxSettings): a value it refuses starts nothing.
bad() { say "$1: no access point (ts-gate's log names the line)"; exit 0; }
[ -n "$ssid" ] && [ ${#ssid} -le 32 ] || bad "wifi.ssid must be 1 to 32 characters, and given with wifi.passphrase"
[ ${#pass} -ge 8 ] && [ ${#pass} -le 63 ] && ! printf '%s' "$pass" | LC_ALL=C grep -q '[^ -~]' ||
    bad "wifi.passphrase must be 8 to 63 printable ASCII characters"
[ -z "$country" ] || [[ $country =~ ^[A-Z][A-Z]$ ]] || bad "wifi.country must be two capital letters such as GB"
channel=${channel:-6}
[[ $channel =~ ^([1-9]|1[0-3])$ ]] || bad "wifi.channel must be 1 to 13"

# The first wireless interface; a USB dongle or the Pi's SDIO radio may
# appear a few seconds into the boot, once its firmware has loaded.
iface=
for _ in $(seq 1 40); do
    for d in /sys/class/net/*; do
        [ -e "$d/phy80211" ] && { iface=${d##*/}; break 2; }
    done
    sleep 0.5
done
[ -n "$iface" ] || { say "wifi.ssid = $ssid, but this board has no wireless interface: no access point"; exit 0; }

install -d -m 0700 /run/ts-gate
umask 077
{
    echo "interface=$iface"
    echo "driver=nl80211"
    echo "ssid=$ssid"
    echo "utf8_ssid=1"
    echo "hw_mode=g"
    echo "channel=$channel"
    [ -z "$country" ] || printf 'country_code=%s\nieee80211d=1\n' "$country"
    echo "wpa=2"
    echo "wpa_key_mgmt=WPA-PSK"
    echo "rsn_pairwise=CCMP"
    echo "wpa_passphrase=$pass"
} >/run/ts-gate/hostapd.conf
umask 022
mkdir -p /run/systemd/network
cat >/run/systemd/network/50-ts-gate-ap.network <<NETWORK
# Written by /usr/lib/ts-gate/wifi-ap.sh: the box's access point.
[Match]
Name=$iface

[Network]
Address=$ADDRESS/24
DHCPServer=yes
ConfigureWithoutCarrier=yes

[DHCPServer]
PoolOffset=10
PoolSize=40
EmitDNS=no
EmitRouter=no
NETWORK
systemctl restart systemd-networkd.service
systemctl start --no-block ts-gate-wifi-ap.service
say "access point \"$ssid\" on $iface, channel $channel${country:+, $country rules}: the box is $ADDRESS"
exit 0
