#!/usr/bin/env python3
"""The report in a real browser: builds a report from a small simulate run (with a timeline), loads it in headless
Chromium (Debian `chromium`, installed by ./dev setup) with the network cut off, and fails on any console message
(the page's only script is the timelines' zoom, which logs nothing: any message is an error, a failed load, a parse
error, a script error), on a missing element (the summary table, the SVG charts, the timeline rows, the manifest),
or when no screenshot comes out. A second report, of an elastic multi-node job, must load as cleanly and draw its
runs' spot and on-demand lanes and training line.

Then the comparison page (docs/report.md#comparing-results) of two real runs of the same 8-instance job, restart
(cost-aware) and elastic (--min-nodes 4, spot-nodes), each with its --timeline: one summary row and one labelled
point per result, both timelines on the same x range, and, opened at #zoom=FROM,TO, every timeline's visible range
changed to FROM-TO by the zoom script; and a screenshot of it (--compare-screenshot).

A missing chromium is a failure, not a skip: CI installs it, and a test that skips silently tests nothing.

  browser_test.py --bin-dir build/tools --repo . --screenshot report.png [--compare-screenshot compare.png]
                  [--keep DIR]
"""
import argparse
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

SIMULATE = ["--trace", "gcp-h100-13-zones", "--policy", "cost-aware", "--checkpoint-size-gb", "50",
            "--work", "48h", "--deadline", "72h", "-n", "200", "--seed", "7",
            "--timeline-replications", "0,1,2,3"]
TIMELINE_RUNS = 4
# An elastic job (8 instances, trains on 4 or more, one on-demand): the report draws its runs from the JSON alone,
# as stacked spot / on-demand lanes with the training set's size.
ELASTIC = ["--trace", "aws-p3-bamboo-32-node", "--nodes", "8", "--min-nodes", "4", "--policy", "spot-nodes:core=1",
           "--work", "12h", "-n", "50", "--seed", "3"]
# The comparison: one 8-instance job with a 16-h deadline, restarted whole on any loss (cost-aware) or trained on
# whatever 4 to 8 instances it holds (elastic); the elastic one is cheaper but misses the deadline in some runs.
COMPARED_JOB = ["--trace", "aws-p3-bamboo-32-node", "--nodes", "8", "--work", "12h", "--deadline", "16h", "-n", "50",
                "--seed", "3", "--timeline-replications", "0,1,2"]
RESTART = [*COMPARED_JOB, "--policy", "cost-aware"]
ELASTIC_COMPARED = [*COMPARED_JOB, "--min-nodes", "4", "--policy", "spot-nodes:core=1"]
ZOOM = (2.0, 6.0)  # hours: the range the comparison page is opened at (#zoom=2,6)


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("FAIL: chromium not found on PATH: install Debian's `chromium` (./dev setup does)")


def chromium(browser, url, *extra):
    """Runs headless Chromium on `url` with a fresh profile; returns (stdout, console lines)."""
    profile = tempfile.mkdtemp(prefix="spotsim-chromium-")
    try:
        return chromium_in(browser, url, profile, *extra)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def chromium_in(browser, url, profile, *extra):
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
               "--no-first-run", "--disable-extensions", "--host-resolver-rules=MAP * ~NOTFOUND",
               "--user-data-dir=" + profile, *extra, url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    if done.returncode != 0:
        sys.exit(f"FAIL: chromium exited with {done.returncode}:\n{done.stderr[-2000:]}")
    return done.stdout, console


class Elements(html.parser.HTMLParser):
    """Counts the elements the report must have, by tag and class or id."""

    def __init__(self):
        super().__init__()
        self.found = {}
        self.text = []
        self.timelines = []  # the attributes of each svg.timeline, in order
        self.lanes = []  # the transform of each g.lanes

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "svg" and "timeline" in classes:
            self.timelines.append(attrs)
        if tag == "g" and "lanes" in classes:
            self.lanes.append(attrs.get("transform"))
        keys = [tag] + [f"{tag}.{c}" for c in (attrs.get("class") or "").split()]
        if "id" in attrs:
            keys.append(f"{tag}#{attrs['id']}")
        for key in keys:
            self.found[key] = self.found.get(key, 0) + 1

    def handle_data(self, data):
        self.text.append(data)


def zones_held(timeline):
    """The names of the zones where the logged runs acquired instances."""
    with open(timeline) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    names = {zone["index"]: zone["name"] for zone in lines[0]["zones"]}
    return {names[e["zone"]] for e in lines[1:] if e.get("event") == "instance_acquired"}


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"FAIL: {path} is not a PNG")
    return struct.unpack(">II", head[16:24])


