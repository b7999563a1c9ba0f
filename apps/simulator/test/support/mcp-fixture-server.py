# raas-mcp-fixture: a minimal MCP server for tests (stdio, standard library only).
# Tools: echo (returns its text), crash (exits with code 3 mid-call), reject (answers with a
# JSON-RPC error); FIXTURE_TOOL_NAME adds one
# more echo tool under that name (to collide with a built-in). FIXTURE_FAIL_AT=<method> makes the
# start fail there: `initialize` is answered with a JSON-RPC error (a protocol error), `tools/list`
# crashes the server (exit 3) after its handshake worked; either writes a line to stderr first.
import json
import os
import sys

TEXT = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
TOOLS = [
    {"name": "echo", "description": "Echo the text back.", "inputSchema": TEXT},
    {"name": "crash", "description": "Exit at once.", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "reject", "description": "Refuse.", "inputSchema": {"type": "object", "properties": {}}},
]
if os.environ.get("FIXTURE_TOOL_NAME"):
    TOOLS.append({"name": os.environ["FIXTURE_TOOL_NAME"], "description": "Echo.", "inputSchema": TEXT})


def result(request):
    method, params = request["method"], request.get("params") or {}
    if method == "initialize":
        return {"protocolVersion": params["protocolVersion"], "capabilities": {"tools": {}},
                "serverInfo": {"name": "fixture", "version": "1"}}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call" and params["name"] == "crash":
        sys.stderr.write("fixture crashing on purpose\n")
        sys.stderr.flush()
        os._exit(3)
    if method == "tools/call":
        return {"content": [{"type": "text", "text": "echo: " + params["arguments"]["text"]}]}
    return {}


FAIL_AT = os.environ.get("FIXTURE_FAIL_AT")

for line in sys.stdin:
    request = json.loads(line)
    if "id" not in request:
        continue
    if request["method"] == FAIL_AT == "initialize":
        sys.stderr.write("fixture: unsupported option --db\n")
        sys.stderr.flush()
        error = {"code": -32600, "message": "fixture refuses to start: bad configuration"}
        print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "error": error}), flush=True)
        continue
    if request["method"] == FAIL_AT == "tools/list":
        sys.stderr.write("fixture crashing while listing\n")
        sys.stderr.flush()
        os._exit(3)
    if request["method"] == "tools/call" and request["params"]["name"] == "reject":
        error = {"code": -32602, "message": "rejected on purpose"}
        print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "error": error}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result(request)}), flush=True)
