"""A small MCP server over stdio: a shop's database, read-only.

Standard library only (json, sqlite3, sys): no packages, no network. It speaks the Model
Context Protocol's stdio transport directly -- one JSON-RPC 2.0 message per line on stdin and
stdout -- and answers `initialize`, `ping`, `tools/list` and `tools/call`. The database is built
in memory from SEED at start, so the agent can reach it only through the tools:

- list_tables: the tables' names;
- describe_table: a table's columns (name, type) and row count;
- query: one read-only SQL statement (SELECT / WITH), at most 200 rows back.

A bad statement, an unknown table or a write is an error result (`isError`), never a crash.
"""

import contextlib
import json
import sqlite3
import sys

PROTOCOL_VERSIONS = ("2025-06-18", "2025-03-26", "2024-11-05")
MAX_ROWS = 200
MAX_VM_STEPS = 5_000_000

SEED = """
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL);
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price_cents INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
                     placed_on TEXT NOT NULL);
CREATE TABLE order_items (order_id INTEGER NOT NULL REFERENCES orders(id),
                          product_id INTEGER NOT NULL REFERENCES products(id),
                          quantity INTEGER NOT NULL);
INSERT INTO customers VALUES
  (1, 'Ana Souza', 'Lisbon'), (2, 'Bram de Vries', 'Utrecht'), (3, 'Chen Wei', 'Lisbon'),
  (4, 'Dara Okafor', 'Lagos'), (5, 'Eli Navarro', 'Porto'), (6, 'Fatima Zahra', 'Lisbon');
INSERT INTO products VALUES
  (1, 'kettle', 2999), (2, 'teapot', 1850), (3, 'mug', 650), (4, 'tea tin', 1200), (5, 'scale', 4500);
INSERT INTO orders VALUES
  (1, 1, '2026-01-04'), (2, 2, '2026-01-09'), (3, 1, '2026-02-11'), (4, 3, '2026-02-14'),
  (5, 4, '2026-02-20'), (6, 6, '2026-03-02'), (7, 1, '2026-03-15'), (8, 5, '2026-03-21'),
  (9, 3, '2026-04-01');
INSERT INTO order_items VALUES
  (1, 1, 1), (1, 3, 2), (2, 2, 1), (3, 3, 4), (3, 4, 2), (4, 5, 1), (5, 3, 6), (6, 2, 2),
  (6, 4, 1), (7, 1, 1), (8, 3, 3), (9, 4, 5), (9, 3, 1);
"""

TOOLS = [
    {
        "name": "list_tables",
        "description": "List the tables of the shop's database.",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
    },
    {
        "name": "describe_table",
        "description": "Describe one table: its columns (name and type) and its number of rows.",
        "inputSchema": {
            "type": "object",
            "properties": {"table": {"type": "string", "description": "The table's name."}},
            "required": ["table"],
            "additionalProperties": False,
        },
    },
    {
        "name": "query",
        "description": "Run one read-only SQL statement (SQLite dialect, SELECT or WITH) and get "
        "its rows as JSON (at most 200).",
        "inputSchema": {
            "type": "object",
            "properties": {"sql": {"type": "string", "description": "The SQL statement."}},
            "required": ["sql"],
            "additionalProperties": False,
        },
    },
]

READ_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION}
if hasattr(sqlite3, "SQLITE_RECURSIVE"):
    READ_ACTIONS.add(sqlite3.SQLITE_RECURSIVE)


class ToolError(Exception):
    """A mistake in a call: reported to the model as an error result."""


def read_only(action, *_):
    return sqlite3.SQLITE_OK if action in READ_ACTIONS else sqlite3.SQLITE_DENY


@contextlib.contextmanager
def unrestricted(db):
    """The server's own catalogue reads (PRAGMA, sqlite_master), never the agent's SQL."""
    db.set_authorizer(None)
    try:
        yield
    finally:
        db.set_authorizer(read_only)


def open_database():
    db = sqlite3.connect(":memory:")
    db.executescript(SEED)
    # From here on the connection only reads: any other action is refused by the authorizer.
    db.set_authorizer(read_only)
    return db


def table_names(db):
    with unrestricted(db):
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
    return [name for (name,) in rows]


def describe_table(db, table):
    names = table_names(db)
    if table not in names:
        raise ToolError(f"no table named {table!r}; tables: {', '.join(names)}")
    with unrestricted(db):
        columns = [{"name": c[1], "type": c[2]} for c in db.execute(f'PRAGMA table_info("{table}")')]
    (count,) = db.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()
    return {"table": table, "columns": columns, "rows": count}


def run_query(db, sql):
    steps = [0]

    def progress():
        steps[0] += 1000
        return 1 if steps[0] > MAX_VM_STEPS else 0

    db.set_progress_handler(progress, 1000)
    try:
        cursor = db.execute(sql)
        names = [d[0] for d in cursor.description or []]
        rows = cursor.fetchmany(MAX_ROWS + 1)
    except (sqlite3.Error, sqlite3.Warning) as error:
        raise ToolError(f"SQL error: {error}") from None
    finally:
        db.set_progress_handler(None, 0)
    return {"columns": names, "rows": [list(r) for r in rows[:MAX_ROWS]], "truncated": len(rows) > MAX_ROWS}


def call_tool(db, name, args):
    if name == "list_tables":
        return {"tables": table_names(db)}
    if name == "describe_table":
        if not isinstance(args.get("table"), str):
            raise ToolError("describe_table needs a string `table`")
        return describe_table(db, args["table"])
    if name == "query":
        if not isinstance(args.get("sql"), str):
            raise ToolError("query needs a string `sql`")
        return run_query(db, args["sql"])
    raise ToolError(f"unknown tool {name!r}")


def handle(db, request):
    """The result of one request, or raises (code, message) as a JSON-RPC error."""
    method = request.get("method")
    params = request.get("params") or {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        return {
            "protocolVersion": asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0],
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "raas-mcp-db", "version": "1.0.0"},
        }
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        try:
            data = call_tool(db, params.get("name"), params.get("arguments") or {})
            return {"content": [{"type": "text", "text": json.dumps(data)}], "isError": False}
        except ToolError as error:
            return {"content": [{"type": "text", "text": str(error)}], "isError": True}
    raise LookupError(method)


def reply(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    db = open_database()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError:
            reply({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
            continue
        if not isinstance(request, dict) or "id" not in request:
            continue  # a notification (initialized, cancelled): nothing to answer
        try:
            reply({"jsonrpc": "2.0", "id": request["id"], "result": handle(db, request)})
        except LookupError:
            error = {"code": -32601, "message": f"method not found: {request.get('method')}"}
            reply({"jsonrpc": "2.0", "id": request["id"], "error": error})
        except Exception as error:  # a malformed request: answered, never fatal
            reply({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32602, "message": str(error)}})


if __name__ == "__main__":
    main()
