"""A training step over Harbor tasks through the Python trainer client, reading per-step rewards.

    python3 harbor_turn_rewards.py <tasks.json>     (RAAS_URL, RAAS_TOKEN in the environment)

tasks.json: a list of `{"id", "kind", "payload"}`. Creates a run and one step (one group per task,
dynamic sampling off), takes every group, and prints one JSON line per trajectory: its task, scalar
reward, typed turn rewards and where `token_rewards()` put them.
"""

import dataclasses
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../../clients/python"))

from raas_client import RaasClient, StepTask, TurnReward  # noqa: E402


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        tasks = [StepTask(t["id"], t["kind"], t["payload"]) for t in json.load(handle)]
    client = RaasClient(os.environ["RAAS_URL"], token=os.environ["RAAS_TOKEN"], timeout=120)
    run = client.create_run("harbor-turn-rewards", model="simulated").run
    step = client.create_step(
        run.id, tasks=tasks, group_size=1, groups=len(tasks), dynamic_sampling="none", shuffle_seed=1
    ).step
    for group in client.iter_groups(step.id, mode="poll"):
        for trajectory in group.trajectories:
            assert all(isinstance(entry, TurnReward) for entry in trajectory.turn_rewards)
            placed = [i for i, value in enumerate(trajectory.token_rewards()) if value != 0.0]
            print(
                json.dumps(
                    {
                        "task": group.task_id,
                        "reward": trajectory.reward,
                        "turnCount": trajectory.turn_count,
                        "turnSpans": {turn.index: [turn.start, turn.end] for turn in trajectory.turns},
                        "turnRewards": [dataclasses.asdict(entry) for entry in trajectory.turn_rewards],
                        "placedAt": placed,
                    }
                )
            )


if __name__ == "__main__":
    main()
