#!/usr/bin/env python3
"""The coach's page in a real browser (issue 52): Debian's headless
Chromium, driven by its chromedriver, opens the page of a simulated
session in real time, as a coach's phone would, while a second process
loads the server.

  Tests/http/coach-page.py TS_GATE OUTDIR [--runs N] [--load-seconds S]

Checks, each printed as "check NAME ok|FAIL (figures)":
  - every lap the box prints appears on the page within 1 s of the box's line;
  - the page shows the gate's state and the box's log lines;
  - a request the box must refuse gets its 4xx over the same server (a POST,
    an unknown page, a header flood) and the page keeps working;
  - under load (50 connections asking for the page and the state for
    LOAD seconds), no crossing is lost, none is late on the page, and the
    box's resident memory stays flat;
  - the last crossing's frame and photo-finish strip shown under its time;
  - the control: a POST without the PIN refused (403); on the page, a wrong
    PIN refused, the box's PIN (from its log) unlocking the buttons, and
    Disarm showing the gate idle within 1 s;
  - phone-sized screenshots, OUTDIR/coach-page.png (every lap shown) and
    OUTDIR/coach-page-control.png (after Disarm).
Exits 0 only when every check passes.
"""
import argparse, os, re, socket, subprocess, sys, threading, time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ap = argparse.ArgumentParser()
ap.add_argument("ts_gate")
ap.add_argument("outdir")
ap.add_argument("--runs", type=int, default=4)
ap.add_argument("--load-seconds", type=float, default=10)
args = ap.parse_args()
os.makedirs(args.outdir, exist_ok=True)
failed = []


