"""Typed views of what the server returns (its `/openapi.json` component of the same name).

Fields are snake_case; `wire.py` maps them to the server's camelCase. The drift test checks every
field against the running server's document, so a renamed or new required property fails CI.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

RunStatus = Literal["active", "finished"]
StepStatus = Literal["running", "completed", "exhausted", "cancelled", "failed"]
GroupDecision = Literal["undecided", "informative", "uninformative", "failed"]
GroupState = Literal["running", "delivered", "dropped", "withheld", "carried", "cancelled"]
PauseMode = Literal["wait", "abort-and-continue"]
TurnRewardSource = Literal["verifier", "tool"]


@dataclass(frozen=True)
class RunRetention:
    """When a run's finished steps' trajectories move to the server's archive (every condition
    given must hold); read back from there by every call that returns them."""

    archive_after_steps: int | None = None
    """Once the run has this many newer steps."""
    archive_after_ms: int | None = None
    """Once the step closed at least this many milliseconds ago."""


@dataclass(frozen=True)
class Run:
    """One training run: a series of steps."""

    id: str
    run_key: str | None
    name: str
    model: str | None
    dataset: str | None
    config: dict[str, Any] | None
    status: RunStatus
    share: float
    """Weight of the run's fair share of the service among active runs of its priority."""
    priority: int
    max_sandboxes: int | None
    owner_id: str | None
    """Fingerprint of the token that created the run; writes need that token or an admin one."""
    policy_id: str
    """The policy the run trains: its backends, weight version and weight-sync pause."""
    retention: RunRetention | None
    """Its retention policy; None: trajectories stay in the server's database."""
    image: str | None
    """Default image of its jobs' sandboxes (an absolute path on the sandbox hosts); None: none."""
    step_count: int
    created_at_ms: float
    updated_at_ms: float


@dataclass(frozen=True)
class WasteEntry:
    """Rollout work spent on trajectories that were not handed out."""

    jobs: int
    rollout_seconds: float
    generated_tokens: int


@dataclass(frozen=True)
class WasteLedger:
    """Where a step's rollout work went without reaching the trainer."""

    cancelled: WasteEntry
    zero_variance: WasteEntry
    stale: WasteEntry
    infra_failures: WasteEntry
    # Groups dropped for an uncertified gateway trace (steps with require_certified_traces); a
    # server from before it sends none.
    uncertified: WasteEntry = WasteEntry(jobs=0, rollout_seconds=0.0, generated_tokens=0)
    # Samples of carried long shots that a step let go untaken (more waited than a step takes); a
    # server from before it sends none.
    expired_long_shots: WasteEntry = WasteEntry(jobs=0, rollout_seconds=0.0, generated_tokens=0)
    # Samples whose grade was voided because a grader's canary tests lied (failure label
    # `tampered`): handed out with reward 0 when their group is; a server from before it sends none.
    tampered: WasteEntry = WasteEntry(jobs=0, rollout_seconds=0.0, generated_tokens=0)

    @property
    def total(self) -> WasteEntry:
        entries = (
            self.cancelled,
            self.zero_variance,
            self.stale,
            self.infra_failures,
            self.uncertified,
            self.expired_long_shots,
            self.tampered,
        )
        return WasteEntry(
            jobs=sum(entry.jobs for entry in entries),
            rollout_seconds=sum(entry.rollout_seconds for entry in entries),
            generated_tokens=sum(entry.generated_tokens for entry in entries),
        )


@dataclass(frozen=True)
class StepJobFailures:
    """Infrastructure failures a step has seen (the policy's own failures are samples, not these)."""

    jobs: int
    #: By cause (`sandbox/init`, `inference/run`, `submit`; with the failure label when the job has
    #: one: `sandbox/run/misconfigured`, never re-run): `{"jobs": n, "lastMessage": "..."}`.
    causes: dict[str, Any]


@dataclass(frozen=True)
class StepFailure:
    """Why a step ended `failed`: its infrastructure failures passed its budget (`max_job_failures`)."""

    reason: Literal["failure-budget"]
    message: str
    jobs_failed: int
    budget: int
    commonest_cause: str | None
    commonest_cause_jobs: int
    commonest_message: str | None


