"""A trainer written only from RaaS's /openapi.json, with the Python standard library.

It downloads the document, finds operations by operationId, builds request bodies from the
document's own examples, checks every response against the document's schemas, submits a batch of
math jobs, waits for them, streams the batch as JSON Lines and checks each training row.

    python3 openapi_trainer.py <server-url> <tasks.json>    (token in RAAS_TOKEN)

tasks.json: a list of math payloads. Prints one JSON summary line and exits 0, or prints
`FAIL: <reason>` and exits 1.
"""

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

GROUP_SIZE = 2


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Document:
    def __init__(self, url):
        with urllib.request.urlopen(url, timeout=30) as response:
            self.doc = json.load(response)
        check(self.doc.get("openapi", "").startswith("3."), "not an OpenAPI 3 document")
        # `servers[0].url` is relative to where the document was served.
        self.base = urllib.parse.urljoin(url, self.doc["servers"][0]["url"])
        self.operations = {}
        for path, item in self.doc["paths"].items():
            for method, op in item.items():
                if isinstance(op, dict) and "operationId" in op:
                    self.operations[op["operationId"]] = (method.upper(), path, op)

    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node:
            target = self.doc
            for part in node["$ref"][2:].split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
        return node

    def validate(self, value, schema, at="$"):
        """The subset of JSON Schema the document uses; raises Failure on the first mismatch."""
        schema = self.resolve(schema)
        if "anyOf" in schema or "oneOf" in schema:
            options = schema.get("anyOf", []) + schema.get("oneOf", [])
            errors = []
            for option in options:
                try:
                    self.validate(value, option, at)
                    return
                except Failure as error:
                    errors.append(str(error))
            raise Failure(f"{at}: matches none of {len(options)} options ({errors[0]})")
        if "const" in schema:
            check(value == schema["const"], f"{at}: expected {schema['const']!r}")
        if "enum" in schema:
            check(value in schema["enum"], f"{at}: {value!r} not in {schema['enum']}")
        types = schema.get("type")
        if types is not None:
            types = types if isinstance(types, list) else [types]
            check(any(is_type(value, t) for t in types), f"{at}: {value!r:.60} is not {types}")
        if isinstance(value, dict):
            for key in schema.get("required", []):
                check(key in value, f"{at}: missing required {key!r}")
            properties = schema.get("properties", {})
            for key, item in value.items():
                if key in properties:
                    self.validate(item, properties[key], f"{at}.{key}")
                else:
                    check(schema.get("additionalProperties", True) is not False, f"{at}: unknown key {key!r}")
        if isinstance(value, list) and "items" in schema:
            for index, item in enumerate(value):
                self.validate(item, schema["items"], f"{at}[{index}]")

    def call(self, operation_id, path_params=None, query=None, body=None, token=None, raw=False):
        method, path, op = self.operations[operation_id]
        for param in op.get("parameters", []):
            param = self.resolve(param)
            if param["in"] == "path":
                check(param["name"] in (path_params or {}), f"{operation_id}: no value for {param['name']}")
                path = path.replace("{" + param["name"] + "}", urllib.parse.quote(path_params[param["name"]], safe=""))
            if param["in"] == "query" and query and param["name"] in query:
                self.validate(query[param["name"]], param["schema"], f"{operation_id}?{param['name']}")
        url = urllib.parse.urljoin(self.base, path.lstrip("/"))
        if query:
            url += "?" + urllib.parse.urlencode(query)
        headers = {"accept": "application/json"}
        if token and op.get("security", self.doc.get("security")) != []:
            headers["authorization"] = f"Bearer {token}"  # securitySchemes.bearerAuth
        data = None
        if body is not None:
            schema = op["requestBody"]["content"]["application/json"]["schema"]
            self.validate(body, schema, f"{operation_id} request")
            data = json.dumps(body).encode()
            headers["content-type"] = "application/json"
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            response = urllib.request.urlopen(request, timeout=90)
        except urllib.error.HTTPError as error:
            raise Failure(f"{operation_id}: HTTP {error.code} {error.read()[:300]!r}") from None
        ok = self.resolve(op["responses"].get(str(response.status)) or op["responses"]["200"])
        media, content = next(iter(ok["content"].items()))
        if raw:
            return response, content["schema"], media
        with response:
            result = json.load(response)
        self.validate(result, content["schema"], f"{operation_id} response")
        return result

    def request_example(self, operation_id):
        _, _, op = self.operations[operation_id]
        return json.loads(json.dumps(op["requestBody"]["content"]["application/json"]["example"]))


