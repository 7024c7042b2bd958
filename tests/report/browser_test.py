#!/usr/bin/env python3
"""The report in a real browser: builds a report from a small simulate run (with a timeline), loads it in headless
Chromium (Debian `chromium`, installed by ./dev setup) with the network cut off, and fails on any console message
(the page has no script, so any message is an error: a failed load, a parse error), on a missing element (the
summary table, the SVG charts, the timeline rows, the manifest), or when no screenshot comes out. A second report,
of an elastic multi-node job, must load as cleanly and draw its runs' spot and on-demand lanes and training line.

A missing chromium is a failure, not a skip: CI installs it, and a test that skips silently tests nothing.

  browser_test.py --bin-dir build/tools --repo . --screenshot report.png [--keep DIR]
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

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
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


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)
    if done.returncode != 0:
        sys.exit(f"FAIL: {' '.join(command)} exited with {done.returncode}:\n{done.stderr}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--screenshot", required=True)
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
            source = f.read()
        for forbidden in ("http://", "https://", "<link", "<script", "@import", "url("):
            if forbidden in source:
                sys.exit(f"FAIL: the report is not self-contained: it has '{forbidden}'")

        dom, console = chromium(browser, "file://" + page, "--dump-dom")
        if console:
            sys.exit("FAIL: console messages while loading the report:\n" + "\n".join(console))
        elements = Elements()
        elements.feed(dom)
        expected = {"table.summary": 1, "svg.cost-time": 1, "svg.cdf": 2, "svg.timeline": 1, "g.run": TIMELINE_RUNS,
                    "section#manifest": 1, "section#timelines": 1, "ul.legend": 3, "rect.held": 1, "rect.phase": 1,
                    "g.point": 1, "polyline.cdf": 2}
        missing = [f"{key} (found {elements.found.get(key, 0)}, expected at least {n})"
                   for key, n in expected.items() if elements.found.get(key, 0) < n]
        if missing:
            sys.exit("FAIL: the loaded page lacks: " + ", ".join(missing))
        text = " ".join(elements.text)
        for words in ("cost-aware", "replication 3", "git revision"):
            if words not in text:
                sys.exit(f"FAIL: the loaded page does not show '{words}'")
        held_zones = zones_held(timeline)
        if not any(zone in text for zone in held_zones):
            sys.exit(f"FAIL: the timeline names none of the zones the runs held: {sorted(held_zones)}")

        if os.path.exists(args.screenshot):
            os.remove(args.screenshot)
        _, console = chromium(browser, "file://" + page, "--screenshot=" + os.path.abspath(args.screenshot),
                              "--window-size=1280,2400", "--hide-scrollbars")
        if console:
            sys.exit("FAIL: console messages while taking the screenshot:\n" + "\n".join(console))
        if not os.path.exists(args.screenshot):
            sys.exit("FAIL: chromium wrote no screenshot")
        width, height = png_size(args.screenshot)
        if (width, height) != (1280, 2400) or os.path.getsize(args.screenshot) < 20000:
            sys.exit(f"FAIL: the screenshot is {width}x{height}, {os.path.getsize(args.screenshot)} bytes: blank?")
        elastic_result, elastic_page = os.path.join(work, "elastic.json"), os.path.join(work, "elastic.html")
        run([os.path.join(args.bin_dir, "simulate"), *ELASTIC, "--format", "json", "-o", elastic_result], cwd=args.repo)
        run([os.path.join(args.bin_dir, "spotsim"), "report", elastic_result, "-o", elastic_page])
        dom, console = chromium(browser, "file://" + elastic_page, "--dump-dom")
        if console:
            sys.exit("FAIL: console messages while loading the elastic report:\n" + "\n".join(console))
        elastic = Elements()
        elastic.feed(dom)
        expected = {"svg.timeline": 1, "g.run": 3, "rect.held-spot": 3, "rect.held-on-demand": 3, "path.training": 3,
                    "rect.phase": 3}
        missing = [f"{key} (found {elastic.found.get(key, 0)}, expected at least {n})"
                   for key, n in expected.items() if elastic.found.get(key, 0) < n]
        if missing:
            sys.exit("FAIL: the elastic report lacks: " + ", ".join(missing))
        if "training set" not in " ".join(elastic.text):
            sys.exit("FAIL: the elastic report's legend does not name the training set")
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for name in (result, timeline, page, elastic_result, elastic_page):
                shutil.copy(name, args.keep)
        print(f"ok: reports loaded in {os.path.basename(browser)} without console messages; "
              f"{sum(elements.found.values())} elements (elastic: {sum(elastic.found.values())}); "
              f"screenshot {args.screenshot}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