@dataclass(frozen=True)
class StepStats:
    """A step's counters, reward statistics and waste ledger."""

    groups_started: int
    groups_decided: int
    informative: int
    uninformative: int
    failed_groups: int
    groups_delivered: int
    jobs_submitted: int
    jobs_cancelled: int
    infra_retries: int
    trajectories_carried_in: int
    trajectories_carried_over: int
    stale_withheld: int
    stale_regenerated: int
    trajectories: int
    reward_mean: float | None
    reward_std: float | None
    reward_min: float | None
    reward_max: float | None
    solved_fraction: float | None
    mean_trajectory_tokens: float | None
    waste: WasteLedger
    uncertified_dropped: int = 0
    #: Member jobs whose verifier gave no score (crash, time-out; `reward-fn`), every attempt counted.
    verifier_crashes: int = 0
    #: None from a server older than the failure budget.
    job_failures: StepJobFailures | None = None


@dataclass(frozen=True)
class Step:
    """One training step: its status, progress and statistics."""

    id: str
    run_id: str
    index: int
    step_key: str | None
    status: StepStatus
    group_size: int
    groups: int
    policy: Literal["none", "zero-variance"]
    stats: StepStats
    delivered_seq: int
    created_at_ms: float
    closed_at_ms: float | None
    #: Why the step failed (status `failed`); None otherwise.
    failure: StepFailure | None = None

    @property
    def is_done(self) -> bool:
        """True once the step stopped running (completed, exhausted, cancelled or failed)."""
        return self.status != "running"


@dataclass(frozen=True)
class GroupMember:
    """One slot of a group."""

    slot: int
    job_id: str
    status: Literal["running", "finished", "failed", "cancelled"]
    reward: float | None
    failure_kind: str | None
    attempts: int
    dispatch_version: int | None
    is_stale: bool
    carried_from_step_id: str | None
    rollout_ms: float
    generated_tokens: int
    past_job_ids: list[str]


@dataclass(frozen=True)
class Group:
    """A group (n samples of one task) and what was decided about it."""

    id: str
    step_id: str
    run_id: str
    task_id: str
    kind: str
    decision: GroupDecision
    state: GroupState
    seq: int | None
    members: list[GroupMember]
    created_at_ms: float
    decided_at_ms: float | None
    finished_at_ms: float | None
    # The later step that let this carried long shot go untaken; None otherwise (and from a server
    # from before it).
    expired_in_step_id: str | None = None


@dataclass(frozen=True)
class StageTimings:
    """Where a job's time went, in ms; a stage's time is None until it ended."""

    queue_ms: float
    init_ms: float | None
    run_ms: float | None
    eval_ms: float | None


@dataclass(frozen=True)
class WeightVersionSpan:
    """Sampled tokens `tokens[start:end]` that one weight version produced."""

    start: int
    end: int
    weight_version: str | None


@dataclass(frozen=True)
class TopLogprob:
    """One alternative at a sampled position (the backend's top-k): its token id and logprob."""

    token_id: int
    logprob: float


@dataclass(frozen=True)
class TeacherReport:
    """Whether a trajectory's teacher logprobs (on-policy distillation) are there, and why not."""

    policy_id: str | None
    """The teacher's policy, when the teacher was named by policy."""
    backend_id: str | None
    """The backend that scored (or the one named); None when none was reached."""
    is_scored: bool
    missing_reason: str | None
    """Why `teacher_logprobs` is None (the teacher failed, cannot score, the stream is not
    token-exact); None when scored. A teacher failure never changes the reward."""


@dataclass(frozen=True)
class SamplingParams:
    """The sampling parameters a turn was generated with, as sent to the backend: the job's or
    step's settings, never a harness's (its logprobs are under this distribution)."""

    temperature: float
    top_p: float
    top_k: int | None
    """None: no top-k was sent (the backend's default)."""
    seed: int | None
    max_tokens: int


@dataclass(frozen=True)
class TurnSpan:
    """Where one turn's sampled tokens sit in the flat stream (`tokens[start:end]`), and how.
    `weight_version_spans` covers the turn in order: several spans when an `abort-and-continue`
    weight sync continued it under newer weights."""

    index: int
    start: int
    end: int
    weight_version: str | None
    weight_version_spans: list[WeightVersionSpan]
    backend_id: str | None
    finish_reason: str | None
    cached_prompt_tokens: int | None
    latency_ms: float
    # None for turns recorded before the service kept them (and from a server that sends none).
    sampling: SamplingParams | None = None


@dataclass(frozen=True)
class TurnReward:
    """A per-step reward on turn `turn`, whose sampled tokens are `tokens[start:end]` (None when
    the turn is past a token break, outside the exported stream). `source` says who gave it: the
    task's verifier at EVAL, or a tool's result during RUN (then `tool_call_index` is the call's
    position in the turn and `label` the tool's name)."""

    turn: int
    reward: float
    source: TurnRewardSource
    label: str | None
    tool_call_index: int | None
    start: int | None
    end: int | None