def self_contained(source, what):
    """Nothing fetched: no address, stylesheet, import or external image; at most one script, inline."""
    for forbidden in ("http://", "https://", "<link", "@import", "<script src"):
        if forbidden in source:
            sys.exit(f"FAIL: the {what} is not self-contained: it has '{forbidden}'")
    at = source.find("url(")
    while at != -1:
        if not source.startswith("url(#", at):  # a reference inside the page (a clip path) is fine
            sys.exit(f"FAIL: the {what} is not self-contained: it has '{source[at:at + 30]}'")
        at = source.find("url(", at + 1)
    if source.count("<script") > 1:
        sys.exit(f"FAIL: the {what} has {source.count('<script')} scripts; the zoom is the only one")


def loaded(browser, page, what, url_suffix=""):
    """The page's DOM after Chromium ran it, failing on any console message."""
    dom, console = chromium(browser, "file://" + page + url_suffix, "--dump-dom")
    if console:
        sys.exit(f"FAIL: console messages while loading the {what}:\n" + "\n".join(console))
    elements = Elements()
    elements.feed(dom)
    return elements


def require(elements, expected, what):
    missing = [f"{key} (found {elements.found.get(key, 0)}, expected at least {n})"
               for key, n in expected.items() if elements.found.get(key, 0) < n]
    if missing:
        sys.exit(f"FAIL: the {what} lacks: " + ", ".join(missing))


def screenshot(browser, page, path):
    if os.path.exists(path):
        os.remove(path)
    _, console = chromium(browser, "file://" + page, "--screenshot=" + os.path.abspath(path),
                          "--window-size=1280,2400", "--hide-scrollbars")
    if console:
        sys.exit("FAIL: console messages while taking the screenshot:\n" + "\n".join(console))
    if not os.path.exists(path):
        sys.exit("FAIL: chromium wrote no screenshot")
    width, height = png_size(path)
    if (width, height) != (1280, 2400) or os.path.getsize(path) < 20000:
        sys.exit(f"FAIL: the screenshot is {width}x{height}, {os.path.getsize(path)} bytes: blank?")


