"""RaaS trainer client: runs, steps and groups over the REST API, standard library only."""

from .client import RaasClient
from .errors import RaasConnectionError, RaasError
from .models import (
    Backend,
    Group,
    GroupMember,
    GroupResult,
    PolicyState,
    Run,
    RunRetention,
    SamplingParams,
    StageTimings,
    Step,
    StepStats,
    StepTrajectory,
    TokenBreak,
    TurnSpan,
    WasteEntry,
    WasteLedger,
    WeightVersionSpan,
)
from .operations import BackendRegistered, Dataset, NextGroups, RunCreated, StepCreated
from .requests import AdaptiveSampling, DynamicSampling, StageTimeoutsMs, Staleness, StepTask, UniformSampling
from .wire import WireFormatError

__all__ = [
    "AdaptiveSampling",
    "Backend",
    "BackendRegistered",
    "Dataset",
    "DynamicSampling",
    "Group",
    "GroupMember",
    "GroupResult",
    "NextGroups",
    "PolicyState",
    "RaasClient",
    "RaasConnectionError",
    "RaasError",
    "Run",
    "RunCreated",
    "RunRetention",
    "SamplingParams",
    "StageTimeoutsMs",
    "StageTimings",
    "Staleness",
    "Step",
    "StepCreated",
    "StepStats",
    "StepTask",
    "StepTrajectory",
    "TokenBreak",
    "UniformSampling",
    "TurnSpan",
    "WasteEntry",
    "WasteLedger",
    "WeightVersionSpan",
    "WireFormatError",
]
