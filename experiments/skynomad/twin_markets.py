#!/usr/bin/python3
"""Where `cost-aware`'s regret in SkyNomad's setting comes from: the same markets without their time structure.

A twin of a recording keeps each zone's prices and the lengths of its spot spells (the runs of availability and the
gaps between them, as recorded) and drops everything else: the twin's zone alternates spells drawn at random, with
replacement, from that zone's own up-spells and gaps, independently of every other zone and of the time of day. It
is the recording's market as a stationary model knows it, which is all a policy that learns spell lengths (as
`cost-aware` does, zone_survival.hpp) can know of it. Run on twins, a policy's regret is the part that remains when
nothing in the market changes phase, no zone's gaps come with another's, and no day differs from the next; what it
loses on the real recording beyond that is what that structure costs it.

At one region the twin has a second use. Its spells are i.i.d., so a plan that knows their distribution
(`planned:calibration=<a long twin of that zone>,regimes=pooled`, docs/policies.md#planned) bounds from above what
the best online policy can do there: its regret to the exact optimum is at least that policy's. It is a bound, not
the optimum: the plan counts the spell under way at a window's start from 0, pools spells older than `ages` steps
(2 h) into a geometric tail and keeps slack in tenths of a step (`--plan-options ages=...,max_bins=...,step=...`).

usage: experiments/skynomad/twin_markets.py [--setting gcp-h100|aws-v100] [--counts 1,4] [--twins 8] [--seed 1]
           [--policy SPEC]... [--plan] [--plan-options ages=48,...] [--real] [--bin build/tools/spotsim] [--csv OUT]
           [--keep DIR]
On the wide windows of experiments/skynomad_region_scaling.py, for each twin (seeds seed, seed + 1, ...): mean cost
and mean regret to spotsim's optimum per region count and policy; with --real the recording itself too, and with
--plan (one region only) the plan that knows the twin's spell distribution; then over the twins: the mean, standard
deviation, lowest and highest of their mean regrets and the twins under 5%.
"""
import argparse
import collections
import contextlib
import concurrent.futures
import json
import os
import random
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import skynomad_region_scaling as scaling  # noqa: E402

REPO = scaling.REPO


def spell_sequence(availability, span_s):
    """The spells of one availability series in order, as (seconds, up); a count above 0 is up, and consecutive
    entries in the same state (another count) are one spell. The last spell, cut by the end at `span_s`, counts as
    recorded (its true length is at least that)."""
    runs = []  # [up, start]
    for time, count in zip(availability["times_s"], availability["counts"]):
        if not runs or runs[-1][0] != (count > 0):
            runs.append([count > 0, time])
    ends = [start for _, start in runs[1:]] + [span_s]
    return [(end - start, up) for (up, start), end in zip(runs, ends) if end > start]


def spells(zone, span_s):
    """(up spells, gaps) of one zone's recorded availability, in seconds (spell_sequence)."""
    sequence = spell_sequence(zone["spot"]["availability"], span_s)
    return [length for length, up in sequence if up], [length for length, up in sequence if not up]


def twin_availability(up, down, span_s, rng):
    """A stationary alternating sequence of spells drawn with replacement from `up` and `down`, over [0, span_s):
    started a whole span before 0 so that the state and the spell's age at 0 are as in a long run. A zone that was
    never down (or never up) in the recording stays as it was."""
    if not down:
        return {"times_s": [0.0], "counts": [1.0]}
    if not up:
        return {"times_s": [0.0], "counts": [0.0]}
    t = -float(span_s)
    state = rng.random() < sum(up) / (sum(up) + sum(down))
    times, counts = [], []
    while t < span_s:
        length = rng.choice(up if state else down)
        if t + length > 0:
            times.append(max(t, 0.0))
            counts.append(1.0 if state else 0.0)
        t += length
        state = not state
    return {"times_s": times, "counts": counts}


def write_twin(trace_path, seed, directory):
    """The twin of every zone of `trace_path` (seeded), as a trace file in `directory`."""
    trace = json.load(open(trace_path))
    rng = random.Random(seed)
    for zone in trace["zones"]:
        up, down = spells(zone, trace["span_s"])
        zone["spot"]["availability"] = twin_availability(up, down, trace["span_s"], rng)
    trace["name"] = f"{trace.get('name', 'trace')}-twin-{seed}"
    trace["description"] = (f"Twin of {os.path.basename(trace_path)} (experiments/skynomad/twin_markets.py, seed "
                            f"{seed}): each zone's spells redrawn with replacement from its own, independently")
    path = os.path.join(directory, f"twin-{seed}.json")
    json.dump(trace, open(path, "w"))
    return path


