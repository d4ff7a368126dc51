# ts-gate: the two things a person runs are `make simulate` and `make test`.
# Both install what they need (Debian/Ubuntu packages via apt-get, the arm64
# sysroot, the VM rig's kernel), caching downloads under ~/.cache/ts-gate.
#
#   make simulate        a whole simulated session of one box, in real time
#   make test            unit and end-to-end tests, cross-build check, VM rig,
#                        the coach's page in Chromium, kill -9, a short soak
#   make firmware        static Embedded Swift firmware, ARCH=aarch64|x86_64
#   make voice           the voice's WAV clips (espeak-ng), build/voice
#   make image           the SD card image, BOARD=generic-x86|rpi4 (build/image/)
#   make test-image      boots that image in qemu and checks the box's service
#   make accuracy        detection error on the rendered corpus, per mode and fps
#   make accuracy-second the same on clips of a second, independent renderer
#   make accuracy-third  the same on a third body model (published kinematics)
#   make accuracy-sync   two boxes' clock sync error over the simulated BLE link
#   make bench           per-frame cost and mallocs of the detector and the loop
#   make fuzz            libFuzzer on every parser of outside input, FUZZ_SECONDS each
#   make soak            SOAK_HOURS (4) of flying laps: speed, memory, every crossing
#   make deps            the Debian packages the host build needs
#   make results         print the sessions saved by `make simulate`
#   make clean           remove build outputs (keeps ~/.cache/ts-gate)

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

ARCH ?= aarch64
BOARD ?= generic-x86
SEED ?= 1
RUNS ?= 4
FPS ?= 120
SIM_ARGS ?=
DATA_DIR ?= $(HOME)/.local/share/ts-gate

# Headers the C shim includes, a qemu to run the aarch64 firmware, `file`,
# cjpeg (the MJPEG conversion test encodes its frames with it), libjpeg's
# headers (gate-accuracy --mjpeg encodes with it; the firmware only decodes).
HOST_PACKAGES := libv4l-dev libgpiod-dev libbluetooth-dev libasound2-dev \
                 libi2c-dev zlib1g-dev linux-libc-dev qemu-user-static file \
                 libjpeg-turbo-progs libjpeg-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# One host build for everything: optimised (the detector's pixel loops run
# 20-50 times slower unoptimised, and the firmware is optimised too), with
# -enable-testing for the tests' @testable imports. Every release build
# here uses the same flags, so SwiftPM never rebuilds for a flag change.
SWIFT_RELEASE := -c release -Xswiftc -enable-testing
RELEASE_BIN := .build/release/ts-gate
HOST_BIN := $(RELEASE_BIN)

.PHONY: help deps swift-check voice build simulate results firmware accuracy accuracy-second accuracy-third accuracy-sync bench fuzz test test-unit test-cross test-vm test-second test-fuzz test-http test-kill soak test-soak test-fresh-fetch image test-image clean

help:
	@sed -n '1,22p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@missing=""; for p in $(HOST_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "deps: installing$$missing"; \
	    $(SUDO) apt-get update -qq; \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	else echo "deps: host packages present"; fi

swift-check:
	@command -v swift >/dev/null || { echo "swift: not found. ts-gate needs a Swift 6.3 toolchain on PATH (Debian ships none; use the swift.org toolchain)." >&2; exit 1; }

build: deps swift-check
	swift build $(SWIFT_RELEASE) --product ts-gate

# The box's spoken words, one WAV each (image/voice/phrases.tsv), made by
# Debian's espeak-ng; the simulator, the firmware and the image use them.
voice:
	image/voice/make-voice.sh build/voice

simulate: deps swift-check voice
	swift build $(SWIFT_RELEASE) --product ts-gate
	$(RELEASE_BIN) --simulate --seed $(SEED) --runs $(RUNS) --fps $(FPS) --data-dir "$(DATA_DIR)" $(SIM_ARGS)

