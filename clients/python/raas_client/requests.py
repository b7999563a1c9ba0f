"""What the client sends: request bodies and query strings as dataclasses.

A field left at None (with a None default) is not sent, so the server's default applies; the
defaults live on the server, not here. Plain dicts (`payload`, `config`, `agent`) are sent as given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .models import PauseMode, RunRetention


@dataclass(frozen=True)
class CreateRunRequest:
    name: str
    run_key: str | None = None
    model: str | None = None
    dataset: str | None = None
    config: dict[str, Any] | None = None
    share: float | None = None
    priority: int | None = None
    max_sandboxes: int | None = None
    policy_id: str | None = None
    retention: RunRetention | None = None
    image: str | None = None


@dataclass(frozen=True)
class StepTask:
    """One task of an inline task source; every member of its group runs `payload`."""

    task_id: str
    kind: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class Teacher:
    """The teacher that scores each finished trajectory (on-policy distillation): exactly one of a
    policy (any backend registered under it) or one backend by id."""

    policy_id: str | None = None
    backend_id: str | None = None


@dataclass(frozen=True)
class InlineTasks:
    tasks: list[StepTask]
    type: Literal["inline"] = "inline"


@dataclass(frozen=True)
class DatasetTasks:
    dataset: str
    type: Literal["dataset"] = "dataset"


@dataclass(frozen=True)
class StageTimeoutsMs:
    init: int | None = None
    run: int | None = None
    eval: int | None = None


@dataclass(frozen=True)
class DynamicSampling:
    """`none` hands out every complete group; `zero-variance` (DAPO) only groups whose rewards differ."""

    policy: Literal["none", "zero-variance"] | None = None
    over_provision: float | None = None
    max_groups: int | None = None
    # `zero-variance` only: members a new group runs first; the rest run once two rewards differ.
    pilot: int | None = None


@dataclass(frozen=True)
class UniformSampling:
    """Every task of the source in turn (seeded order with `shuffle_seed`)."""

    policy: Literal["uniform"] = "uniform"


@dataclass(frozen=True)
class AdaptiveSampling:
    """Curriculum over per-task pass rates: favour tasks near `target_pass_rate` over their last
    `window_size` attempts, retire tasks solved `retire_after_solved_in_a_row` times in a row and
    re-probe one every `reprobe_every` draws. Unset fields take the server's defaults."""

    policy: Literal["adaptive"] = "adaptive"
    target_pass_rate: float | None = None
    window_size: int | None = None
    retire_after_solved_in_a_row: int | None = None
    reprobe_every: int | None = None
    settled_weight: float | None = None
    scope: Literal["run", "dataset"] | None = None


@dataclass(frozen=True)
class Staleness:
    """A sample dispatched under version v is stale once the policy's version exceeds v + max_versions."""

    max_versions: int
    action: Literal["withhold", "regenerate"] | None = None


@dataclass(frozen=True)
class CreateStepRequest:
    run_id: str
    tasks: InlineTasks | DatasetTasks
    group_size: int
    groups: int
    step_key: str | None = None
    agent: dict[str, Any] | None = None
    timeouts_ms: StageTimeoutsMs | None = None
    priority: int | None = None
    dynamic_sampling: DynamicSampling | None = None
    staleness: Staleness | None = None
    max_infra_retries: int | None = None
    max_job_failures: int | None = None
    shuffle_seed: int | None = None
    task_sampling: UniformSampling | AdaptiveSampling | None = None
    require_certified_traces: bool | None = None
    teacher: Teacher | None = None


@dataclass(frozen=True)
class ListQuery:
    limit: int | None = None


@dataclass(frozen=True)
class NextGroupsQuery:
    after_seq: int | None = None
    limit: int | None = None
    timeout_ms: int | None = None


@dataclass(frozen=True)
class StreamQuery:
    after_seq: int | None = None


@dataclass(frozen=True)
class PolicyQuery:
    """Names a policy; None: the default policy."""

    policy_id: str | None = None


@dataclass(frozen=True)
class SetPolicyVersionRequest:
    weight_version: int
    policy_id: str | None = None


@dataclass(frozen=True)
class PauseRequest:
    mode: PauseMode | None = None
    policy_id: str | None = None


@dataclass(frozen=True)
class ResumeRequest:
    weight_version: int | None = None
    policy_id: str | None = None


@dataclass(frozen=True)
class RegisterBackendRequest:
    base_url: str
    kind: Literal["vllm", "sglang", "nemo-rl"] | None = None
    id: str | None = None
    model_name: str | None = None
    weight_version: str | None = None
    max_concurrency: int | None = None
    policy_id: str | None = None


@dataclass(frozen=True)
class CancelJobsRequest:
    """Exactly one of the three."""

    job_id: str | None = None
    group_id: str | None = None
    batch_id: str | None = None
