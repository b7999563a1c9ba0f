"""Compares the client's operation table and dataclasses with an OpenAPI document (the subset of
JSON Schema the server's document uses: $ref, anyOf/oneOf, type lists, enum/const, properties)."""

from __future__ import annotations

import dataclasses
import json
import typing
import urllib.request
from typing import Any

from raas_client.operations import Operation
from raas_client.wire import field_types, union_members, wire_name


class OpenApiDocument:
    def __init__(self, doc: dict[str, Any]):
        self.doc = doc
        self.operations: dict[str, tuple[str, str, dict[str, Any]]] = {}
        for path, item in doc["paths"].items():
            for method, op in item.items():
                if isinstance(op, dict) and "operationId" in op:
                    self.operations[op["operationId"]] = (method.upper(), path, op)

    @classmethod
    def fetch(cls, base_url: str) -> OpenApiDocument:
        with urllib.request.urlopen(base_url.rstrip("/") + "/openapi.json", timeout=30) as response:
            return cls(json.load(response))

    def resolve(self, node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            target: Any = self.doc
            for part in node["$ref"][2:].split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
        return node

    def branches(self, schema: Any) -> list[dict[str, Any]]:
        """The non-null alternatives of a schema (itself when it is no union)."""
        schema = self.resolve(schema)
        options = schema.get("anyOf", []) + schema.get("oneOf", [])
        if not options:
            return [schema]
        out = []
        for option in options:
            out.extend(branch for branch in self.branches(option) if not _is_null_only(branch))
        return out

    def allows_null(self, schema: Any) -> bool:
        schema = self.resolve(schema)
        types = schema.get("type")
        if types == "null" or (isinstance(types, list) and "null" in types):
            return True
        return any(self.allows_null(option) for option in schema.get("anyOf", []) + schema.get("oneOf", []))

    def enum_values(self, schema: Any) -> set[Any] | None:
        """The values an enum/const schema (or a union of them) allows; None when not an enum."""
        values: set[Any] = set()
        for branch in self.branches(schema):
            if "enum" in branch:
                values.update(branch["enum"])
            elif "const" in branch:
                values.add(branch["const"])
            else:
                return None
        return values


def _is_null_only(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "null"


def check_operation(doc: OpenApiDocument, op: Operation) -> list[str]:
    """Everything about `op` that the document contradicts; empty when they agree."""
    found = doc.operations.get(op.operation_id)
    if found is None:
        return [f"{op.operation_id}: the server has no such operation"]
    method, path, spec = found
    problems = []
    if (method, path) != (op.method, op.path):
        served = f"server serves {method} {path}"
        problems.append(f"{op.operation_id}: client calls {op.method} {op.path}, {served}")
    if op.request is not None and op.method == "GET":
        problems += _check_query(doc, op, spec)
    elif op.request is not None:
        body = spec.get("requestBody", {}).get("content", {}).get("application/json")
        if body is None:
            problems.append(f"{op.operation_id}: the client sends a body, the server takes none")
        else:
            problems += check_dataclass(doc, op.request, body["schema"], op.operation_id, "request")
    success = [doc.resolve(spec["responses"][code]) for code in ("200", "201") if code in spec["responses"]]
    if not success:
        return problems + [f"{op.operation_id}: no 200/201 response"]
    for response in success:
        content = response.get("content", {})
        if op.media not in content:
            problems.append(f"{op.operation_id}: reply is not {op.media} (server: {sorted(content)})")
        elif op.response is not None:
            schema = content[op.media]["schema"]
            problems += check_dataclass(doc, op.response, schema, op.operation_id, "response")
        for event in op.events:
            options = doc.branches(content.get(op.media, {}).get("schema", {}))
            results = [check_dataclass(doc, event, option, op.operation_id, "response") for option in options]
            if all(results):
                problems += min(results, key=len) if results else [f"{op.operation_id}: no event schema"]
    return problems


def _check_query(doc: OpenApiDocument, op: Operation, spec: dict[str, Any]) -> list[str]:
    params = {}
    for param in spec.get("parameters", []):
        param = doc.resolve(param)
        if param["in"] == "query":
            params[param["name"]] = param
    problems = []
    names = {wire_name(field): field for field in dataclasses.fields(op.request)}
    for name in names:
        if name not in params:
            problems.append(f"{op.operation_id}: query parameter {name!r} is not in the document")
    for name, param in params.items():
        if param.get("required") and (name not in names or names[name].default is None):
            problems.append(f"{op.operation_id}: required query parameter {name!r} is not always sent")
    return problems


def check_dataclass(doc: OpenApiDocument, cls: type, schema: Any, at: str, direction: str) -> list[str]:
    """`cls` against an object schema: every field a property, every required property a field
    (one the caller must give, for requests), nullability and enums compatible, nested types too."""
    branches = doc.branches(schema)
    if len(branches) != 1:
        return [f"{at}: {cls.__name__} is matched against a union of {len(branches)} schemas"]
    obj = branches[0]
    properties = obj.get("properties", {})
    required = set(obj.get("required", []))
    hints = field_types(cls)
    problems = []
    fields = {wire_name(field): field for field in dataclasses.fields(cls)}
    for name, field in fields.items():
        where = f"{at}.{name}"
        if name not in properties:
            problems.append(f"{where}: {cls.__name__}.{field.name} is not a property of the schema")
            continue
        problems += _check_field(doc, hints[field.name], properties[name], where, direction)
        if direction == "request" and name in required and field.default is None:
            problems.append(f"{where}: required by the server but optional in {cls.__name__}")
    for name in sorted(required - fields.keys()):
        problems.append(f"{at}.{name}: required property missing from {cls.__name__}")
    return problems


def _check_field(doc: OpenApiDocument, annotation: Any, schema: Any, at: str, direction: str) -> list[str]:
    problems = []
    members = [member for member in union_members(annotation) if member is not type(None)]
    is_optional = len(members) < len(union_members(annotation))
    if direction == "response" and doc.allows_null(schema) and not is_optional:
        problems.append(f"{at}: the server may send null, the client's type does not allow it")
    dataclass_members = [member for member in members if dataclasses.is_dataclass(member)]
    if dataclass_members:
        options = doc.branches(schema)
        for member in dataclass_members:
            results = [check_dataclass(doc, member, option, at, direction) for option in options]
            if all(results):
                problems += min(results, key=len)
        return problems
    if len(members) == 1 and typing.get_origin(members[0]) is list:
        (item,) = typing.get_args(members[0])
        (branch,) = doc.branches(schema)[:1] or [{}]
        if branch.get("type") != "array":
            return problems + [f"{at}: the client expects a list, the schema is {branch.get('type')}"]
        return problems + _check_field(doc, item, branch.get("items", {}), f"{at}[]", direction)
    literals = {value for member in members if typing.get_origin(member) is typing.Literal
                for value in typing.get_args(member)}
    allowed = doc.enum_values(schema)
    if literals and allowed is not None:
        extra = allowed - literals if direction == "response" else literals - allowed
        if extra:
            side = "the client does not accept" if direction == "response" else "the server does not accept"
            problems.append(f"{at}: {side} {sorted(extra)}")
    return problems