@dataclass(frozen=True)
class TokenBreak:
    """The first place a stored trajectory stops being token-exact."""

    kind: str
    turn_index: int
    position: int
    expected_id: int | None
    actual_id: int | None
    message: str


@dataclass(frozen=True)
class StepTrajectory:
    """One group member as a loss reads it: `tokens`, `loss_mask` (1 on sampled tokens),
    `logprobs` and `versions` have the same length; train only when `trainable`."""

    job_id: str
    batch_id: str | None
    group_id: str | None
    kind: str
    status: str
    reward: float | None
    trainable: bool | None
    failure_kind: str | None
    failure_label: str | None
    tokens: list[int]
    loss_mask: list[int]
    logprobs: list[float | None]
    logprobs_complete: bool
    prompt_length: int
    turns: list[TurnSpan]
    turn_count: int
    token_exact: bool
    token_break: TokenBreak | None
    timings: StageTimings
    metadata: dict[str, Any] | None
    slot: int
    dispatch_version: int | None
    carried_from_step_id: str | None
    # Empty when the job has none (and from a server that sends none). `reward` stays the scalar.
    turn_rewards: list[TurnReward] = field(default_factory=list)
    # Aligned to `tokens` (AReaL's `versions`): the policy weight version that sampled each token
    # as an integer, -1 on prompt, observation and template tokens and where the version was none
    # or no integer (a free-form backend version). Empty from a server that sends none.
    versions: list[int] = field(default_factory=list)
    # Only when the job or step asked for top-k logprobs (`agent={"topLogprobs": k}`, 1..20):
    # aligned to `tokens`, the alternatives at each sampled token (most likely first, the sampled
    # token among them), None where `loss_mask` is 0. None when none were asked for.
    top_logprobs: list[list[TopLogprob] | None] | None = None
    # Only when the job or step named a teacher (`teacher=Teacher(policy_id=...)`) and it scored
    # the trajectory: aligned to `tokens`, the teacher's logprob of each sampled token given all
    # tokens before it, None where `loss_mask` is 0. None when missing: `teacher` says why.
    teacher_logprobs: list[float | None] | None = None
    # Present when the job or step named a teacher.
    teacher: TeacherReport | None = None

    @property
    def sampled_tokens(self) -> int:
        """Tokens the model sampled (where the loss mask is 1)."""
        return sum(self.loss_mask)

    def token_weight_versions(self) -> list[str | None]:
        """Aligned to `tokens`: the weight version that sampled each token, None on prompt and
        observation tokens — what an off-policy correction masks or reweights by."""
        versions: list[str | None] = [None] * len(self.tokens)
        for turn in self.turns:
            for span in turn.weight_version_spans:
                versions[span.start : span.end] = [span.weight_version] * (span.end - span.start)
        return versions

    def token_rewards(self) -> list[float]:
        """Aligned to `tokens`: each per-step reward placed on the last sampled token of its turn
        (summed where several name one turn), 0.0 elsewhere — the usual way to feed turn-level
        rewards to a token-level loss. Rewards of turns outside the stream are left out."""
        rewards = [0.0] * len(self.tokens)
        for entry in self.turn_rewards:
            if entry.start is not None and entry.end is not None and entry.end > entry.start:
                rewards[entry.end - 1] += entry.reward
        return rewards


@dataclass(frozen=True)
class GroupResult:
    """A handed-out group, with every member's trajectory (by slot)."""

    seq: int
    group_id: str
    step_id: str
    run_id: str
    task_id: str
    decision: GroupDecision
    rewards: list[float | None]
    trajectories: list[StepTrajectory]


@dataclass(frozen=True)
class PolicyState:
    """One policy's owner, weight version and weight-sync pause (each policy has its own)."""

    policy_id: str
    owner_id: str | None
    """Fingerprint of the trainer token that owns the policy; its version and pause need it (or admin)."""
    weight_version: int | None
    is_paused: bool
    pause_mode: PauseMode | None
    paused_at_ms: float | None


@dataclass(frozen=True)
class Backend:
    """An inference backend in the routing pool."""

    id: str
    kind: str
    base_url: str
    model_name: str
    weight_version: str | None
    max_concurrency: int
    policy_id: str
    """The policy whose weights it serves: only that policy's jobs are routed to it."""
    lifecycle: Literal["active", "draining", "drained"]
    circuit: Literal["closed", "open", "half-open"]
    consecutive_failures: int
    in_flight: int
    sticky_jobs: int
    registered_at_ms: float
    last_health_check: dict[str, Any] | None
    stats: dict[str, Any]
