"""The server's error model on the Python side: `{ error: { code, message, details? } }`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import Step


class RaasError(Exception):
    """A request the server refused or could not serve.

    `status` is the HTTP status (0 when the server could not be reached), `code` the server's error
    code (`VALIDATION_FAILED`, `NOT_FOUND`, `UNAUTHORIZED`, … — see packages/shared/src/errors.ts),
    `message` its sentence for people, `details` its structured detail (e.g. `issues`) or None.
    `retry_after` is the server's `Retry-After` in seconds (a 503 past the subscription caps, a 429).
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: dict[str, Any] | None = None,
        retry_after: float | None = None,
    ):
        super().__init__(f"{code} ({status}): {message}" if status else f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.retry_after = retry_after


class RaasConnectionError(RaasError):
    """The server could not be reached (refused, reset, timed out)."""

    def __init__(self, message: str):
        super().__init__(0, "UNAVAILABLE", message)


class StepFailedError(RaasError):
    """The step ended `failed` and will hand out no more groups: more of its jobs failed for
    infrastructure reasons (sandboxes that cannot start, no inference backend) than its budget
    (`max_job_failures`) allows, so its jobs were cancelled. `step` is the final step;
    `step.failure` says why (counts, budget, the commonest cause and its last message). Not an
    HTTP error: `status` is 0, `code` `STEP_FAILED`."""

    def __init__(self, step: Step):
        message = step.failure.message if step.failure else f"step {step.id} failed"
        super().__init__(0, "STEP_FAILED", message)
        self.step = step


def error_from_reply(status: int, body: bytes, retry_after: str | None = None) -> RaasError:
    """The server's error envelope as a RaasError; a reply without one (a proxy's HTML page) keeps
    its status and the start of its text."""
    seconds = _seconds(retry_after)
    try:
        envelope = json.loads(body)
        error = envelope["error"]
        return RaasError(status, str(error["code"]), str(error["message"]), error.get("details"), seconds)
    except (ValueError, KeyError, TypeError):
        text = body[:200].decode("utf-8", "replace").strip() or "no body"
        message = f"unexpected reply without a RaaS error: {text}"
        return RaasError(status, f"HTTP_{status}", message, None, seconds)


def _seconds(header: str | None) -> float | None:
    """`Retry-After` in seconds; an HTTP date (which RaaS does not send) is ignored."""
    try:
        return max(0.0, float(header)) if header else None
    except ValueError:
        return None
