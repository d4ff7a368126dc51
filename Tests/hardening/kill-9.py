#!/usr/bin/env python3
"""kill -9 at random moments (issue 53, Deliver 2): a simulated session is
killed with SIGKILL at KILLS random instants, one session after another in
one data directory, as a box whose power is pulled again and again. After
each kill:
  - every crossing the box had announced (its flash-and-buzzer line, printed
    only after the record was written and fsync'd) is in that session's
    results file, with the split the box said;
  - the session's file reads back (`ts-gate results --session ID` exits 0);
    every TORN_EVERY-th session also has its last line cut in half, as a
    power cut mid-write leaves it, and that line is reported as torn and
    skipped while the others are listed;
  - the next start opens a new session with its own number, after the last.
At the end `ts-gate results` reads every session at once.

  Tests/hardening/kill-9.py TS_GATE OUTDIR [--kills N] [--seed S]

Prints one line per failure and a summary; exits 0 only when nothing was lost.
"""
import argparse, json, os, random, re, select, shutil, signal, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("ts_gate")
ap.add_argument("outdir")
ap.add_argument("--kills", type=int, default=200)
ap.add_argument("--seed", type=int, default=53)
ap.add_argument("--torn-every", type=int, default=10)
args = ap.parse_args()
rng = random.Random(args.seed)
data = os.path.join(args.outdir, "data")
shutil.rmtree(data, ignore_errors=True)
os.makedirs(data)
problems = []


def problem(text):
    problems.append(text)
    print("FAIL " + text, flush=True)


def session_command(seed):
    return [args.ts_gate, "--simulate", "--fast", "--runs", "3", "--seed", str(seed), "--data-dir", data]


# How long a whole session takes here: kills fall anywhere inside it.
t0 = time.monotonic()
subprocess.run(session_command(1), stdout=subprocess.DEVNULL, check=True)
whole = time.monotonic() - t0

announced_total = 0
recorded_total = 0
torn_made = 0
unprinted = 0
last_number = 1
for k in range(args.kills):
    box = subprocess.Popen(session_command(1000 + k), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + rng.uniform(0, whole * 1.1)
    out = b""
    # Read as the box prints, until the instant of the kill.
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([box.stdout], [], [], left)
        if ready:
            chunk = os.read(box.stdout.fileno(), 65536)
            if not chunk:
                break
            out += chunk
    box.send_signal(signal.SIGKILL)
    box.wait()
    # Only what was read before the kill counts as announced.
    lines = out.decode(errors="replace").split("\n")
    if out and not out.endswith(b"\n"):
        lines = lines[:-1]
    session = next((m.group(1) for m in (re.search(r"session (session-\d+):", l) for l in lines) if m), None)
    flashes = sum("LED ✱ flash + buzzer (crossing)" in l for l in lines)
    splits = [m.group(1) for m in (re.search(r"\blap \d+ .*split (\d+\.\d{3}) s", l) for l in lines) if m]
    if session is None:
        # Killed before the session's first line: its directory may exist,
        # with nothing in it yet but an empty or header-only results file;
        # the next session must take the number after it.
        made = sorted(int(d.split("-")[1]) for d in os.listdir(data) if re.fullmatch(r"session-\d+", d))
        if made and made[-1] > last_number:
            if made[-1] != last_number + 1:
                problem("kill %d: session-%04d after session-%04d" % (k, made[-1], last_number))
            last_number = made[-1]
            with open(os.path.join(data, "session-%04d" % last_number, "results.jsonl"), "rb") as f:
                early = f.read()
            if early.count(b"\n") > 1:
                problem("kill %d: session-%04d holds %d lines though the box printed nothing" % (k, last_number, early.count(b"\n")))
            unprinted += 1
        continue
    number = int(session.split("-")[1])
    if number != last_number + 1:
        problem("kill %d: session %s after session-%04d" % (k, session, last_number))
    last_number = number
    path = os.path.join(data, session, "results.jsonl")
    records = []
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError as e:
        problem("kill %d: %s unreadable after %d announced crossings: %s" % (k, path, flashes, e))
        continue
    for raw in text.split(b"\n"):
        try:
            records.append(json.loads(raw))
        except ValueError:
            pass
    crossings = [r for r in records if r.get("type") == "crossing"]
    announced_total += flashes
    recorded_total += len(crossings)
    if len(crossings) < flashes:
        problem("kill %d: %s announced %d crossings, its file holds %d" % (k, session, flashes, len(crossings)))
    recorded_splits = {"%.3f" % (c["splitTimeMs"] / 1000) for c in crossings if c.get("splitTimeMs") is not None}
    for split in splits:
        if split not in recorded_splits:
            problem("kill %d: %s said a lap of %s s that its file lacks" % (k, session, split))
    # A power cut mid-write: the last line cut in half.
    torn = args.torn_every > 0 and k % args.torn_every == 0 and text.endswith(b"\n") and text.count(b"\n") >= 2
    if torn:
        last = text.rstrip(b"\n").rsplit(b"\n", 1)[1]
        with open(path, "wb") as f:
            f.write(text[:len(text) - 1 - len(last) // 2])
        torn_made += 1
    read = subprocess.run([args.ts_gate, "results", "--data-dir", data, "--session", session], capture_output=True, text=True)
    if read.returncode != 0:
        problem("kill %d: ts-gate results --session %s exited %d: %s" % (k, session, read.returncode, (read.stderr or read.stdout)[-300:]))
    elif torn and "torn last line" not in read.stdout + read.stderr:
        problem("kill %d: %s's torn last line was not reported" % (k, session))

final = subprocess.run([args.ts_gate, "results", "--data-dir", data], capture_output=True, text=True)
if final.returncode != 0:
    problem("ts-gate results over every session exited %d" % final.returncode)
print("kill -9: %d kills over sessions of %.2f s; %d crossings announced before a kill, %d recorded, 0 expected lost; "
      "%d torn last lines made, each reported; %d sessions killed before their first line; sessions numbered to session-%04d"
      % (args.kills, whole, announced_total, recorded_total, torn_made, unprinted, last_number))
print("RESULT " + ("PASS" if not problems else "FAIL: %d problems" % len(problems)))
sys.exit(0 if not problems else 1)
