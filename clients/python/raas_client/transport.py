"""HTTP with urllib: URLs from an operation's path, bearer auth, JSON in and out, the server's
error envelope turned into RaasError."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from .errors import RaasConnectionError, RaasError, error_from_reply
from .operations import Operation
from .wire import from_wire, to_wire

#: What a dropped or unreachable connection raises below urllib.
CONNECTION_ERRORS = (urllib.error.URLError, http.client.HTTPException, ConnectionError, TimeoutError)


class Transport:
    def __init__(self, base_url: str, token: str | None, timeout: float):
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must start with http:// or https://, got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def url(self, op: Operation, path_params: dict[str, str] | None, query: Any = None) -> str:
        path = op.path
        for name, value in (path_params or {}).items():
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        if "{" in path:
            raise ValueError(f"{op.operation_id}: no value for a path parameter in {op.path}")
        url = self.base_url + path
        params = {key: _query_value(value) for key, value in (to_wire(query) or {}).items()}
        return f"{url}?{urllib.parse.urlencode(params)}" if params else url

    def open(
        self,
        op: Operation,
        path_params: dict[str, str] | None = None,
        request: Any = None,
        *,
        timeout: float | None = None,
        headers: dict[str, str] | None = None,
    ) -> http.client.HTTPResponse:
        """Sends the request; returns the open response of a 2xx, raises RaasError otherwise."""
        is_body = op.method != "GET" and request is not None
        url = self.url(op, path_params, None if is_body else request)
        all_headers = {"accept": op.media, **(headers or {})}
        if self.token:
            all_headers["authorization"] = f"Bearer {self.token}"
        data = None
        if is_body:
            data = json.dumps(to_wire(request)).encode("utf-8")
            all_headers["content-type"] = "application/json"
        elif op.method != "GET":
            # An empty body with a length (some proxies refuse a POST without one), declared JSON so
            # urllib does not label it a form.
            data = b""
            all_headers["content-type"] = "application/json"
        prepared = urllib.request.Request(url, data=data, method=op.method, headers=all_headers)
        try:
            return urllib.request.urlopen(prepared, timeout=self.timeout if timeout is None else timeout)
        except urllib.error.HTTPError as error:
            with error:
                raise error_from_reply(error.code, error.read(), error.headers.get("retry-after")) from None
        except CONNECTION_ERRORS as error:
            reason = getattr(error, "reason", None) or error
            raise RaasConnectionError(f"{op.method} {url}: {reason}") from None

    def call(
        self,
        op: Operation,
        path_params: dict[str, str] | None = None,
        request: Any = None,
        *,
        timeout: float | None = None,
    ) -> Any:
        """Sends the request and returns the reply as `op.response`."""
        response = self.open(op, path_params, request, timeout=timeout)
        try:
            with response:
                body = response.read()
        except CONNECTION_ERRORS as error:
            raise RaasConnectionError(f"{op.method} {op.path}: reply cut off ({error})") from None
        try:
            data = json.loads(body)
        except ValueError:
            message = f"{op.operation_id}: the reply is not JSON"
            raise RaasError(response.status, "BAD_REPLY", message) from None
        return from_wire(op.response, data, op.operation_id) if op.response is not None else data


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
