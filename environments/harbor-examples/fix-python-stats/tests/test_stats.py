"""Grades /app/stats in a child process per run: the agent's code never runs in this process.

This file runs isolated (`python3 -I`); the child imports the agent's package, answers each case
as JSON, and only its answers are compared here.
"""

import json
import math
import subprocess
import sys

CHILD = r"""
import json, sys
from stats import median, percentile
out = []
for name, args in json.load(sys.stdin):
    try:
        out.append({"value": (median if name == "median" else percentile)(*args)})
    except ValueError:
        out.append({"error": "ValueError"})
    except Exception as error:
        out.append({"error": type(error).__name__})
print(json.dumps(out))
"""

CASES = [
    (("median", [[3, 1, 2]]), {"value": 2}),
    (("median", [[4, 1, 3, 2]]), {"value": 2.5}),
    (("median", [[]]), {"error": "ValueError"}),
    (("percentile", [[1, 2, 3, 4], 50]), {"value": 2.5}),
    (("percentile", [[10, 20, 30, 40, 50], 10]), {"value": 14.0}),
    (("percentile", [[5, 1, 9], 0]), {"value": 1}),
    (("percentile", [[5, 1, 9], 100]), {"value": 9}),
    (("percentile", [[], 50]), {"error": "ValueError"}),
    (("percentile", [[1, 2], -1]), {"error": "ValueError"}),
    (("percentile", [[1, 2], 101]), {"error": "ValueError"}),
]


def matches(got, expected):
    if "error" in expected:
        return got == expected
    value = got.get("value") if isinstance(got, dict) else None
    return isinstance(value, (int, float)) and math.isclose(value, expected["value"], abs_tol=1e-9)


def main():
    try:
        run = subprocess.run(
            [sys.executable, "-c", CHILD],
            input=json.dumps([case for case, _ in CASES]),
            capture_output=True,
            text=True,
            timeout=30,
            cwd="/app",
            env={"PYTHONPATH": "/app", "PATH": "/usr/bin:/bin"},
        )
        answers = json.loads(run.stdout.strip().splitlines()[-1])
    except (subprocess.TimeoutExpired, ValueError, IndexError) as error:
        print("FAIL: the package did not answer:", error)
        answers = []
    passed = sum(
        1 for index, (_, expected) in enumerate(CASES) if index < len(answers) and matches(answers[index], expected)
    )
    print(f"{passed}/{len(CASES)} cases passed")
    # Whatever the package left running is killed before the reward is written.
    subprocess.run(["bash", "-c", "source /tests/reap.sh && reap_leftovers"], timeout=30)
    with open("/logs/verifier/reward.txt", "w") as handle:
        handle.write("1\n" if passed == len(CASES) else "0\n")


if __name__ == "__main__":
    main()