def is_type(value, name):
    return {
        "object": isinstance(value, dict),
        "array": isinstance(value, list),
        "string": isinstance(value, str),
        "boolean": isinstance(value, bool),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "null": value is None,
    }[name]


def main(server, tasks_file, token):
    api = Document(urllib.parse.urljoin(server, "/openapi.json"))
    for needed in ("submitJobs", "waitForJobs", "exportTrajectory", "streamBatchTrajectories"):
        check(needed in api.operations, f"no operation {needed} in the document")
    with open(tasks_file) as handle:
        tasks = json.load(handle)

    # The request shape comes from the document's own example: one job, then ours in its place.
    template = api.request_example("submitJobs")["jobs"][0]
    check(template["kind"] == "math", "the submitJobs example is not a math job")
    batch_id = f"py-trainer-{os.getpid()}"
    jobs = []
    for task in tasks:
        for member in range(GROUP_SIZE):
            job = dict(template, payload=task, batchId=batch_id, groupId=f"{batch_id}/{task['taskId']}")
            job["jobKey"] = f"{job['groupId']}/{member}"
            job["metadata"] = {"trainer": "openapi_trainer.py", "member": member}
            jobs.append(job)
    submitted = api.call("submitJobs", body={"jobs": jobs}, token=token)
    ids = [result["job"]["id"] for result in submitted["results"]]
    check(len(ids) == len(jobs), "submitJobs returned a different number of jobs")

    wait = api.request_example("waitForJobs")
    wait["ids"] = ids
    while True:
        waited = api.call("waitForJobs", body=wait, token=token)
        if waited["done"]:
            break
    statuses = sorted({job["status"] for job in waited["jobs"]})
    check(statuses == ["completed"], f"jobs ended as {statuses}")

    response, row_schema, media = api.call(
        "streamBatchTrajectories", path_params={"batchId": batch_id}, token=token, raw=True
    )
    check(media == "application/x-ndjson", f"stream media type {media}")
    rows = []
    with response:
        for line in response:
            if line.strip():
                row = json.loads(line)
                api.validate(row, row_schema, f"row {len(rows)}")
                rows.append(row)
    check(sorted(row["jobId"] for row in rows) == sorted(ids), "the JSONL rows are not the batch's jobs")
    sampled = 0
    for row in rows:
        n = len(row["tokens"])
        check(n > 0 and len(row["lossMask"]) == n and len(row["logprobs"]) == n, f"{row['jobId']}: lengths differ")
        check(row["tokenExact"] is True and row["tokenBreak"] is None, f"{row['jobId']}: not token-exact")
        check(row["trainable"] is True and row["batchId"] == batch_id, f"{row['jobId']}: not trainable")
        for mask, logprob in zip(row["lossMask"], row["logprobs"]):
            check((logprob is None) == (mask == 0), f"{row['jobId']}: logprob and mask disagree")
        check(all(mask == 0 for mask in row["lossMask"][: row["promptLength"]]), "prompt tokens are masked in")
        sampled += sum(row["lossMask"])
    single = api.call("exportTrajectory", path_params={"jobId": rows[0]["jobId"]}, token=token)
    check(single == rows[0], "exportTrajectory differs from the batch's JSONL row")
    print(json.dumps({
        "ok": True,
        "rows": len(rows),
        "sampledTokens": sampled,
        "rewards": sorted(row["reward"] for row in rows),
        "members": sorted(row["metadata"]["member"] for row in rows),
    }))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        main(sys.argv[1], sys.argv[2], os.environ.get("RAAS_TOKEN"))
    except Failure as failure:
        print(f"FAIL: {failure}")
        sys.exit(1)
