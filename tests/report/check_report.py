#!/usr/bin/env python3
"""Checks a report of "swtee bench --report DIR", and takes its screenshot.

    check_report.py [--generate --bin BUILD/bin] --report DIR [--screenshot PNG]
                    [--xtest-json FILE]... [--no-browser]

--generate first writes the report the way the test suite wants it, fast:
xtest's benchmark suite with --json, then "swtee bench --quick --report DIR
--xtest ..." of every group, all inside one "swtee run".

Then it checks, and fails on the first thing wrong:
  - results.json is valid against tests/report/results.schema.json
    (python3-jsonschema), and every xtest --json file against
    xtest.schema.json;
  - every plot results.json lists is in plots/, non-empty, well-formed SVG
    (xml.etree), and draws something; plots/ holds no other SVG;
  - index.html names no resource outside DIR (no http:, no //host, every
    relative src/href exists) and inlines every plot;
  - headless Chromium opens index.html with no console error, no uncaught
    exception, no failed load and no request that is not file: or data:,
    and the screenshot of the whole page is written (a PNG).

Chromium is driven over its DevTools pipe (--remote-debugging-pipe: NUL-
separated JSON on fds 3 and 4), so errors are events, not log lines to
scrape. Exit status: 0 passed, 1 failed, 77 when Chromium or jsonschema is
not installed (the test is skipped; the message names the package).
"""

import argparse
import base64
import fcntl
import html.parser
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SVG_NS = "{http://www.w3.org/2000/svg}"
SKIP = 77


class Failure(Exception):
    pass


def fail(msg):
    raise Failure(msg)


# ---- generating ----

def generate(bindir, report, state, xtest_json):
    swtee = os.path.join(bindir, "swtee")
    xtest = os.path.join(bindir, "xtest")
    os.makedirs(report, exist_ok=True)
    script = (
        '"$1" -t benchmark --json "$2" >"$3/xtest.log" 2>&1 || '
        '{ tail -40 "$3/xtest.log"; exit 1; }; '
        '"$4" bench --quick --report "$3" --xtest "$2"'
    )
    cmd = [swtee, "run", "--state", state, "--", "sh", "-c", script, "sh", xtest,
           xtest_json, report, swtee]
    print("generating:", " ".join(cmd), flush=True)
    t0 = time.monotonic()
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=900)
    sys.stdout.write(res.stdout[-6000:])
    # A group over its target makes the run exit 1; only a report that is
    # missing is a failure here: what the report says is not this test's.
    if not os.path.exists(os.path.join(report, "index.html")):
        fail("swtee bench wrote no report (exit status %d)" % res.returncode)
    print("report written in %.1f s" % (time.monotonic() - t0))


# ---- JSON ----

def validate(doc, schema_file, what):
    try:
        import jsonschema
    except ImportError:
        print("SKIP: python3's jsonschema is missing (Debian: python3-jsonschema)")
        sys.exit(SKIP)
    with open(os.path.join(HERE, schema_file)) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:10]:
        print("%s: %s: %s" % (what, "/".join(str(p) for p in e.path) or "(root)", e.message))
    if errors:
        fail("%s does not match %s (%d errors)" % (what, schema_file, len(errors)))


def check_results(report):
    path = os.path.join(report, "results.json")
    with open(path) as f:
        doc = json.load(f)
    validate(doc, "results.schema.json", path)
    # What the schema cannot say: cost ratios follow from the values.
    for r in doc["results"]:
        if r.get("cost_ratio") is None or r.get("skipped"):
            continue
        v, b = r["value"], r["baseline_value"]
        want = b / v if r["higher_is_better"] else v / b
        if abs(want - r["cost_ratio"]) > 1e-3 * want:
            fail("%s/%s: cost_ratio %s is not value over baseline (%s)" %
                 (r["group"], r["name"], r["cost_ratio"], want))
    print("results.json: valid, %d results, %d plots" % (len(doc["results"]), len(doc["plots"])))
    return doc


