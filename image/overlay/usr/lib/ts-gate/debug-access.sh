#!/bin/bash
# The SD image's debug access, for this boot only, as ts-gate.conf on the
# boot partition asks (ts-gate.service checks those keys' values like any
# other): debug.console = on starts a root shell on the kernel's console,
# debug.ssh = on starts sshd for the keys in authorized_keys beside it. Both
# are off unless asked: a box in a field has no one at a console, and no
# password opens it.
set -u
conf=/boot/firmware/ts-gate.conf
say() { echo "ts-gate-debug: $*"; }
# key NAME: the value of the last `NAME = value` line, if any.
key() {
    sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\([^[:space:]#]*\).*/\1/p" "$conf" 2>/dev/null | tail -n 1
}

if [ "$(key 'debug\.console')" = on ]; then
    # The last console= of the kernel command line is /dev/console.
    tty=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^console=\([^,]*\).*/\1/p' | tail -n 1)
    if [ -n "$tty" ] && [ -c "/dev/$tty" ]; then
        say "debug.console = on: a root shell on $tty"
        systemctl start --no-block "ts-gate-debug-console@$tty.service"
    else
        say "debug.console = on, but the kernel names no serial console (console=): nothing started"
    fi
fi

if [ "$(key 'debug\.ssh')" = on ]; then
    keys=/boot/firmware/authorized_keys
    if ! grep -q '^[[:space:]]*\(ssh-\|ecdsa-\|sk-\)' "$keys" 2>/dev/null; then
        say "debug.ssh = on, but $keys holds no public key: sshd not started (no passwords on this box)"
    else
        # Every card its own host key, kept on the data partition (the root
        # is read-only and shared by every image).
        dir=/var/lib/ts-gate/.debug-ssh
        install -d -m 0700 -o root -g root "$dir"
        [ -s "$dir/ssh_host_ed25519_key" ] || ssh-keygen -q -t ed25519 -N '' -C "ts-gate $(hostname)" -f "$dir/ssh_host_ed25519_key"
        say "debug.ssh = on: sshd for the keys in $keys, host key $(ssh-keygen -l -f "$dir/ssh_host_ed25519_key.pub" | cut -d' ' -f2)"
        systemctl start --no-block ssh.service
    fi
fi
exit 0
