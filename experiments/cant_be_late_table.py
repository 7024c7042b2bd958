#!/usr/bin/python3
"""Turns the summary.json of the Can't Be Late sweeps (experiments/specs/cant-be-late-*.json) into the markdown
table of docs/validation.md: cost saving of each policy against on-demand per trace and deadline, the fraction of
deadlines met, and the mean saving per policy over all cells.

usage: experiments/cant_be_late_table.py SWEEP_DIR/summary.json
"""
import collections
import json
import sys


def main(path):
    summary = json.load(open(path))
    cells = collections.OrderedDict()  # (trace, job) -> {policy: (mean cost, deadline met)}
    for c in summary["configurations"]:
        s = c["summary"]
        cells.setdefault((c["trace"], c["job"]), {})[c["policy"]] = (s["cost_total"]["mean"], s["deadline_met"]["mean"])
    policies = [p for p in ("greedy", "uniform-progress", "adaptive") if any(p in v for v in cells.values())]
    print("| trace | " + "job | on-demand USD | " + " | ".join(f"{p} saving" for p in policies) + " | deadlines met (min) |")
    print("|---|---|---|" + "---|" * len(policies) + "---|")
    totals = collections.defaultdict(list)
    wins = collections.Counter()
    for (trace, job), by_policy in cells.items():
        od = by_policy["on-demand"][0]
        savings = {p: 1.0 - by_policy[p][0] / od for p in policies}
        best = max(savings, key=savings.get)
        wins[best] += 1
        for p in policies:
            totals[p].append(savings[p])
        met = min(v[1] for v in by_policy.values())
        row = " | ".join((f"**{100 * savings[p]:.1f}%**" if p == best else f"{100 * savings[p]:.1f}%") for p in policies)
        print(f"| {trace} | {job} | {od:.2f} | {row} | {met:.3f} |")
    print()
    print("| policy | mean saving over all cells | cells where it saves most |")
    print("|---|---|---|")
    for p in policies:
        print(f"| {p} | {100 * sum(totals[p]) / len(totals[p]):.1f}% | {wins[p]} of {len(cells)} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