def same_json(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
            abs(a - b) <= 1e-5 * max(abs(a), abs(b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and \
            all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and \
            all(same_json(x, y) for x, y in zip(a, b))
    return a == b


def check_round_trip(bindir, report, doc):
    """swtee bench --from results.json --json gives the results back as they were."""
    res = subprocess.run([os.path.join(bindir, "swtee"), "bench", "--from",
                          os.path.join(report, "results.json"), "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    if res.returncode != 0:
        fail("swtee bench --from results.json failed: %s" % res.stderr.strip())
    back = json.loads(res.stdout)
    for a, b in zip(doc["results"], back):
        if not same_json(a, b):
            fail("--from changed %s/%s:\n  %s\n  %s" % (a["group"], a["name"], a, b))
    if len(back) != len(doc["results"]):
        fail("--from read %d results of %d" % (len(back), len(doc["results"])))
    print("swtee bench --from results.json: every result read back unchanged")


# ---- SVG ----

def check_svg(path):
    if os.path.getsize(path) == 0:
        fail("%s is empty" % path)
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail("%s is not well-formed XML: %s" % (path, e))
    if root.tag != SVG_NS + "svg":
        fail("%s: the root is <%s>, not <svg>" % (path, root.tag))
    if not root.get("viewBox"):
        fail("%s has no viewBox" % path)
    marks = [e for e in root.iter() if e.tag in (SVG_NS + "path", SVG_NS + "rect",
                                                  SVG_NS + "circle")]
    texts = [e for e in root.iter() if e.tag == SVG_NS + "text" and (e.text or "").strip()]
    if len(marks) < 5 or len(texts) < 3:
        fail("%s draws almost nothing (%d shapes, %d texts)" % (path, len(marks), len(texts)))


def check_plots(report, doc):
    listed = set()
    for p in doc["plots"]:
        path = os.path.join(report, p["file"])
        if not os.path.isfile(path):
            fail("the plot %s is missing" % path)
        check_svg(path)
        listed.add(os.path.normpath(p["file"]))
        if not p["caption"].strip():
            fail("the plot %s has no caption" % p["file"])
    plots_dir = os.path.join(report, "plots")
    for name in os.listdir(plots_dir) if os.path.isdir(plots_dir) else []:
        if name.endswith(".svg") and os.path.normpath("plots/" + name) not in listed:
            fail("plots/%s is not in results.json: a stale plot" % name)
    print("plots: %d, each well-formed SVG" % len(listed))


# ---- HTML ----

class Resources(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.refs = []
        self.svg_ids = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("src", "href", "srcset", "poster", "data", "action") and v is not None:
                self.refs.append((tag, k, v))
            if k == "style" and v and "url(" in v:
                self.refs.append((tag, k, v))
        if tag == "figure":
            self.svg_ids.append(dict(attrs).get("id"))


def check_html(report, doc):
    path = os.path.join(report, "index.html")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    parser = Resources()
    parser.feed(text)
    for tag, attr, value in parser.refs:
        u = urllib.parse.urlparse(value)
        if attr == "style":
            fail("<%s style> loads %r: styles belong in the page" % (tag, value))
        if u.scheme == "data" or value.startswith("#"):
            continue
        if u.scheme or u.netloc:
            fail("<%s %s=%r>: a resource outside the report" % (tag, attr, value))
        if not os.path.exists(os.path.join(report, urllib.parse.unquote(u.path))):
            fail("<%s %s=%r>: no such file in the report" % (tag, attr, value))
    if "@import" in text or "<script" in text.lower():
        fail("index.html imports a stylesheet or has a script")
    for p in doc["plots"]:
        pid = os.path.splitext(os.path.basename(p["file"]))[0]
        if pid not in parser.svg_ids:
            fail("index.html does not show the plot %s" % p["file"])
    if "Verdicts" not in text or text.find("Verdicts") > text.find('id="plots"'):
        fail("index.html does not put the verdicts before the plots")
    print("index.html: self-contained, %d local references, %d plots inline" %
          (len(parser.refs), len(parser.svg_ids)))


# ---- Chromium ----

def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


class DevTools:
    """Chromium's DevTools protocol over --remote-debugging-pipe."""

    def __init__(self, proc, wfd, rfd):
        self.proc, self.wfd, self.rfd = proc, wfd, rfd
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.wfd, json.dumps(msg).encode() + b"\0")
        want = self.next_id
        deadline = time.monotonic() + timeout
        while True:
            m = self.read(deadline)
            if m is None:
                fail("Chromium did not answer %s in %d s" % (method, timeout))
            if m.get("id") == want:
                if "error" in m:
                    fail("Chromium refused %s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.rfd], [], [], left)
            if not r:
                return None
            chunk = os.read(self.rfd, 1 << 20)
            if not chunk:
                fail("Chromium closed its DevTools pipe (exit status %s)" % self.proc.poll())
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def wait_event(self, method, timeout):
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                return self.events.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            m = self.read(deadline)
            if m is None:
                return None
            if m.get("method") == method:
                return m
            self.events.append(m)

    def drain(self, seconds):
        deadline = time.monotonic() + seconds
        while True:
            m = self.read(deadline)
            if m is None:
                return
            self.events.append(m)


def browser_problems(events):
    """The console errors, exceptions, failed loads and foreign requests among events."""
    problems = []
    for m in events:
        method, p = m.get("method"), m.get("params", {})
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])
            problems.append("console.%s: %s" % (p["type"], args))
        elif method == "Runtime.exceptionThrown":
            problems.append("exception: %s" % p["exceptionDetails"].get("text"))
        elif method == "Log.entryAdded" and p["entry"]["level"] == "error":
            problems.append("log: %s (%s)" % (p["entry"]["text"], p["entry"].get("url", "")))
        elif method == "Network.loadingFailed" and not p.get("canceled"):
            problems.append("failed load: %s" % p.get("errorText"))
        elif method == "Network.requestWillBeSent":
            url = p["request"]["url"]
            if urllib.parse.urlparse(url).scheme not in ("file", "data"):
                problems.append("network request: %s" % url)
    return problems


def high_pipe():
    """A pipe whose two ends are fds above 9."""
    ends = []
    for fd in os.pipe():
        ends.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10))
        os.close(fd)
    return ends


def check_browser(report, screenshot, slice_height=0, width=1280):
    chromium = find_chromium()
    if not chromium:
        print("SKIP: headless Chromium is missing (Debian: chromium)")
        sys.exit(SKIP)
    url = "file://" + urllib.parse.quote(os.path.abspath(os.path.join(report, "index.html")))
    profile = tempfile.mkdtemp(prefix="swtee-report-chromium-")
    to_chrome_r, to_chrome_w = high_pipe()
    from_chrome_r, from_chrome_w = high_pipe()
    args = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--disable-dev-shm-usage", "--user-data-dir=" + profile,
            "--remote-debugging-pipe", "about:blank"]
    # The pipe must be fds 3 (commands in) and 4 (replies out): bash puts it there
    # from fds above 9, which cannot be 3 or 4 themselves.
    shell = 'exec "$@" 3<&%d 4>&%d %d<&- %d>&-' % (to_chrome_r, from_chrome_w, to_chrome_r,
                                                    from_chrome_w)
    log = open(os.path.join(profile, "stderr.log"), "w")
    proc = subprocess.Popen(["bash", "-c", shell, "bash"] + args, pass_fds=(to_chrome_r,
                            from_chrome_w), stdout=log, stderr=log)
    os.close(to_chrome_r)
    os.close(from_chrome_w)
    dt = DevTools(proc, to_chrome_w, from_chrome_r)
    try:
        try:
            drive(dt, url, screenshot, slice_height, width)
        except (Failure, OSError):
            log.flush()
            with open(log.name, errors="replace") as f:
                tail = f.read()[-3000:]
            print("Chromium's stderr:\n" + tail)
            raise
    finally:
        os.close(to_chrome_w)
        os.close(from_chrome_r)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        shutil.rmtree(profile, ignore_errors=True)


def drive(dt, url, screenshot, slice_height, width):
    """Opens url, checks what the browser reports, and takes the screenshot."""
    if True:
        target = dt.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = dt.send("Target.attachToTarget", {"targetId": target,
                                                    "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            dt.send(domain + ".enable", session=session)
        dt.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900,
                "deviceScaleFactor": 1, "mobile": False}, session=session)
        dt.send("Page.navigate", {"url": url}, session=session)
        if not dt.wait_event("Page.loadEventFired", 60):
            fail("index.html did not finish loading in 60 s")
        dt.drain(1.0)  # late console messages
        problems = browser_problems(dt.events)
        for p in problems:
            print("browser:", p)
        if problems:
            fail("Chromium reports %d problems opening index.html" % len(problems))
        size = dt.send("Page.getLayoutMetrics", session=session)["cssContentSize"]
        height = int(size["height"]) + 1
        shot = dt.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}},
            session=session, timeout=120)
        png = base64.b64decode(shot["data"])
        if not png.startswith(b"\x89PNG\r\n\x1a\n") or len(png) < 10000:
            fail("Chromium's screenshot is no PNG of a page")
        os.makedirs(os.path.dirname(os.path.abspath(screenshot)), exist_ok=True)
        with open(screenshot, "wb") as f:
            f.write(png)
        # Slices of a long page, for eyes and image viewers that cap the height.
        for i, y in enumerate(range(0, height, slice_height) if slice_height else []):
            part = dt.send("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": 0, "y": y, "width": width,
                         "height": min(slice_height, height - y), "scale": 1}},
                session=session, timeout=120)
            with open("%s-%d.png" % (os.path.splitext(screenshot)[0], i + 1), "wb") as f:
                f.write(base64.b64decode(part["data"]))
        print("Chromium: no console errors, no network; screenshot %s (%dx%d)" %
              (screenshot, width, height))
        try:
            dt.send("Browser.close", timeout=10)
        except Failure:
            pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--report", required=True, help="the report directory")
    ap.add_argument("--generate", action="store_true", help="write the report first")
    ap.add_argument("--bin", help="the build's bin/: to write the report (--generate) and "
                    "to read it back")
    ap.add_argument("--state", help="state directory of the TEE (with --generate)")
    ap.add_argument("--screenshot", help="where the PNG goes (default: REPORT/screenshot.png)")
    ap.add_argument("--xtest-json", action="append", default=[],
                    help="an xtest --json file to validate too")
    ap.add_argument("--no-browser", action="store_true", help="leave Chromium out")
    ap.add_argument("--slices", type=int, default=0, metavar="H",
                    help="also write the screenshot in slices H pixels high")
    a = ap.parse_args()
    try:
        if a.generate:
            if not a.bin:
                fail("--generate needs --bin")
            xj = os.path.join(a.report, "xtest-benchmark.json")
            generate(a.bin, a.report, a.state or os.path.join(a.report, "state"), xj)
            a.xtest_json.append(xj)
        doc = check_results(a.report)
        if a.bin:
            check_round_trip(a.bin, a.report, doc)
        for x in a.xtest_json:
            with open(x) as f:
                validate(json.load(f), "xtest.schema.json", x)
            print("%s: valid xtest --json" % x)
        check_plots(a.report, doc)
        check_html(a.report, doc)
        if not a.no_browser:
            check_browser(a.report, a.screenshot or os.path.join(a.report, "screenshot.png"),
                          a.slices)
    except Failure as e:
        print("report check FAILED:", e)
        return 1
    print("report check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
