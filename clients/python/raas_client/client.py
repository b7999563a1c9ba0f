"""`RaasClient`: a trainer's view of RaaS over its REST API (standard library only)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any, Literal

from . import operations as ops
from . import requests as rq
from .errors import RaasConnectionError, RaasError, StepFailedError
from .models import Group, GroupResult, PauseMode, PolicyState, Run, RunRetention, Step
from .operations import BackendRegistered, Dataset, NextGroups, RunCreated, StepCreated
from .sse import parse_events
from .transport import CONNECTION_ERRORS, Transport
from .wire import from_wire


class RaasClient:
    """A RaaS control plane at `base_url` (`http://127.0.0.1:8080`).

    `token` is sent as `Authorization: Bearer`; creating runs and steps needs a trainer token,
    `register_backend` an admin token. `timeout` is the socket timeout of every request, in seconds
    (long-polls and streams add their own wait to it). `max_reconnects` bounds how often in a row
    `iter_groups` reconnects without receiving anything before it gives up.
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        timeout: float = 30.0,
        *,
        max_reconnects: int = 5,
        stream_idle_timeout: float = 60.0,
    ):
        self._http = Transport(base_url, token, timeout)
        self.max_reconnects = max_reconnects
        self.stream_idle_timeout = stream_idle_timeout

    @property
    def base_url(self) -> str:
        return self._http.base_url

    # Runs

    def create_run(
        self,
        name: str,
        *,
        run_key: str | None = None,
        model: str | None = None,
        dataset: str | None = None,
        config: dict[str, Any] | None = None,
        share: float | None = None,
        priority: int | None = None,
        max_sandboxes: int | None = None,
        policy_id: str | None = None,
        retention: RunRetention | None = None,
        image: str | None = None,
    ) -> RunCreated:
        """Creates a training run; with `run_key`, a restarted trainer gets its existing run back
        (`created` False). `share` (default 1) weighs its fair share of the service among active
        runs, `priority` (default 0) runs it before lower ones, `max_sandboxes` caps its sandboxes.
        `policy_id` names the policy it trains (default: the default policy): its jobs generate on
        that policy's backends, under its weight version and pause. The run belongs to this
        client's token: its steps and finish need it (or an admin token); a policy nobody owns yet
        becomes this token's. `retention` archives the trajectories of finished steps on its
        schedule during a long run (default: none; they stay in the database). `image` is the
        default image of its jobs' sandboxes (an absolute path on the sandbox hosts: a rootfs
        directory, an OCI layout `path[:tag]`, an OCI or docker archive, or a SIF); a job's own
        image wins."""
        request = rq.CreateRunRequest(
            name,
            run_key=run_key,
            model=model,
            dataset=dataset,
            config=config,
            share=share,
            priority=priority,
            max_sandboxes=max_sandboxes,
            policy_id=policy_id,
            retention=retention,
            image=image,
        )
        return self._http.call(ops.CREATE_RUN, None, request)

    def get_run(self, run_id: str) -> Run:
        return self._http.call(ops.GET_RUN, {"runId": run_id})

    def list_runs(self, limit: int | None = None) -> list[Run]:
        return self._http.call(ops.LIST_RUNS, None, rq.ListQuery(limit)).items

    def finish_run(self, run_id: str) -> Run:
        return self._http.call(ops.FINISH_RUN, {"runId": run_id})

    def list_steps(self, run_id: str) -> list[Step]:
        return self._http.call(ops.LIST_STEPS, {"runId": run_id}).items

    # Steps and groups

    def create_step(
        self,
        run_id: str,
        *,
        group_size: int,
        groups: int,
        tasks: list[rq.StepTask] | None = None,
        dataset: str | None = None,
        step_key: str | None = None,
        agent: dict[str, Any] | None = None,
        timeouts_ms: rq.StageTimeoutsMs | None = None,
        priority: int | None = None,
        dynamic_sampling: rq.DynamicSampling | Literal["none", "zero-variance"] | None = None,
        staleness: rq.Staleness | None = None,
        max_infra_retries: int | None = None,
        max_job_failures: int | None = None,
        shuffle_seed: int | None = None,
        task_sampling: rq.UniformSampling | rq.AdaptiveSampling | Literal["uniform", "adaptive"] | None = None,
        require_certified_traces: bool | None = None,
        teacher: rq.Teacher | None = None,
    ) -> StepCreated:
        """Asks for `groups` groups of `group_size` samples, drawn from inline `tasks` or a server
        `dataset` (exactly one). `dynamic_sampling` and `task_sampling` may be just the policy's name.
        `require_certified_traces`: hand out only trajectories whose inference-gateway traces are
        token-exact (groups with an uncertified member are dropped, counted as `uncertified` waste).
        `max_job_failures`: infrastructure failures the step tolerates before it ends `failed`
        (default max(16, 2 × groups × group_size); the policy's own failures never count).
        `teacher`: score each finished trajectory on this teacher; its groups' trajectories carry
        `teacher_logprobs` (or `teacher.missing_reason`)."""
        if (tasks is None) == (dataset is None):
            raise ValueError("create_step: give exactly one of tasks= or dataset=")
        source = rq.InlineTasks(list(tasks)) if tasks is not None else rq.DatasetTasks(dataset or "")
        if isinstance(dynamic_sampling, str):
            dynamic_sampling = rq.DynamicSampling(policy=dynamic_sampling)
        if task_sampling == "uniform":
            task_sampling = rq.UniformSampling()
        elif task_sampling == "adaptive":
            task_sampling = rq.AdaptiveSampling()
        request = rq.CreateStepRequest(
            run_id=run_id,
            tasks=source,
            group_size=group_size,
            groups=groups,
            step_key=step_key,
            agent=agent,
            timeouts_ms=timeouts_ms,
            priority=priority,
            dynamic_sampling=dynamic_sampling,
            staleness=staleness,
            max_infra_retries=max_infra_retries,
            max_job_failures=max_job_failures,
            shuffle_seed=shuffle_seed,
            task_sampling=task_sampling,
            require_certified_traces=require_certified_traces,
            teacher=teacher,
        )
        return self._http.call(ops.CREATE_STEP, None, request)

    def get_step(self, step_id: str) -> Step:
        """The step with its stats and waste ledger."""
        return self._http.call(ops.GET_STEP, {"stepId": step_id})

    def list_groups(self, step_id: str) -> list[Group]:
        """Every group the step started, handed out or not, with its members."""
        return self._http.call(ops.LIST_STEP_GROUPS, {"stepId": step_id}).items

    def next_groups(
        self, step_id: str, after_seq: int = 0, *, limit: int | None = None, timeout_ms: int | None = None
    ) -> NextGroups:
        """One long-poll: groups handed out after `after_seq`, waiting up to `timeout_ms` for one."""
        query = rq.NextGroupsQuery(after_seq=after_seq, limit=limit, timeout_ms=timeout_ms)
        wait = (timeout_ms or 0) / 1000
        timeout = self._http.timeout + wait
        return self._http.call(ops.NEXT_STEP_GROUPS, {"stepId": step_id}, query, timeout=timeout)

    def iter_groups(
        self,
        step_id: str,
        mode: Literal["sse", "poll"] = "sse",
        after_seq: int = 0,
        *,
        poll_timeout_ms: int = 20_000,
    ) -> Iterator[GroupResult]:
        """Yields the step's groups in delivery order, from the one after `after_seq`, until the
        step is done. `sse` keeps one stream open and reconnects with `Last-Event-ID` when it drops;
        `poll` repeats `next_groups`. Neither yields a group twice. A step that ended `failed` (its
        infrastructure failures passed its budget) raises `StepFailedError` after its last group."""
        if mode == "sse":
            return self._iter_sse(step_id, after_seq)
        if mode == "poll":
            return self._iter_poll(step_id, after_seq, poll_timeout_ms)
        raise ValueError(f"iter_groups: mode must be 'sse' or 'poll', got {mode!r}")

    def cancel(self, step_id: str) -> Step:
        """Cancels a step: its in-flight jobs are cancelled, undecided finished samples carried over."""
        return self._http.call(ops.CANCEL_STEP, {"stepId": step_id})

    def cancel_jobs(
        self, *, job_id: str | None = None, group_id: str | None = None, batch_id: str | None = None
    ) -> list[str]:
        """Cancels one job, a group's or a batch's unfinished jobs (exactly one); returns their ids."""
        request = rq.CancelJobsRequest(job_id=job_id, group_id=group_id, batch_id=batch_id)
        return self._http.call(ops.CANCEL_JOBS, None, request).cancelled

    # Policy (weight versions and weight sync). Each call names a policy (`policy_id`, default
    # the default policy); changing one needs the token that owns it (or an admin token).

    def get_policy(self, policy_id: str | None = None) -> PolicyState:
        return self._http.call(ops.GET_POLICY, None, rq.PolicyQuery(policy_id))

    def list_policies(self) -> list[PolicyState]:
        return self._http.call(ops.LIST_POLICIES).items

    def set_weight_version(self, weight_version: int, policy_id: str | None = None) -> PolicyState:
        """The weight version every backend of the policy now serves; its turns sampled from now
        on carry it."""
        request = rq.SetPolicyVersionRequest(weight_version, policy_id)
        return self._http.call(ops.SET_POLICY_VERSION, None, request)

    def pause(self, mode: PauseMode = "wait", policy_id: str | None = None) -> PolicyState:
        """Stops dispatching the policy's generation for a weight sync; `abort-and-continue` stops
        its in-flight generation too and continues it from its tokens after `resume`."""
        return self._http.call(ops.PAUSE_POLICY, None, rq.PauseRequest(mode, policy_id))

    def resume(self, weight_version: int | None = None, policy_id: str | None = None) -> PolicyState:
        return self._http.call(ops.RESUME_POLICY, None, rq.ResumeRequest(weight_version, policy_id))

    # Backends and datasets

    def register_backend(
        self,
        base_url: str,
        *,
        kind: Literal["vllm", "sglang", "nemo-rl"] | None = None,
        id: str | None = None,
        model_name: str | None = None,
        weight_version: str | None = None,
        max_concurrency: int | None = None,
        policy_id: str | None = None,
    ) -> BackendRegistered:
        """Adds an inference backend to the routing pool (or updates a known id), serving the
        weights of `policy_id` (default: the default policy). Admin token."""
        request = rq.RegisterBackendRequest(
            base_url=base_url,
            kind=kind,
            id=id,
            model_name=model_name,
            weight_version=weight_version,
            max_concurrency=max_concurrency,
            policy_id=policy_id,
        )
        return self._http.call(ops.REGISTER_BACKEND, None, request)

    def list_datasets(self) -> list[Dataset]:
        return self._http.call(ops.LIST_DATASETS).items

    # Delivery

    def _iter_poll(self, step_id: str, after_seq: int, poll_timeout_ms: int) -> Iterator[GroupResult]:
        last = after_seq
        failures = 0
        while True:
            try:
                page = self.next_groups(step_id, last, timeout_ms=poll_timeout_ms)
            except RaasError as error:
                failures = self._count_failure(error, failures)
                continue
            failures = 0
            for group in page.groups:
                if group.seq > last:
                    last = group.seq
                    yield group
            if page.done:
                _raise_if_failed(page.step)
                return

    def _iter_sse(self, step_id: str, after_seq: int) -> Iterator[GroupResult]:
        last = after_seq
        failures = 0
        while True:
            headers = {"last-event-id": str(last)} if last > 0 else {}
            try:
                response = self._http.open(
                    ops.STREAM_STEP_GROUPS,
                    {"stepId": step_id},
                    rq.StreamQuery(after_seq=last),
                    timeout=self.stream_idle_timeout,
                    headers=headers,
                )
            except RaasError as error:
                failures = self._count_failure(error, failures)
                continue
            with response:
                try:
                    for event in parse_events(response):
                        if event.event == "group":
                            group = from_wire(GroupResult, json.loads(event.data), "group event")
                            if group.seq > last:
                                last = group.seq
                                failures = 0
                                yield group
                        elif event.event == "done":
                            _raise_if_failed(from_wire(Step, json.loads(event.data), "done event"))
                            return
                        # Other events (none today) are for newer clients; the server reports a
                        # failure after the first event by cutting the connection.
                except TimeoutError:
                    continue  # idle longer than stream_idle_timeout: reconnect at once, not a failure
                except CONNECTION_ERRORS:
                    pass  # the stream dropped: reconnect below
            # The stream ended without `done`: reconnect from the last group received.
            ended = RaasConnectionError(f"step {step_id}: the stream ended before its done event")
            failures = self._count_failure(ended, failures)

    def _count_failure(self, error: RaasError, failures: int) -> int:
        """Retries what may pass (unreachable, 503, 429) with a growing pause, or the server's
        `Retry-After` when it gave one; raises the rest."""
        if error.status not in (0, 429, 502, 503, 504) or failures >= self.max_reconnects:
            raise error
        pause = min(0.2 * 2**failures, 5.0)
        if error.retry_after is not None:
            pause = min(max(pause, error.retry_after), 60.0)
        time.sleep(pause)
        return failures + 1


def _raise_if_failed(step: Step) -> None:
    """A step that ended `failed` is the trainer's to handle: it is raised, not a quiet end."""
    if step.status == "failed":
        raise StepFailedError(step)
