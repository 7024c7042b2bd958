#!/usr/bin/env python3
"""Writes experiments/skynomad/published_windows.csv: SkyNomad's policy and its optimum, window by window, from the
artifact's result tables (andylizf/skynomad-artifact @ 62b9aaa, research/data/region_scaling.csv and v100.csv).

`published.csv` beside it holds their means per region count; the windows let a reader see where spotsim's optimum
and SkyNomad's differ (docs/validation.md#skynomad). Data only: the artifact's code is not used.

usage: experiments/skynomad/extract_windows.py REGION_SCALING.csv V100.csv [--out experiments/skynomad/published_windows.csv]
"""
import argparse
import csv
import os

STRATEGIES = {"gcp-h100": {"unified_cost_model_risk": "skynomad", "multi_region_oracle_dp": "optimum"},
              "aws-v100": {"unified_cost_model_rate_ratio": "skynomad", "multi_region_oracle_dp": "optimum"}}


def rows(path, setting):
    for r in csv.DictReader(open(path)):
        kind = STRATEGIES[setting].get(r["strategy"])
        if kind is None:
            continue
        yield {"setting": setting, "regions": int(r["num_regions"]), "window": int(r["window_index"]),
               "start_h": round(float(r["env_start_hours"]), 4), "deadline_h": round(float(r["deadline_hours"]), 4),
               "who": kind, "cost_usd": round(float(r["cost"]), 6), "migrations": int(r["migrations"])}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("region_scaling")
    parser.add_argument("v100")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "published_windows.csv"))
    args = parser.parse_args()
    out = list(rows(args.region_scaling, "gcp-h100")) + list(rows(args.v100, "aws-v100"))
    out.sort(key=lambda r: (r["setting"], r["regions"], r["window"], r["who"]))
    with open(args.out, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(out[0]))
        writer.writeheader()
        writer.writerows(out)
    print(f"wrote {args.out}: {len(out)} rows")


if __name__ == "__main__":
    main()