def check_comparison(browser, args, work):
    """Two real runs compared on one page: rows, labelled points, one time axis, and the zoom moving both."""
    paths = {n: os.path.join(work, n) for n in ("restart.json", "restart.jsonl", "elastic8.json", "elastic8.jsonl",
                                               "compare.html")}
    for spec, stem in ((RESTART, "restart"), (ELASTIC_COMPARED, "elastic8")):
        run([os.path.join(args.bin_dir, "simulate"), *spec, "--format", "json", "-o", paths[stem + ".json"],
             "--timeline", paths[stem + ".jsonl"]], cwd=args.repo)
    page = paths["compare.html"]
    # Run where the files are, as docs/report.md does: the page names them as given (restart.json, not /tmp/...).
    run([os.path.abspath(os.path.join(args.bin_dir, "spotsim")), "report", "restart.json", "elastic8.json",
         "--timeline", "restart.jsonl", "--timeline", "elastic8.jsonl", "-o", "compare.html"], cwd=work)
    with open(page, encoding="utf-8") as f:
        self_contained(f.read(), "comparison page")
    page_elements = loaded(browser, page, "comparison page")
    require(page_elements, {"table.summary": 1, "svg.cost-time": 1, "g.point": 2, "text.point-label": 2,
                            "svg.timeline": 2, "figure.compared": 2, "g.run": 6, "rect.held-spot": 1, "rect.held": 1,
                            "line.deadline": 2, "p.zoom-help": 1, "section#manifest": 1}, "comparison page")
    text = " ".join(page_elements.text)
    for words in ("restart.json", "elastic8.json", "cost-aware", "spot-nodes:core=1", "deadline met"):
        if words not in text:
            sys.exit(f"FAIL: the comparison page does not show '{words}'")
    timelines = page_elements.timelines
    if len(timelines) != 2:
        sys.exit(f"FAIL: the comparison page has {len(timelines)} timelines, expected 2")
    axes = {(t.get("data-x-low"), t.get("data-x-high")) for t in timelines}
    if len(axes) != 1:
        sys.exit(f"FAIL: the compared timelines have different x ranges: {sorted(axes)}")
    (low, high), = axes
    views = {t.get("data-view") for t in timelines}
    if views != {f"{float(low):g} {float(high):g}"}:
        sys.exit(f"FAIL: before zooming, the timelines show {sorted(views)}, expected the whole axis {low}-{high}")

    zoomed = loaded(browser, page, "zoomed comparison page", f"#zoom={ZOOM[0]:g},{ZOOM[1]:g}")
    views = {t.get("data-view") for t in zoomed.timelines}
    if views != {f"{ZOOM[0]:g} {ZOOM[1]:g}"}:
        sys.exit(f"FAIL: opened at #zoom={ZOOM[0]:g},{ZOOM[1]:g}, the timelines show {sorted(views)}")
    if not zoomed.lanes or any(not t or "scale(" not in t for t in zoomed.lanes):
        sys.exit("FAIL: the zoom script left some lanes unstretched: " + repr(sorted(set(map(str, zoomed.lanes)))))
    scales = {t.split("scale(")[1].split()[0] for t in zoomed.lanes}
    expected = (float(high) - float(low)) / (ZOOM[1] - ZOOM[0])
    if len(scales) != 1 or abs(float(scales.pop()) - expected) > 1e-6 * expected:
        sys.exit(f"FAIL: the lanes are not all stretched {expected:g} times: {sorted(scales)}")
    if args.compare_screenshot:
        screenshot(browser, page, args.compare_screenshot)
    return paths, sum(page_elements.found.values())


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)
    if done.returncode != 0:
        sys.exit(f"FAIL: {' '.join(command)} exited with {done.returncode}:\n{done.stderr}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--compare-screenshot", help="also save a screenshot of the comparison page here")
    parser.add_argument("--keep", help="also copy the report and its inputs here")
    args = parser.parse_args()
    browser = find_chromium()
    work = tempfile.mkdtemp(prefix="spotsim-browser-test-")
    try:
        # The detector itself must see a console error, else a clean result below would prove nothing.
        bad = os.path.join(work, "bad.html")
        with open(bad, "w") as f:
            f.write("<!DOCTYPE html><html><body><script>console.error('expected error')</script></body></html>")
        _, console = chromium(browser, "file://" + bad, "--dump-dom")
        if not any("expected error" in line for line in console):
            sys.exit("FAIL: the console capture saw nothing on a page that logs an error")

        result, timeline, page = (os.path.join(work, n) for n in ("r.json", "t.jsonl", "report.html"))
        run([os.path.join(args.bin_dir, "simulate"), *SIMULATE, "--format", "json", "-o", result, "--timeline", timeline],
            cwd=args.repo)
        run([os.path.join(args.bin_dir, "spotsim"), "report", result, "--timeline", timeline, "-o", page])
        with open(page, encoding="utf-8") as f:
            self_contained(f.read(), "report")
        elements = loaded(browser, page, "report")
        # One configuration: its numbers, not a cost/time chart of one point.
        require(elements, {"table.summary": 1, "p.numbers": 1, "svg.cdf": 2, "svg.timeline": 1,
                           "g.run": TIMELINE_RUNS, "section#manifest": 1, "section#timelines": 1, "ul.legend": 2,
                           "rect.held": 1, "rect.phase": 1, "polyline.cdf": 2}, "loaded page")
        if elements.found.get("svg.cost-time"):
            sys.exit("FAIL: a one-configuration report draws a cost/time chart of one point")
        text = " ".join(elements.text)
        for words in ("cost-aware", "replication 3", "git revision"):
            if words not in text:
                sys.exit(f"FAIL: the loaded page does not show '{words}'")
        held_zones = zones_held(timeline)
        if not any(zone in text for zone in held_zones):
            sys.exit(f"FAIL: the timeline names none of the zones the runs held: {sorted(held_zones)}")

        screenshot(browser, page, args.screenshot)
        elastic_result, elastic_page = os.path.join(work, "elastic.json"), os.path.join(work, "elastic.html")
        run([os.path.join(args.bin_dir, "simulate"), *ELASTIC, "--format", "json", "-o", elastic_result], cwd=args.repo)
        run([os.path.join(args.bin_dir, "spotsim"), "report", elastic_result, "-o", elastic_page])
        elastic = loaded(browser, elastic_page, "elastic report")
        require(elastic, {"svg.timeline": 1, "g.run": 3, "rect.held-spot": 3, "rect.held-on-demand": 3,
                          "path.training": 3, "rect.phase": 3}, "elastic report")
        if "training set" not in " ".join(elastic.text):
            sys.exit("FAIL: the elastic report's legend does not name the training set")
        compared, compared_count = check_comparison(browser, args, work)
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for name in (result, timeline, page, elastic_result, elastic_page, *compared.values()):
                shutil.copy(name, args.keep)
        print(f"ok: reports loaded in {os.path.basename(browser)} without console messages; "
              f"{sum(elements.found.values())} elements (elastic: {sum(elastic.found.values())}, comparison: "
              f"{compared_count}, zoomed to {ZOOM[0]:g}-{ZOOM[1]:g} h); screenshot {args.screenshot}"
              + (f", {args.compare_screenshot}" if args.compare_screenshot else ""))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
