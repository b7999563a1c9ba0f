"""A Server-Sent Events reader over a byte stream (the WHATWG event-stream format)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class ServerEvent:
    event: str
    data: str
    id: str | None


def parse_events(lines: Iterable[bytes]) -> Iterator[ServerEvent]:
    """Yields one ServerEvent per blank-line-terminated block. Comment lines (`: keep-alive`) and
    `retry:` are skipped; an event cut off by the end of the stream is dropped, as browsers do."""
    event = ""
    data: list[str] = []
    event_id: str | None = None
    has_fields = False
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if has_fields and data:
                yield ServerEvent(event or "message", "\n".join(data), event_id)
            event, data, event_id, has_fields = "", [], None, False
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        has_fields = True
        if name == "event":
            event = value
        elif name == "data":
            data.append(value)
        elif name == "id" and "\0" not in value:
            event_id = value
