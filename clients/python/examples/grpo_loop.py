"""A GRPO-style training loop against a RaaS server, with the trainer's GPU work left out.

    python3 clients/python/examples/grpo_loop.py --url http://127.0.0.1:8080 --token $RAAS_TOKEN \\
        --steps 3 --kind sleep

Per step: ask for m groups of n samples (inline tasks of --kind, or the server's --dataset) ->
receive the groups as they are decided -> group-normalised advantages (r - mean) / (std + eps) ->
print a summary (groups, mean reward, sampled tokens, waste) -> announce the next weight version as
a real trainer would after its optimizer step. The last line is a JSON summary; the exit status is
1 when a request fails or a step hands out no group.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from raas_client import GroupResult, RaasClient, RaasError, StepTask  # noqa: E402

EPS = 1e-6


def sleep_tasks(count: int) -> list[StepTask]:
    """Diagnostic tasks (the server's `sleep` handler): some always solved, some never, some mixed."""
    rates = [1.0, 0.0, 0.5, 0.5, 0.3, 0.7, 0.5, 0.5]
    return [
        StepTask(
            f"sleep-{i}",
            "sleep",
            {"initMs": 5, "runMs": 20 + 10 * (i % 4), "evalMs": 5, "successRate": rates[i % len(rates)]},
        )
        for i in range(count)
    ]


def tasks_from_file(path: str, kind: str) -> list[StepTask]:
    """JSON Lines of task payloads, each with a `taskId` (the format of packages/handlers/data/*.jsonl)."""
    with open(path, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [StepTask(row["taskId"], kind, row) for row in rows]


def advantages(group: GroupResult) -> list[float | None]:
    """GRPO: each trainable sample's reward normalised within its group; None for the others."""
    rewards = [t.reward if t.trainable and t.reward is not None else None for t in group.trajectories]
    scored = [r for r in rewards if r is not None]
    if not scored:
        return [None] * len(rewards)
    mean = sum(scored) / len(scored)
    std = math.sqrt(sum((r - mean) ** 2 for r in scored) / len(scored))
    return [None if r is None else (r - mean) / (std + EPS) for r in rewards]


def run_step(
    client: RaasClient, args: argparse.Namespace, run_id: str, k: int, tasks: list[StepTask] | None
) -> dict:
    created = client.create_step(
        run_id,
        step_key=f"step-{k}",
        tasks=tasks,
        dataset=args.dataset,
        group_size=args.group_size,
        groups=args.groups,
        dynamic_sampling=args.policy,
        shuffle_seed=k,
        # Agent tasks sample at a temperature, each member with its own seed (the server's), so a
        # group's members differ; the diagnostic sleep handler takes no agent settings.
        agent=None if args.kind == "sleep" and not args.dataset else {"temperature": args.temperature},
    )
    step = created.step
    rewards: list[float] = []
    sampled_tokens = 0
    groups = 0
    turn_versions: set[str] = set()
    for group in client.iter_groups(step.id, mode=args.mode):
        groups += 1
        adv = advantages(group)
        # A trainer would now add (tokens, loss_mask, logprobs, advantage) of each sample to its batch.
        for trajectory, advantage in zip(group.trajectories, adv):
            if advantage is None:
                continue
            rewards.append(trajectory.reward or 0.0)
            sampled_tokens += trajectory.sampled_tokens
            # Off-policy correction would read these: the weights each turn was sampled with.
            turn_versions.update(turn.weight_version for turn in trajectory.turns if turn.weight_version)
    final = client.get_step(step.id)
    waste = final.stats.waste.total
    summary = {
        "step": k,
        "stepId": step.id,
        "status": final.status,
        "groups": groups,
        "meanReward": sum(rewards) / len(rewards) if rewards else None,
        "sampledTokens": sampled_tokens,
        "turnWeightVersions": sorted(turn_versions, key=lambda v: (len(v), v)),
        "informative": final.stats.informative,
        "uninformative": final.stats.uninformative,
        "wasteJobs": waste.jobs,
        "wasteRolloutSeconds": round(waste.rollout_seconds, 3),
        "wasteTokens": waste.generated_tokens,
    }
    mean = "n/a" if summary["meanReward"] is None else f"{summary['meanReward']:.3f}"
    print(
        f"step {k}: {final.status}, {groups}/{args.groups} groups, mean reward {mean}, "
        f"{sampled_tokens} sampled tokens, {final.stats.uninformative} zero-variance groups, "
        f"waste {waste.jobs} jobs / {waste.rollout_seconds:.1f} s / {waste.generated_tokens} tokens"
    )
    return summary


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default=os.environ.get("RAAS_URL", "http://127.0.0.1:8080"))
    parser.add_argument("--token", default=os.environ.get("RAAS_TOKEN"), help="trainer token ($RAAS_TOKEN)")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--groups", type=int, default=4, help="groups per step (m)")
    parser.add_argument("--group-size", type=int, default=4, help="samples per group (n)")
    parser.add_argument("--dataset", help="draw tasks from this server dataset (GET /api/v1/datasets)")
    parser.add_argument("--kind", default="sleep", help="handler kind of inline tasks (default sleep)")
    parser.add_argument("--tasks", help="JSON Lines of --kind payloads with a taskId (default: sleep tasks)")
    parser.add_argument("--policy", choices=["zero-variance", "none"], default="zero-variance")
    parser.add_argument("--temperature", type=float, default=1.0, help="sampling temperature of agent tasks")
    parser.add_argument("--mode", choices=["sse", "poll"], default="sse", help="how groups are received")
    parser.add_argument("--run-name", default="grpo-loop-example")
    args = parser.parse_args(argv)
    if args.dataset and args.tasks:
        parser.error("give --dataset or --tasks, not both")
    if not args.dataset and not args.tasks and args.kind != "sleep":
        parser.error(f"--kind {args.kind} needs --tasks FILE (or use --dataset)")

    client = RaasClient(args.url, token=args.token)
    tasks = None
    if not args.dataset:
        tasks = tasks_from_file(args.tasks, args.kind) if args.tasks else sleep_tasks(48)
    try:
        run = client.create_run(args.run_name, model="example-policy", dataset=args.dataset or args.kind).run
        print(f"run {run.id} ({run.name})")
        # Weight versions are the run's policy's (here the default policy, which this token owns once
        # its first run names it): continue from the current one, or announce the initial weights
        # as version 0 so that every turn is stamped with a version.
        policy = client.get_policy(run.policy_id)
        if policy.weight_version is None:
            policy = client.set_weight_version(0, policy_id=run.policy_id)
        base_version = policy.weight_version or 0
        steps = []
        for k in range(args.steps):
            summary = run_step(client, args, run.id, k, tasks)
            steps.append(summary)
            if summary["groups"] == 0:
                print(f"FAIL: step {k} handed out no group ({summary['status']})", file=sys.stderr)
                return 1
            # The optimizer step happened: the backends now serve the next weights.
            client.set_weight_version(base_version + k + 1, policy_id=run.policy_id)
        client.finish_run(run.id)
    except RaasError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1
    print(json.dumps({"ok": True, "runId": run.id, "steps": steps}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