results: swift-check
	@[ -x $(RELEASE_BIN) ] || swift build $(SWIFT_RELEASE) --product ts-gate
	$(RELEASE_BIN) results --data-dir "$(DATA_DIR)"

firmware: deps swift-check voice
	image/firmware.sh $(ARCH)

# The SD card image of BOARD (board/BOARD/image.conf): Debian bookworm from
# mmdebstrap (cached under ~/.cache/ts-gate/image, rebuilt after 7 days),
# the static firmware as the box's systemd service, FAT boot partition with
# ts-gate.conf, read-only root, data partition; no loop devices, no mounts.
# Writes build/image/ts-gate-BOARD-VERSION.img, .img.zst, .img.bmap, .sha256.
# About 3 min cold (rpi4: 7, its rootfs under qemu-user), 1 min warm, plus
# the firmware build.
image: deps swift-check
	image/firmware.sh $$(. board/$(BOARD)/image.conf && echo $$IMAGE_FIRMWARE_ARCH)
	image/build-image.sh $(BOARD) build/$$(. board/$(BOARD)/image.conf && echo $$IMAGE_FIRMWARE_ARCH)/ts-gate

# Boots the generic-x86 image in qemu (TCG) and checks, from its verdict on
# the serial console: read-only root, data partition writable and grown,
# selftest naming what the VM lacks, the service active on the VM rig's
# devices, a hung loop (SIGSTOP) killed by the watchdog and restarted, an
# edited ts-gate.conf on the boot partition read, no serial login or SSH;
# after a hard reset, the results intact, a broken ts-gate.conf refused by
# line while the service runs on the last good one, SSH and the serial
# console's shell when ts-gate.conf asks; an access point on mac80211_hwsim
# when it names one. Then the rpi4 image (its arm64 rootfs) on qemu's virt
# machine through the same checks, on test drivers cross-built for arm64.
# About 5 min with cached root filesystems (cold: 2 min more for amd64, 6
# for arm64 under qemu-user); in `make test`.
test-image:
	$(MAKE) image BOARD=generic-x86
	Tests/image/boot-test.sh generic-x86
	$(MAKE) image BOARD=rpi4
	Tests/image/boot-test.sh rpi4

# Renders the accuracy corpus (60 clips over 30/60/120/240 fps, runners and
# scenes that must not trigger), detects in the Y4M time base, prints the
# error table per mode and frame rate. About 90 s on 2 cores, so not in
# `make test` (which checks a small slice of it). ACCURACY_ARGS=--factors
# varies one physical factor at a time instead; ACCURACY_ARGS='--stress 8'
# tries conditions unlike the corpus (early crossings, a runner moving in the
# first frame, near and far cameras, full HD, grey clothing, heavy noise,
# slim and deep torsos, thick limbs); --verbose shows every clip, --trace
# (with --filter CLIP) the measured and the true front per frame.
ACCURACY_ARGS ?=
accuracy: swift-check
	swift build $(SWIFT_RELEASE) --product gate-accuracy
	.build/release/gate-accuracy $(ACCURACY_ARGS)