def check(name, ok, detail=""):
    print("check %s %s%s" % (name, "ok" if ok else "FAIL", " (" + detail + ")" if detail else ""), flush=True)
    if not ok:
        failed.append(name)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def ask(port, raw, timeout=3):
    """Raw bytes to the server; its whole answer (it closes or times out)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.sendall(raw)
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data:
                head, _, body = data.partition(b"\r\n\r\n")
                m = re.search(rb"Content-Length: (\d+)", head)
                if m and len(body) >= int(m.group(1)):
                    break
    except socket.timeout:
        pass
    s.close()
    return data


port = free_port()
data = os.path.join(args.outdir, "data")
box = subprocess.Popen([args.ts_gate, "--simulate", "--runs", str(args.runs), "--seed", "7", "--http", "127.0.0.1:%d" % port,
                        "--data-dir", data], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
# The box's lines, stamped as they come: a lap's line is printed as the box records it.
laps = {}
lines = []


def read_box():
    for line in box.stdout:
        now = time.monotonic()
        lines.append(line.rstrip("\n"))
        m = re.search(r"\blap (\d+) .*split (\d+\.\d{3}) s", line)
        if m:
            laps[int(m.group(1))] = (now, m.group(2))


reader = threading.Thread(target=read_box, daemon=True)
reader.start()
for _ in range(100):
    if any("coach's page: http://" in l for l in lines):
        break
    time.sleep(0.05)
check("page-announced", any("coach's page: http://127.0.0.1:%d/" % port in l for l in lines))

options = webdriver.ChromeOptions()
for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=412,915", "--disable-dev-shm-usage"]:
    options.add_argument(a)
browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
browser.get("http://127.0.0.1:%d/" % port)

# What the box must refuse, over the same server while it runs.
post = ask(port, b"POST / HTTP/1.1\r\nContent-Length: 8\r\n\r\npin=0000")
check("post-refused", post.startswith(b"HTTP/1.1 405 "), post.split(b"\r\n")[0].decode(errors="replace"))
missing = ask(port, b"GET /etc/passwd HTTP/1.1\r\n\r\n")
check("unknown-page-404", missing.startswith(b"HTTP/1.1 404 "), missing.split(b"\r\n")[0].decode(errors="replace"))
flood = ask(port, b"GET / HTTP/1.1\r\n" + b"X-Flood: 0123456789abcdef\r\n" * 1000 + b"\r\n")
check("header-flood-431", flood.startswith(b"HTTP/1.1 431 "), flood.split(b"\r\n")[0].decode(errors="replace"))
nopin = ask(port, b"POST /api/control HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10\r\n\r\naction=arm")
check("control-without-pin-403", nopin.startswith(b"HTTP/1.1 403 "), nopin.split(b"\r\n")[0].decode(errors="replace"))
garbage = ask(port, bytes(range(1, 256)) + b"\r\n\r\n")
check("garbage-400", garbage.startswith(b"HTTP/1.1 400 "), garbage.split(b"\r\n")[0].decode(errors="replace"))

# The load: 50 connections, each asking again as soon as answered.
load_stop = threading.Event()
load_counts = {"ok": 0, "bad": 0}


def load_client():
    while not load_stop.is_set():
        try:
            for path in (b"/", b"/api/state"):
                answer = ask(port, b"GET " + path + b" HTTP/1.1\r\nHost: box\r\nConnection: close\r\n\r\n")
                load_counts["ok" if answer.startswith(b"HTTP/1.1 200 OK") else "bad"] += 1
        except OSError:
            load_counts["bad"] += 1


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
    except (OSError, AttributeError):
        return None


def control_flow():
    """As a coach would: the last crossing's photos shown under its time;
    a wrong PIN refused on the page, the box's PIN (from its log) unlocks
    the buttons, Disarm shows the gate idle."""
    widths = None
    for _ in range(60):
        widths = browser.execute_script("return [document.getElementById('frame').naturalWidth, document.getElementById('strip').naturalWidth]")
        if widths[0] > 0 and widths[1] > 0:
            break
        time.sleep(0.1)
    check("photos-on-page", widths[0] > 0 and widths[1] > 0, "the crossing frame %d px and the strip %d px wide" % tuple(widths))
    pin = [re.search(r"control PIN (\d{4})", l) for l in lines]
    pin = [m.group(1) for m in pin if m]
    check("pin-logged", bool(pin))
    if not pin:
        return
    field = browser.find_element(By.ID, "pin")
    field.clear(); field.send_keys("0000" if pin[0] != "0000" else "1111")
    browser.find_element(By.CSS_SELECTOR, "#pinform button").click()
    time.sleep(0.5)
    message = browser.find_element(By.ID, "cmsg").text
    check("wrong-pin-refused-on-page", "wrong PIN" in message and not browser.find_element(By.ID, "buttons").is_displayed(), message)
    # The page empties the field after each try.
    field.send_keys(pin[0])
    typed = field.get_attribute("value")
    browser.find_element(By.CSS_SELECTOR, "#pinform button").click()
    for _ in range(100):
        if browser.find_element(By.ID, "buttons").is_displayed():
            break
        time.sleep(0.05)
    unlocked = browser.find_element(By.ID, "buttons").is_displayed()
    check("pin-unlocks-control", unlocked, "" if unlocked else "typed %s (the log's PIN %s); the page says: %s"
          % (typed, pin[0], browser.find_element(By.ID, "cmsg").text))
    if not unlocked:
        direct = ask(port, b"POST /api/pin HTTP/1.1\r\nContent-Length: 8\r\n\r\npin=" + pin[0].encode())
        print("direct POST of the PIN: " + direct.split(b"\r\n")[0].decode(errors="replace"), flush=True)
        return
    clicked = time.monotonic()
    browser.find_element(By.CSS_SELECTOR, "#buttons button[data-a=disarm]").click()
    shown = None
    while time.monotonic() - clicked < 3:
        if browser.find_element(By.ID, "state").text.upper() == "IDLE":
            shown = time.monotonic() - clicked
            break
        time.sleep(0.05)
    check("disarm-from-page", shown is not None and shown < 1.0 and any("coach's page: disarmed" in l for l in lines),
          "state IDLE on the page %s after the click" % ("%.0f ms" % (1000 * shown) if shown is not None else "never"))
    browser.save_screenshot(os.path.join(args.outdir, "coach-page-control.png"))
    # Armed again from the page: the athlete's next passes are timed as a new run.
    browser.find_element(By.CSS_SELECTOR, "#buttons button[data-a=arm]").click()
    clicked = time.monotonic()
    shown = None
    while time.monotonic() - clicked < 3:
        if browser.find_element(By.ID, "state").text.upper() in ("STABILISING", "ARMED"):
            shown = time.monotonic() - clicked
            break
        time.sleep(0.05)
    check("arm-from-page", shown is not None and shown < 1.0, "state %s on the page %s after the click"
          % (browser.find_element(By.ID, "state").text, "%.0f ms" % (1000 * shown) if shown is not None else "never"))


controlled = False
control_started = None
rss = []
seen = {}
load_threads = []
load_started = None
deadline = time.monotonic() + 120
while box.poll() is None and time.monotonic() < deadline:
    now = time.monotonic()
    # The page's rows, as the coach sees them: "run-001 lap 1", "3.633".
    for row in browser.find_elements(By.CSS_SELECTOR, "#runs tr"):
        cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        m = re.search(r"lap (\d+)", cells[0]) if cells else None
        if m and int(m.group(1)) not in seen:
            seen[int(m.group(1))] = (now, cells[1])
    r = rss_kib(box.pid)
    if r:
        rss.append((now, r))
    if 3 in seen and not os.path.exists(os.path.join(args.outdir, "coach-page.png")):
        browser.save_screenshot(os.path.join(args.outdir, "coach-page.png"))
    if 3 in seen and not controlled:
        controlled = True
        control_started = time.monotonic()
        control_flow()
    if load_started is None and 1 in seen:
        load_started = now
        load_threads = [threading.Thread(target=load_client, daemon=True) for _ in range(50)]
        for t in load_threads:
            t.start()
    if load_started is not None and not load_stop.is_set() and now - load_started > args.load_seconds:
        load_stop.set()
    time.sleep(0.05)
load_stop.set()
state = browser.find_element(By.ID, "state").text
log_items = len(browser.find_elements(By.CSS_SELECTOR, "#lines li"))
check("screenshot", os.path.exists(os.path.join(args.outdir, "coach-page.png")), "taken with every lap on the page")

# Refusals over the same server while it still runs are checked before the
# session ends, so ask them now if it is still up; else from the log.
box.wait(timeout=60)
reader.join(timeout=5)
with open(os.path.join(args.outdir, "box.log"), "w") as f:
    f.write("\n".join(lines) + "\n")

delays = []
# The laps before the page disarmed the gate (after it, the passes start a new run).
before = {lap: v for lap, v in laps.items() if control_started is None or v[0] < control_started}
for lap, (t_box, text) in sorted(before.items()):
    if lap in seen:
        delays.append(seen[lap][0] - t_box)
        check("lap-%d-on-page" % lap, seen[lap][1] == text and seen[lap][0] - t_box < 1.0,
              "%s s on the page %.0f ms after the box's line" % (seen[lap][1], 1000 * (seen[lap][0] - t_box)))
    else:
        check("lap-%d-on-page" % lap, False, "never shown")
check("laps-before-control", len(before) >= 3, "%d laps before the page took control" % len(before))
check("every-crossing-detected", any("every simulated crossing was detected" in l for l in lines))
check("state-shown", state.upper() in ("ARMED", "RUNNING", "STOPPED", "IDLE", "STABILISING"), "state " + state)
check("control-tried", controlled, "the PIN flow ran before the session ended")
check("log-shown", log_items >= 3, "%d log lines on the page" % log_items)
check("load-served", load_counts["ok"] > 100, "%d answers, %d failures in %.0f s from 50 connections"
      % (load_counts["ok"], load_counts["bad"], args.load_seconds))
if len(rss) > 10:
    first_minute = [r for t, r in rss if t - rss[0][0] < 3]
    later = [r for t, r in rss if t - rss[0][0] >= 3]
    grow = (max(later) - max(first_minute)) if later else 0
    check("memory-flat", grow < 2048, "RSS %d KiB after start, max %d KiB later (%+d KiB)" % (max(first_minute), max(later or [0]), grow))
# What the page cost the loop: its longest turn against a frame's period
# at the simulation's 120 fps (a turn longer than that would delay a frame).
turn = [re.search(r"coach's page: (\d+) requests answered, (\d+) refused; its longest turn \(CPU\) (\d+\.\d+) ms of (\d+)", l) for l in lines]
turn = [m for m in turn if m]
check("no-frame-delayed", bool(turn) and float(turn[-1].group(3)) < 1000 / 120,
      turn[-1].group(0) if turn else "no summary line from the box")
print("page delays (ms): " + ", ".join("%.0f" % (1000 * d) for d in delays))
browser.quit()
print("RESULT " + ("PASS" if not failed else "FAIL: " + " ".join(failed)))
sys.exit(0 if not failed else 1)
