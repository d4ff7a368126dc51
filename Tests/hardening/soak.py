#!/usr/bin/env python3
"""The soak of issue 53 (Deliver 3): one box timing flying laps for HOURS
on the virtual clock (`ts-gate --simulate --fast --soak HOURS`: a pass every
30-90 s, the light flickering, two knocks), watched from outside:
  - speed: simulated seconds per second of wall time and per second of the
    box's own CPU time (the latter is what one free core would give);
  - resident memory, sampled every wall second against the simulated clock:
    flat after the first simulated minute (growth under 1 MiB);
  - every crossing timed (the box's own count against the scenario's truth),
    no frame dropped (every record's droppedFrames is 0: the simulated camera
    drops none on purpose).

  Tests/hardening/soak.py TS_GATE OUTDIR [--hours H] [--seed S]

Writes OUTDIR/rss.csv (wall s, simulated s, RSS KiB) and prints the figures.
"""
import argparse, glob, json, os, re, shutil, subprocess, sys, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("ts_gate")
ap.add_argument("outdir")
ap.add_argument("--hours", type=float, default=4)
ap.add_argument("--seed", type=int, default=53)
args = ap.parse_args()
data = os.path.join(args.outdir, "data")
shutil.rmtree(data, ignore_errors=True)
os.makedirs(data)
ticks = os.sysconf("SC_CLK_TCK")

box = subprocess.Popen([args.ts_gate, "--simulate", "--fast", "--soak", str(args.hours), "--seed", str(args.seed),
                        "--data-dir", data], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
virtual = [0.0]
lines = []


def read():
    for line in box.stdout:
        lines.append(line.rstrip("\n"))
        m = re.match(r"\[\s*(\d+\.\d+)\]", line)
        if m:
            virtual[0] = float(m.group(1))


reader = threading.Thread(target=read, daemon=True)
reader.start()
start = time.monotonic()
samples = []
cpu = 0.0
while box.poll() is None:
    try:
        with open("/proc/%d/status" % box.pid) as f:
            rss = int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
        with open("/proc/%d/stat" % box.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / ticks
        samples.append((time.monotonic() - start, virtual[0], rss))
    except (OSError, AttributeError):
        pass
    time.sleep(1)
wall = time.monotonic() - start
reader.join(timeout=10)
simulated = args.hours * 3600

with open(os.path.join(args.outdir, "rss.csv"), "w") as f:
    f.write("wall_s,simulated_s,rss_kib\n")
    for w, v, r in samples:
        f.write("%.1f,%.1f,%d\n" % (w, v, r))

failed = []


def check(name, ok, detail):
    print("check %s %s (%s)" % (name, "ok" if ok else "FAIL", detail), flush=True)
    if not ok:
        failed.append(name)


check("exit", box.returncode == 0, "exit status %d" % box.returncode)
found = [re.search(r"every simulated crossing was detected \((\d+) of (\d+)\)", l) for l in lines]
found = [m for m in found if m]
missed = [l for l in lines if l.startswith("missed ")]
check("every-crossing-timed", bool(found) and not missed,
      found[0].group(0) if found else (missed[0] if missed else "no summary line"))
records = []
for path in glob.glob(os.path.join(data, "session-*", "results.jsonl")):
    with open(path) as f:
        for raw in f:
            try:
                records.append(json.loads(raw))
            except ValueError:
                pass
crossings = [r for r in records if r.get("type") == "crossing"]
dropped = max([r.get("droppedFrames", 0) for r in crossings] or [0])
check("no-frame-dropped", dropped == 0, "%d crossings recorded, most frames dropped before one: %d" % (len(crossings), dropped))
early = [r for _, v, r in samples if v <= 60]
later = [r for _, v, r in samples if v > 60]
if early and later:
    growth = max(later) - max(early)
    check("memory-flat", growth < 1024, "RSS %d KiB in the first simulated minute, at most %d KiB after (%+d KiB), %d samples"
          % (max(early), max(later), growth, len(samples)))
else:
    check("memory-flat", False, "too few samples (%d)" % len(samples))
print("soak: %.2f h simulated in %.0f s wall (%.1fx real time), %.0f s of the box's CPU (%.1fx on one core); RSS %s KiB at the quarters"
      % (args.hours, wall, simulated / wall, cpu, simulated / max(cpu, 1e-9),
         ", ".join(str(samples[int(q * (len(samples) - 1))][2]) for q in (0, 0.25, 0.5, 0.75, 1)) if samples else "-"))
print("RESULT " + ("PASS" if not failed else "FAIL: " + " ".join(failed)))
sys.exit(0 if not failed else 1)
