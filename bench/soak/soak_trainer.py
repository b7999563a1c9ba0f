"""The soak bench's trainer: the shipped Python client running training steps until a deadline.

    PYTHONPATH=clients/python python3 bench/soak/soak_trainer.py --url URL --token TOKEN \\
        --seconds 1200 --groups 8 --group-size 4 --dataset math

Per step: a step of m groups x n samples with server-side dynamic sampling (zero-variance groups
dropped and replaced, redundant jobs cancelled), every group received over SSE, then the next
weight version announced as a trainer does after its optimizer step. Prints one JSON line per
step ({"step", "ms", "groups", "status"}) and a last {"done": true, "steps": k}; starts no step
after the deadline (or `--max-steps`). Exit status 1 when a request fails.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))

from raas_client import RaasClient, RaasError  # noqa: E402


def emit(record: dict) -> None:
    print(json.dumps(record), flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--seconds", type=float, required=True, help="start no step after this many seconds")
    parser.add_argument("--max-steps", type=int, default=None, help="stop after this many steps (a warm-up)")
    parser.add_argument("--run-name", default="soak")
    parser.add_argument("--groups", type=int, default=8)
    parser.add_argument("--group-size", type=int, default=4)
    parser.add_argument("--dataset", default="math")
    parser.add_argument("--temperature", type=float, default=1.0)
    args = parser.parse_args(argv)

    client = RaasClient(args.url, token=args.token)
    deadline = time.monotonic() + args.seconds
    step = 0
    try:
        run = client.create_run(args.run_name, model="soak-policy", dataset=args.dataset).run
        policy = client.get_policy(run.policy_id)
        version = policy.weight_version
        if version is None:
            version = client.set_weight_version(0, policy_id=run.policy_id).weight_version or 0
        while time.monotonic() < deadline and (args.max_steps is None or step < args.max_steps):
            started = time.monotonic()
            created = client.create_step(
                run.id,
                step_key=f"soak-{step}",
                dataset=args.dataset,
                group_size=args.group_size,
                groups=args.groups,
                dynamic_sampling="zero-variance",
                shuffle_seed=step,
                agent={"temperature": args.temperature},
            )
            groups = sum(1 for _ in client.iter_groups(created.step.id, mode="sse"))
            status = client.get_step(created.step.id).status
            # The optimizer step happened: the backends serve the next weights.
            version += 1
            client.set_weight_version(version, policy_id=run.policy_id)
            emit({"step": step, "ms": round((time.monotonic() - started) * 1000), "groups": groups, "status": status})
            step += 1
        client.finish_run(run.id)
    except RaasError as error:
        print(f"FAIL: {error}", file=sys.stderr, flush=True)
        return 1
    emit({"done": True, "steps": step})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