# The second renderer (Tests/second-renderer: numpy, written apart from
# GateSim from the issue's time base alone, so its runners are not the ones
# the detector was tuned on): renders SECOND_COUNT runner clips and 10 that
# must not trigger once into build/second-renderer/, then replays each with
# `ts-gate replay` in both modes and prints the error per mode and frame
# rate. SECOND_PROFILE=hard: shaded and striped shirts, low contrast,
# textured scenes. About 2 minutes to render (5-6 GB of Y4M), 1 to replay.
# SECOND_ARGS passes options on, e.g. --verbose or --out FILE.
# SECOND_TORSO_ONLY=1 renders the same runners as their torsos alone: the
# errors left are the time base's and the torso front's, not segmentation's
# (a lone torso is often too short or too deep to be a person: a miss).
# Its quiet scenes would be the full set's again: it renders none.
# SECOND_MJPEG=Q replays every clip as a webcam's MJPEG AVI instead, JPEG
# quality Q, 4:2:2 (cjpeg; cached in the set's mjpeg-qQ/, about 1 s a clip),
# decoded by libv4lconvert as the box decodes an MJPEG camera.
SECOND_PROFILE ?= plain
SECOND_SEED ?= 1
SECOND_COUNT ?= 48
SECOND_ARGS ?=
SECOND_TORSO_ONLY ?=
SECOND_MJPEG ?=
SECOND_DIR := build/second-renderer/$(SECOND_PROFILE)-$(SECOND_SEED)-$(SECOND_COUNT)$(if $(SECOND_TORSO_ONLY),-torso)
accuracy-second: swift-check
	swift build $(SWIFT_RELEASE) --product ts-gate
	py=$$(Tests/second-renderer/numpy-python.sh); \
	[ -f $(SECOND_DIR)/.complete ] || { "$$py" Tests/second-renderer/render.py $(SECOND_DIR) \
	    --count $(SECOND_COUNT) --seed $(SECOND_SEED) --profile $(SECOND_PROFILE) --jobs 2 \
	    $(if $(SECOND_TORSO_ONLY),--torso-only --quiet-count 0,--quiet-count 10) >/dev/null \
	    && touch $(SECOND_DIR)/.complete; }; \
	"$$py" Tests/second-renderer/evaluate.py $(RELEASE_BIN) $(SECOND_DIR) --jobs 2 \
	    $(if $(SECOND_MJPEG),--mjpeg $(SECOND_MJPEG)) $(SECOND_ARGS)

# The third renderer (Tests/third-renderer: numpy, a body model from published
# anthropometry and sprint kinematics, sharing nothing with GateSim or the
# second renderer): a sweep of THIRD_COUNT runners (the near arm's gait phase
# at the crossing over 8 phases x 30/60/120/240 fps x 3 speed bands, 3-11.5
# m/s) and 4 scenes that must not trigger, rendered once into
# build/third-renderer/, then replayed with the second renderer's evaluate.py
# in both modes. About 10 minutes to render on 2 shared cores (7.4 GB of Y4M).
# THIRD_ARGS passes options on (--verbose, --out FILE); THIRD_MJPEG=Q replays
# every clip as a webcam's MJPEG AVI at JPEG quality Q (cached in mjpeg-qQ/);
# THIRD_TORSO_ONLY=1 the same runners' torsos alone (checks the truth);
# THIRD_SURGE=1 with the speed dipping in each step's braking.
# Tests/third-renderer/sweep.py FILE tabulates an --out FILE by arm phase and speed.
THIRD_SEED ?= 1
THIRD_COUNT ?= 96
THIRD_ARGS ?=
THIRD_MJPEG ?=
THIRD_TORSO_ONLY ?=
THIRD_SURGE ?=
THIRD_DIR := build/third-renderer/$(THIRD_SEED)-$(THIRD_COUNT)$(if $(THIRD_TORSO_ONLY),-torso)$(if $(THIRD_SURGE),-surge)
accuracy-third: swift-check
	swift build $(SWIFT_RELEASE) --product ts-gate
	py=$$(Tests/second-renderer/numpy-python.sh); \
	[ -f $(THIRD_DIR)/.complete ] || { "$$py" Tests/third-renderer/render.py $(THIRD_DIR) \
	    --count $(THIRD_COUNT) --seed $(THIRD_SEED) --jobs 2 $(if $(THIRD_SURGE),--surge) \
	    $(if $(THIRD_TORSO_ONLY),--torso-only --quiet-count 0,--quiet-count 4) >/dev/null \
	    && touch $(THIRD_DIR)/.complete; }; \
	"$$py" Tests/second-renderer/evaluate.py $(RELEASE_BIN) $(THIRD_DIR) --jobs 2 \
	    $(if $(THIRD_MJPEG),--mjpeg $(THIRD_MJPEG)) $(THIRD_ARGS)

