#!/usr/bin/env bash
# Build gpio-sim.ko out of tree against the cached Debian headers (Debian's
# kernels ship without CONFIG_GPIO_SIM) and install it into the cached module
# tree as extra/gpio-sim.ko (then depmod). Idempotent: a re-run is a no-op.
#
#   Tests/vm/build-gpio-sim.sh
#
# Module = gpio-sim.c + gpiolib.h + a local copy of kernel/irq/irq_sim.c
# (CONFIG_IRQ_SIM is off) with its EXPORT_SYMBOL_GPL lines dropped and
# handle_simple_irq(irq_to_desc(irq)) replaced by generic_handle_irq(irq)
# (irq_to_desc is not exported to modules).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

"$VM_DIR/fetch-kernel.sh"
load_kernel_env
take_lock gpio-sim

ensure_kernel_compiler

SELF=$VM_DIR/${BASH_SOURCE[0]##*/}
OUT=$KDIR/gpio-sim
KO=$OUT/gpio-sim.ko
KEY=$(fingerprint "$SELF" "$KVER" "$KPKGVER" "$KSRC/drivers/gpio/gpio-sim.c" \
      "$KSRC/drivers/gpio/gpiolib.h" "$KSRC/kernel/irq/irq_sim.c")

if ! stamp_ok "$OUT/.stamp" "$KEY" || [ ! -f "$KO" ]; then
    log "building gpio-sim.ko for $KVER"
    rm -rf "$OUT" "$OUT.tmp"
    mkdir -p "$OUT.tmp"
    B=$OUT.tmp
    cp "$KSRC/drivers/gpio/gpio-sim.c" "$B/gpio-sim-main.c"
    cp "$KSRC/drivers/gpio/gpiolib.h" "$B/gpiolib.h"
    cp "$KSRC/kernel/irq/irq_sim.c" "$B/irq_sim_local.c"
    sed -i -e '/^EXPORT_SYMBOL_GPL(/d' \
        -e 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' \
        "$B/irq_sim_local.c"
    grep -q 'generic_handle_irq(' "$B/irq_sim_local.c" ||
        die "irq_sim.c: the handle_simple_irq(irq_to_desc(...)) call was not found"
    ! grep -q 'EXPORT_SYMBOL\|irq_to_desc' "$B/irq_sim_local.c" ||
        die "irq_sim.c: leftover EXPORT_SYMBOL or irq_to_desc"
    cat >"$B/Kbuild" <<'EOF'
obj-m := gpio-sim.o
gpio-sim-y := gpio-sim-main.o irq_sim_local.o
EOF
    build_module gpio-sim "$B"
    mv "$B" "$OUT"
    stamp_set "$OUT/.stamp" "$KEY"
fi

install_module gpio-sim "$KO"
