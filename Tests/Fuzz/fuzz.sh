#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser that takes outside input (issue
# 53): Y4M clips, raw MJPEG streams and MJPEG AVIs, configuration files,
# the results reader, the athletes file, seed 002's messages and fragments,
# ATT PDUs, the binary clock sync packet and the coach page's HTTP requests.
# libFuzzer, through swiftc -sanitize=fuzzer: a
# build of its own (.build-fuzz, -D GATE_FUZZ; Tests/Fuzz/main.swift).
#
#   Tests/Fuzz/fuzz.sh [SECONDS] [TARGET...]     (default 60 s each, every target)
#
# Seed corpora are made from the project's own inputs into build/fuzz/corpus
# and kept there, growing run to run. An input that traps is saved under
# build/fuzz/crashes/TARGET/ and the run fails, naming it; copy it into
# Tests/Fuzz/regressions/TARGET/ with the fix, where the plain build replays
# it in every `make test` (`gate-fuzz TARGET FILE...`).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
cd "$REPO"
say() { echo "fuzz: $*"; }
die() { echo "fuzz: FAIL: $*" >&2; exit 1; }
SECONDS_EACH=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(y4m mjpeg avi config results athletes message fragments att clocksync http)
OUT=build/fuzz
mkdir -p "$OUT"

swift build -c release --product gate-fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -DGATE_FUZZ \
    >"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log" >&2; die "the fuzz build failed"; }
FUZZ=.build-fuzz/release/gate-fuzz

# Seeds: small valid inputs of each kind, from the project's own files.
seed() {   # target name < bytes
    mkdir -p "$OUT/corpus/$1"
    cat >"$OUT/corpus/$1/$2"
}
python3 - "$OUT/seed.y4m" "$OUT/seed.pgm" <<'PY'
import sys
w, h = 32, 24
with open(sys.argv[1], "wb") as f:
    f.write(b"YUV4MPEG2 W%d H%d F120:1 Ip A1:1 C420jpeg XYSCSS=420JPEG\n" % (w, h))
    for k in range(3):
        f.write(b"FRAME\n" + bytes((x * 7 + y * 3 + k * 31) & 255 for y in range(h) for x in range(w)) + bytes([128]) * (w * h // 2))
with open(sys.argv[2], "wb") as f:
    f.write(b"P5\n%d %d\n255\n" % (w, h) + bytes((x * 7 + y * 3) & 255 for y in range(h) for x in range(w)))
PY
seed y4m clip.y4m <"$OUT/seed.y4m"
printf 'YUV4MPEG2 W16 H16 F30000:1001 Cmono\nFRAME\n%256s' '' | seed y4m mono.y4m
cjpeg -quality 75 -outfile "$OUT/seed.jpg" "$OUT/seed.pgm"
cat "$OUT/seed.jpg" "$OUT/seed.jpg" | seed mjpeg two.mjpeg
python3 Tests/mjpeg/y4m-to-mjpeg.py "$OUT/seed.y4m" "$OUT/seed.avi" --quality 75 >/dev/null
seed avi clip.avi <"$OUT/seed.avi"
for conf in board/*/board.conf board/ts-gate.conf.example; do seed config "$(echo "$conf" | tr / _)" <"$conf"; done
cat <<'JSONL' | seed results session.jsonl
{"type":"session","sessionId":"s1","startedAt":"2026-11-29T12:00:00Z","deviceId":"ts-gate-vm-rig","startType":"flying"}
{"type":"crossing","sessionId":"s1","lap":1,"crossingTimeNanos":1500000000,"uncertaintyMs":0.4,"direction":"ltr"}
{"type":"session_end","sessionId":"s1","reason":"completed"
JSONL
cat <<'JSONL' | seed athletes athletes.jsonl
{"type":"athlete","id":"athlete-0001","name":"Ada Quick","nickname":"Ace","colour":"red","birthdate":"2009-04-17","gender":"female","timestamp":1}
{"type":"athlete_removed","id":"athlete-0001","timestamp":2}
{"type":"season","name":"2027","timestamp":3}
{"type":"athlete","id":"athlete-0002","name":"Ben
JSONL
printf '%s' '{"type":"session_create","timestamp":1706000000000,"deviceId":"abc-123","payload":{"sessionId":"s","sessionCode":"012345","hostRole":"start","settings":{"startType":"touchRelease"},"protocolVersion":"1.0","appVersion":"1.2.3","platform":"android","capabilities":{"highSpeedCamera":true,"maxFps":240,"binaryClockSync":true,"multiGate":false}}}' | seed message create.json
printf '%s' '{"type":"session_join","timestamp":5,"deviceId":"box","payload":{"sessionId":"s","requestedRole":"lap","protocolVersion":"1.1","platform":"ts-gate","capabilities":{"maxFps":120}}}' | seed message join.json
printf '\x10\x01\x01\x00{"type":"x"}' | seed fragments one.bin
printf '\x02\x17\x00' | seed att mtu.bin
printf '\x0a\x01\x00\xff\xff\x00\x28' | seed att read-by-group.bin
printf '\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x02' | seed clocksync ping.bin
printf '\x05GET /api/state?x=1 HTTP/1.1\r\nHost: 192.168.4.1\r\nCookie: a=1; pin=4821\r\nConnection: keep-alive\r\n\r\nGET / HTTP/1.0\n\n' | seed http get.bin
printf '\x40POST /api/arm HTTP/1.1\r\nContent-Length: 12\r\n\r\npin=48%%2B21&x' | seed http post.bin

failed=()
for target in "${TARGETS[@]}"; do
    mkdir -p "$OUT/corpus/$target" "$OUT/crashes/$target"
    log="$OUT/$target.log"
    # The inputs that once trapped, each run once first.
    regressions=(Tests/Fuzz/regressions/$target/*)
    if [ -e "${regressions[0]}" ]; then
        GATE_FUZZ_TARGET=$target "$FUZZ" "${regressions[@]}" >"$log" 2>&1 ||
            { say "$target: a saved regression traps again (log $log)"; failed+=("$target"); continue; }
    fi
    if GATE_FUZZ_TARGET=$target "$FUZZ" -max_total_time="$SECONDS_EACH" -rss_limit_mb=1024 -max_len=65536 \
        -artifact_prefix="$OUT/crashes/$target/" "$OUT/corpus/$target" >"$log" 2>&1; then
        runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 | grep -o '[0-9]*')
        say "$target: ${runs:-?} inputs in $SECONDS_EACH s, corpus $(ls "$OUT/corpus/$target" | wc -l), nothing trapped"
    else
        say "$target: TRAPPED: $(ls "$OUT/crashes/$target" | head -3 | tr '\n' ' ')(log $log)"
        grep -m3 -E 'Fatal error|ERROR|SUMMARY' "$log" >&2 || true
        failed+=("$target")
    fi
done
[ ${#failed[@]} -eq 0 ] || die "inputs that trap: ${failed[*]} (build/fuzz/crashes/; reproduce: GATE_FUZZ_TARGET=T $FUZZ FILE)"
say "PASS: ${#TARGETS[@]} targets, $SECONDS_EACH s each"