# Clock sync between two boxes over the simulated BLE air (GateSim's
# SimulatedAir: connection events, host-controller latency and jitter, loss,
# drops; two drifting clocks): per link profile and connection interval, the
# sync error's median, p95 and max over SYNC_SEEDS sessions, plain (seed
# 002's exchange) and precise (the radio's acknowledgement stamps), then a
# 4-hour session at +-50 ppm; then whole 2-box races (ts-gate --simulate
# --boxes 2) and their split error. About 2 minutes; a slice runs in `make test`.
SYNC_ARGS ?=
accuracy-sync: swift-check
	swift build $(SWIFT_RELEASE) --product gate-sync
	swift build $(SWIFT_RELEASE) --product ts-gate
	.build/release/gate-sync --ts-gate .build/release/ts-gate $(SYNC_ARGS)

# Benchmarks (ordo-one/benchmark; a package of its own in Tests/Benchmarks, so
# it never enters the host or firmware builds): the photo-finish detector per
# frame at 640x480 and 1280x720 on pre-rendered frames, and the whole loop on
# the simulated platform at 120 fps, with malloc counts (house rule 3: zero
# per frame). First build about 2 minutes on 2 cores; not in `make test`.
# BENCH_ARGS passes options on, e.g. --filter "detector.*" or --allocation-stacks.
BENCH_ARGS ?=
bench: deps swift-check
	swift package --package-path Tests/Benchmarks --scratch-path .build-bench \
	    benchmark --target GateBenchmarks --no-progress $(BENCH_ARGS)

# Unit tests and whole simulated sessions (host build, swift-testing):
# about 3 min to build, 25 s to run (optimised; unoptimised they took 19 min).
test-unit: build
	swift build $(SWIFT_RELEASE) --build-tests
	swift test $(SWIFT_RELEASE) --skip-build

# The aarch64 firmware under qemu writes what the host writes, seed for seed;
# the firmware's static MJPEG decode allocates nothing per frame.
test-cross: build
	image/firmware.sh aarch64
	Tests/cross/cross-check.sh $(HOST_BIN) build/aarch64/ts-gate
	Tests/mjpeg/decode-mallocs.sh

# The time base against a second renderer that shares nothing with GateSim
# (a lone torso, 30-240 fps, rolling shutter: within 0.25 ms of its truth),
# then twelve of its whole runners (each timed, within 20 ms: no hand or
# head taken for the torso), then five runners whose tracks once broke (each
# timed, within 5 ms), runners picked for fronts once read wrong, and twenty
# scenes with nothing to time, ten of them again as MJPEG AVIs at JPEG
# quality 50 (the `ts-gate replay` of webcam files). The checks are listed
# in check.sh; about 5 minutes.
test-second: build
	Tests/second-renderer/check.sh $(HOST_BIN)

# Real kernel drivers in a VM: the rig's self-check, the static x86_64
# firmware's CPU floor (under qemu-user), then its scenarios against vivid,
# i2c-stub, gpio-sim, snd-aloop and v4l2loopback (an MJPEG-only camera).
test-vm: deps swift-check voice
	Tests/vm/boot.sh drivers
	image/firmware.sh x86_64
	Tests/cross/cpu-floor.sh build/x86_64/ts-gate
	Tests/vm/boot.sh selftest build/x86_64/ts-gate board/vm-rig/board.conf
	Tests/vm/boot.sh ble-link build/x86_64/ts-gate board/vm-rig/board.conf
	Tests/vm/boot.sh ble-gatttool build/x86_64/ts-gate board/vm-rig/board.conf
	Tests/vm/boot.sh ble-race build/x86_64/ts-gate board/vm-rig/board.conf
	Tests/vm/boot.sh ble-pair build/x86_64/ts-gate board/vm-rig/board.conf
	Tests/vm/boot.sh run build/x86_64/ts-gate board/vm-rig/board.conf
	Tests/vm/boot.sh touch build/x86_64/ts-gate board/vm-rig/board.conf
	Tests/vm/boot.sh countdown build/x86_64/ts-gate board/vm-rig/board.conf
	Tests/vm/boot.sh voice build/x86_64/ts-gate board/vm-rig/board.conf build/voice
	Tests/vm/boot.sh camera build/x86_64/ts-gate board/vm-rig/board.conf
	build/x86_64/ts-gate render rig-vivid-640x480-60 --raw --out build/vm/rig.raw >/dev/null
	build/x86_64/ts-gate render rig-vivid-640x480-60 --out build/vm/rig.y4m >/dev/null
	build/x86_64/ts-gate replay build/vm/rig.y4m --json --exposure-ms 1 | sed -n "s/.*\"crossingTimeNanos\":\([0-9]*\).*/\1/p" >build/vm/rig.expected
	Tests/vm/boot.sh inject build/x86_64/ts-gate board/vm-rig/board.conf build/vm/rig.raw build/vm/rig.expected
	Tests/vm/boot.sh announce build/x86_64/ts-gate board/vm-rig/board.conf build/vm/rig.raw build/voice
	Tests/vm/mjpeg-clip.sh build/vm/rig.raw 640 480 build/vm/rig.mjpeg
	Tests/vm/boot.sh mjpeg build/x86_64/ts-gate board/vm-rig/board.conf build/vm/rig.mjpeg build/vm/rig.mjpeg.frame-bytes

