"""A training run over Harbor tasks through the Python trainer client, reading per-step rewards.

    python3 harbor_turn_rewards.py <plan.json>     (RAAS_URL, RAAS_TOKEN in the environment)

plan.json: `{"steps": [[{"id", "kind", "payload"}, ...], ...]}`, the tasks of each step in order.
Creates one run, then each step in turn (one group per task, dynamic sampling off): takes every
group of a step before creating the next, as a trainer that updates its weights between steps
would. Prints one JSON line per trajectory (`"type": "trajectory"`: its step, task, scalar reward,
typed turn rewards and where `token_rewards()` put them), one per step once it is done
(`"type": "step"`), and the run's steps as the server lists them at the end (`"type": "run"`).
"""

import dataclasses
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../../clients/python"))

from raas_client import RaasClient, StepTask, TurnReward  # noqa: E402


def emit(line: dict) -> None:
    print(json.dumps(line), flush=True)


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        plan = json.load(handle)
    client = RaasClient(os.environ["RAAS_URL"], token=os.environ["RAAS_TOKEN"], timeout=120)
    run = client.create_run("harbor-examples-training", model="simulated").run
    for number, step_tasks in enumerate(plan["steps"]):
        tasks = [StepTask(t["id"], t["kind"], t["payload"]) for t in step_tasks]
        step = client.create_step(
            run.id, tasks=tasks, group_size=1, groups=len(tasks), dynamic_sampling="none", shuffle_seed=1
        ).step
        rewards = []
        for group in client.iter_groups(step.id, mode="poll"):
            for trajectory in group.trajectories:
                assert all(isinstance(entry, TurnReward) for entry in trajectory.turn_rewards)
                placed = [i for i, value in enumerate(trajectory.token_rewards()) if value != 0.0]
                rewards.append(trajectory.reward)
                emit(
                    {
                        "type": "trajectory",
                        "step": number,
                        "stepId": group.step_id,
                        "runId": group.run_id,
                        "task": group.task_id,
                        "reward": trajectory.reward,
                        "turnCount": trajectory.turn_count,
                        "turnSpans": {turn.index: [turn.start, turn.end] for turn in trajectory.turns},
                        "turnRewards": [dataclasses.asdict(entry) for entry in trajectory.turn_rewards],
                        "placedAt": placed,
                    }
                )
        done = client.get_step(step.id)
        emit(
            {
                "type": "step",
                "step": number,
                "id": done.id,
                "runId": done.run_id,
                "index": done.index,
                "status": done.status,
                "groupsDelivered": done.stats.groups_delivered,
                "rewardMean": done.stats.reward_mean,
                "clientRewards": rewards,
                "createdAtMs": done.created_at_ms,
                "closedAtMs": done.closed_at_ms,
            }
        )
    steps = client.list_steps(run.id)
    emit(
        {
            "type": "run",
            "id": run.id,
            "stepCount": client.get_run(run.id).step_count,
            "steps": [[step.id, step.index] for step in steps],
        }
    )


if __name__ == "__main__":
    main()
