"""The child process of `python3 -m spotsim.score` (docs/plugins.md#score-isolation): loads the strategy file and runs
its windows, then writes the per-window results as one JSON line to the private descriptor the parent gave it
(argv[1]), never to stdout. The parent set its limits (time, memory, file size, processes) before this starts."""
import json
import os
import sys


def main():
    channel = int(sys.argv[1])
    request = json.loads(sys.argv[2])
    os.set_inheritable(channel, False)
    # The strategy's prints go to stderr: stdout carries nothing the parent reads.
    sys.stdout = sys.stderr
    from spotsim.score import run_windows
    from spotsim.strategy_files import strategy_policy
    policy = strategy_policy(request["strategy"], request["name"], request["args"], request["spec_path"])
    runs = run_windows(request["trace"], request["starts"], policy, **request["job"])
    result = {key: [float(v) for v in runs[key]] for key in ("cost_total", "completion_hours", "deadline_met")}
    result["fingerprint"] = [int(v) for v in runs["fingerprint"]]
    data = (json.dumps(result) + "\n").encode()
    with os.fdopen(channel, "wb", closefd=True) as out:
        out.write(data)


if __name__ == "__main__":
    main()