# What a new machine downloads, with an empty cache in a temporary HOME: the
# VM rig's kernel packages (chosen from what the archive offers today, built
# against by gpio-sim and v4l2loopback), the arm64 sysroot, numpy. About 2
# minutes and 300 MB; in `make test` because CI's warm cache would hide it.
test-fresh-fetch: deps
	Tests/cross/fresh-fetch.sh

# Order: the slow-to-fail checks first, the unit tests last so their summary
# closes the log.
# Coverage-guided fuzzing (libFuzzer through swiftc -sanitize=fuzzer, a
# build of its own in .build-fuzz) of every parser of outside input: Y4M,
# MJPEG streams and AVIs, configuration, results, seed 002's messages and
# fragments, ATT PDUs, the clock sync packet, HTTP requests. FUZZ_SECONDS each (corpora
# kept in build/fuzz/corpus); `make test` runs each for 5 s and replays the
# inputs saved in Tests/Fuzz/regressions. About 4 min to build.
FUZZ_SECONDS ?= 60
fuzz: deps swift-check
	Tests/Fuzz/fuzz.sh $(FUZZ_SECONDS)

test-fuzz: deps swift-check
	Tests/Fuzz/fuzz.sh 5

# The coach's page in Debian's headless Chromium (installed the first time,
# about 250 MB): a simulated session in real time, each lap on the page
# within 1 s, refusals, 50 connections of load for 10 s with no crossing
# lost and memory flat, a phone-sized screenshot in build/http. About 40 s.
test-http: build
	Tests/http/check.sh $(HOST_BIN) build/http

# kill -9 at 200 random moments of simulated sessions, one after another in
# one data directory: every crossing the box announced is in its file, a
# torn last line (every tenth session's cut in half) is reported and skipped,
# each next session opens cleanly. About 3 minutes.
test-kill: build
	python3 Tests/hardening/kill-9.py $(HOST_BIN) build/kill-9 --kills 200

# The soak: SOAK_HOURS of flying laps on the virtual clock (a pass every
# 30-90 s, flickering light, two knocks), its speed, resident memory over
# time (build/soak/rss.csv), every crossing timed, no frame dropped. The
# 4-hour soak takes about 6 minutes on a free core; `make test` runs half an
# hour of it (about 1 minute).
SOAK_HOURS ?= 4
soak: build
	python3 Tests/hardening/soak.py $(HOST_BIN) build/soak --hours $(SOAK_HOURS)

test-soak: build
	python3 Tests/hardening/soak.py $(HOST_BIN) build/soak --hours 0.5

test: test-fresh-fetch test-cross test-vm test-image test-second test-fuzz test-http test-kill test-soak test-unit

clean:
	rm -rf build .build .build-fw-aarch64 .build-fw-x86_64 .build-bench
