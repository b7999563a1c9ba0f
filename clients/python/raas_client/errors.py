"""The server's error model on the Python side: `{ error: { code, message, details? } }`."""

from __future__ import annotations

import json
from typing import Any


class RaasError(Exception):
    """A request the server refused or could not serve.

    `status` is the HTTP status (0 when the server could not be reached), `code` the server's error
    code (`VALIDATION_FAILED`, `NOT_FOUND`, `UNAUTHORIZED`, … — see packages/shared/src/errors.ts),
    `message` its sentence for people, `details` its structured detail (e.g. `issues`) or None.
    """

    def __init__(self, status: int, code: str, message: str, details: dict[str, Any] | None = None):
        super().__init__(f"{code} ({status}): {message}" if status else f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details


class RaasConnectionError(RaasError):
    """The server could not be reached (refused, reset, timed out)."""

    def __init__(self, message: str):
        super().__init__(0, "UNAVAILABLE", message)


def error_from_reply(status: int, body: bytes) -> RaasError:
    """The server's error envelope as a RaasError; a reply without one (a proxy's HTML page) keeps
    its status and the start of its text."""
    try:
        envelope = json.loads(body)
        error = envelope["error"]
        return RaasError(status, str(error["code"]), str(error["message"]), error.get("details"))
    except (ValueError, KeyError, TypeError):
        text = body[:200].decode("utf-8", "replace").strip() or "no body"
        return RaasError(status, f"HTTP_{status}", f"unexpected reply without a RaaS error: {text}")