def calibration(trace_path, zone_name, directory, seed=1000, spans=20):
    """The calibration of the plan that knows a zone's spells: one zone alone, a twin of it `spans` times as long as
    the recording (seeded apart from the twins it is used on). The plan learns the spells that end inside its
    calibration, so a long twin gives it the twins' own distribution, the recording's first and last spells (cut by
    its ends, the longest ones here) included, which the recording itself would drop."""
    trace = json.load(open(trace_path))
    trace["zones"] = [z for z in trace["zones"] if z["name"] == zone_name]
    trace.pop("migration", None)  # egress between regions: none with one zone
    zone = trace["zones"][0]
    up, down = spells(zone, trace["span_s"])
    trace["span_s"] = spans * trace["span_s"]
    zone["spot"]["availability"] = twin_availability(up, down, trace["span_s"], random.Random(seed))
    if "price_series" in zone["spot"]:  # the plan reads availability only; a constant price covers the long span
        zone["spot"]["price_per_hour"] = zone["spot"].pop("price_series")["values"][0]
    path = os.path.join(directory, f"calibration-{zone_name}.json")
    json.dump(trace, open(path, "w"))
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--setting", default="gcp-h100", choices=list(scaling.SETTINGS))
    parser.add_argument("--counts", default="1", help="region counts, e.g. 1,4,5 [default: 1]")
    parser.add_argument("--twins", type=int, default=8, help="twins per run [default: 8]")
    parser.add_argument("--seed", type=int, default=1, help="the first twin's seed [default: 1]")
    parser.add_argument("--policy", action="append", help="policy spec (repeatable) [default: cost-aware]")
    parser.add_argument("--plan", action="store_true", help="at one region, also the plan that knows the spells")
    parser.add_argument("--plan-options", default="",
                        help="more of the plan's parameters, e.g. ages=48,max_bins=20 (a finer model and grid)")
    parser.add_argument("--real", action="store_true", help="also the recording itself")
    parser.add_argument("--bin", default=os.path.join(REPO, "build", "tools", "spotsim"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--csv", help="also write every run")
    parser.add_argument("--keep", help="write the traces (recording, twins, the plan's calibration) to this directory "
                                       "and keep them, to replay a window [default: a temporary directory]")
    args = parser.parse_args()
    s = scaling.SETTINGS[args.setting]
    try:
        counts = [int(c) for c in args.counts.split(",")]
    except ValueError:
        parser.error(f"--counts: expected region counts separated by commas, got '{args.counts}'")
    if any(not 1 <= n <= len(s["zones"]) for n in counts):
        parser.error(f"--counts: {args.setting} has 1 to {len(s['zones'])} regions, got '{args.counts}'")
    if args.twins < 0 or (args.twins == 0 and not args.real):
        parser.error("--twins: expected at least 1 (or 0 with --real)")
    policies = args.policy or ["cost-aware"]
    rows = []
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    with contextlib.nullcontext(args.keep) if args.keep else tempfile.TemporaryDirectory() as tmp:
        recording = (scaling.gcp_trace_x8(tmp) if args.setting == "gcp-h100"
                     else os.path.join(REPO, "traces", "library", "aws-v100-9-zones.json"))
        markets = [(f"twin {args.seed + k}", write_twin(recording, args.seed + k, tmp)) for k in range(args.twins)]
        if args.real:
            markets.insert(0, ("recording", recording))
        calibration_path = calibration(recording, s["zones"][0], tmp)
        jobs = []
        for market, path in markets:
            for n in counts:
                specs = list(policies)
                if args.plan and n == 1:
                    specs.append(f"planned:calibration={calibration_path},regimes=pooled" +
                                 (f",{args.plan_options}" if args.plan_options else ""))
                for ratio, start in scaling.windows(args.setting, "wide"):
                    jobs += [(market, path, n, ratio, start, spec) for spec in specs]
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = pool.map(lambda j: scaling.run(args.bin, j[1], s["zones"][:j[2]], j[5], s["work_h"], j[3],
                                                     j[4]), jobs)
            for (market, _, n, ratio, start, spec), r in zip(jobs, results):
                rows.append({"market": market, "regions": n, "ratio": ratio, "start_h": round(start, 4),
                             "policy": "planned (knows the spells)" if spec.startswith(
                                 f"planned:calibration={calibration_path},") else spec,
                             "cost": float(r["cost_total"]), "optimum": float(r["optimum_cost"]),
                             "regret": float(r["regret"]), "deadline_met": int(r["deadline_met"])})
    cells = collections.OrderedDict()
    for r in rows:
        cells.setdefault((r["market"], r["regions"], r["policy"]), []).append(r)
    print(f"\n{args.setting}, wide windows: mean cost $ (mean regret to spotsim's optimum)\n")
    print("| market | regions | policy | windows | optimum $ | cost $ (regret) | late |")
    print("|---|---|---|---|---|---|---|")
    for (market, n, policy), rs in cells.items():
        optimum = sum(r["optimum"] for r in rs) / len(rs)
        cost = sum(r["cost"] for r in rs) / len(rs)
        regret = sum(r["regret"] for r in rs) / len(rs)
        late = sum(1 - r["deadline_met"] for r in rs)
        print(f"| {market} | {n} | {policy} | {len(rs)} | {optimum:.2f} | {cost:.2f} ({100 * regret:.1f}%) | {late} |")
    print("\nOver the twins: the mean of the twins' mean regrets, their standard deviation, the lowest and highest, and "
          "the twins under 5%\n")
    print("| regions | policy | twins | regret | sd | lowest | highest | under 5% |")
    print("|---|---|---|---|---|---|---|---|")
    by_count = collections.OrderedDict()
    for (market, n, policy), rs in cells.items():
        if market.startswith("twin"):
            by_count.setdefault((n, policy), []).append(sum(r["regret"] for r in rs) / len(rs))
    for (n, policy), regrets in sorted(by_count.items(), key=lambda item: item[0][0]):
        mean = sum(regrets) / len(regrets)
        sd = statistics.stdev(regrets) if len(regrets) > 1 else 0.0
        under = sum(1 for r in regrets if r < 0.05)
        print(f"| {n} | {policy} | {len(regrets)} | {100 * mean:.1f}% | {100 * sd:.1f} | {100 * min(regrets):.1f}% | "
              f"{100 * max(regrets):.1f}% | {under} |")
    if args.csv:
        scaling.write_rows(args.csv, rows)


if __name__ == "__main__":
    main()
