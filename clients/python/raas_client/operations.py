"""Every server operation the client calls: operationId, method, path, what it sends and what it
gets back. The drift test checks this table against the running server's `/openapi.json`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import requests as rq
from .models import Backend, Group, GroupResult, PolicyState, Run, Step


@dataclass(frozen=True)
class RunCreated:
    run: Run
    created: bool


@dataclass(frozen=True)
class RunList:
    items: list[Run]


@dataclass(frozen=True)
class StepCreated:
    step: Step
    created: bool


@dataclass(frozen=True)
class StepList:
    items: list[Step]


@dataclass(frozen=True)
class GroupList:
    items: list[Group]


@dataclass(frozen=True)
class NextGroups:
    """One long-poll answer: groups after `after_seq` in delivery order; `done` once the step has
    stopped and every group it handed out has been returned."""

    step: Step
    groups: list[GroupResult]
    done: bool


@dataclass(frozen=True)
class Dataset:
    """A dataset a step may draw its tasks from (`DatasetTasks`)."""

    name: str
    size: int
    kinds: list[str]


@dataclass(frozen=True)
class DatasetList:
    items: list[Dataset]


@dataclass(frozen=True)
class PolicyList:
    items: list[PolicyState]


@dataclass(frozen=True)
class BackendRegistered:
    backend: Backend
    created: bool


@dataclass(frozen=True)
class CancelledJobs:
    cancelled: list[str]


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    #: Dataclass sent as the JSON body (POST) or the query string (GET); None when nothing is sent.
    request: type | None
    #: Dataclass of the JSON reply; None for a stream (SSE) whose events the client parses itself.
    response: type | None
    #: Media type of a 200 reply.
    media: str = "application/json"
    #: For a stream: the dataclasses its events' `data` carry (one of the reply schema's branches each).
    events: tuple[type, ...] = ()


def _op(operation_id: str, method: str, path: str, request: Any, response: Any, **extra: Any) -> Operation:
    return Operation(operation_id, method, path, request, response, **extra)


CREATE_RUN = _op("createRun", "POST", "/api/v1/runs", rq.CreateRunRequest, RunCreated)
LIST_RUNS = _op("listRuns", "GET", "/api/v1/runs", rq.ListQuery, RunList)
GET_RUN = _op("getRun", "GET", "/api/v1/runs/{runId}", None, Run)
FINISH_RUN = _op("finishRun", "POST", "/api/v1/runs/{runId}/finish", None, Run)
LIST_STEPS = _op("listSteps", "GET", "/api/v1/runs/{runId}/steps", None, StepList)
CREATE_STEP = _op("createStep", "POST", "/api/v1/steps", rq.CreateStepRequest, StepCreated)
GET_STEP = _op("getStep", "GET", "/api/v1/steps/{stepId}", None, Step)
LIST_STEP_GROUPS = _op("listStepGroups", "GET", "/api/v1/steps/{stepId}/groups", None, GroupList)
NEXT_STEP_GROUPS = _op("nextStepGroups", "GET", "/api/v1/steps/{stepId}/next", rq.NextGroupsQuery, NextGroups)
STREAM_STEP_GROUPS = _op(
    "streamStepGroups",
    "GET",
    "/api/v1/steps/{stepId}/stream",
    rq.StreamQuery,
    None,
    media="text/event-stream",
    events=(GroupResult, Step),
)
CANCEL_STEP = _op("cancelStep", "POST", "/api/v1/steps/{stepId}/cancel", None, Step)
GET_POLICY = _op("getPolicy", "GET", "/api/v1/policy", rq.PolicyQuery, PolicyState)
LIST_POLICIES = _op("listPolicies", "GET", "/api/v1/policies", None, PolicyList)
SET_POLICY_VERSION = _op(
    "setPolicyWeightVersion", "POST", "/api/v1/policy/weight-version", rq.SetPolicyVersionRequest, PolicyState
)
PAUSE_POLICY = _op("pausePolicy", "POST", "/api/v1/policy/pause", rq.PauseRequest, PolicyState)
RESUME_POLICY = _op("resumePolicy", "POST", "/api/v1/policy/resume", rq.ResumeRequest, PolicyState)
LIST_DATASETS = _op("listDatasets", "GET", "/api/v1/datasets", None, DatasetList)
REGISTER_BACKEND = _op(
    "registerBackend", "POST", "/api/v1/backends", rq.RegisterBackendRequest, BackendRegistered
)
CANCEL_JOBS = _op("cancelJobs", "POST", "/api/v1/jobs/cancel", rq.CancelJobsRequest, CancelledJobs)

ALL: tuple[Operation, ...] = tuple(v for v in list(globals().values()) if isinstance(v, Operation))
