/**
 * Python that plants canary chunks into test modules, run in the grading sandbox as
 * `python3 -I -S -c CANARY_PLANTER_PY` (isolated: no site, no .pth, no sitecustomize, no
 * PYTHON* variables — none of the policy's code runs) after the policy's code and the graded
 * tests are in place. The plan comes on stdin (never a file the tests could read):
 * `{"root": dir, "hosts": [{"key", "path" | "module", "chunks": [{"source", "at"}]}]}`; `at` in
 * [0, 1) picks one of the boundaries between the module's top-level statements after its last
 * top-level import, so canaries sit among the graded tests, not in a file of their own. A host
 * that is not a regular file inside `root`, not UTF-8 or not valid Python is left alone. Prints
 * `RAAS_CANARIES_PLANTED=<json list of keys>`.
 */
export const CANARY_PLANTER_PY = String.raw`
import ast, json, os, sys

plan = json.loads(sys.stdin.read())
root = os.path.realpath(plan["root"])
SKIP = {"__pycache__", "node_modules", ".git"}

def by_suffix(suffix):
    found = []
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP and not d.startswith("."))
        for name in files:
            rel = os.path.relpath(os.path.join(base, name), root)
            if rel == suffix or rel.endswith("/" + suffix):
                found.append(rel)
    found.sort(key=lambda rel: (len(rel), rel))
    return found[0] if found else None

def locate(host):
    if host.get("path"):
        rel = os.path.normpath(host["path"])
        if os.path.isfile(os.path.join(root, rel)):
            return rel
        return by_suffix(rel)
    return by_suffix(host["module"].replace(".", "/") + ".py")

def start(node):
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])

def plant(rel, chunks):
    path = os.path.join(root, rel)
    if os.path.islink(path) or not os.path.isfile(path):
        return False
    if not os.path.realpath(path).startswith(root + os.sep):
        return False
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8")
        tree = ast.parse(text)
    except (UnicodeDecodeError, SyntaxError, ValueError):
        return False
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    last_import = -1
    for index, node in enumerate(tree.body):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            last_import = index
    spots = sorted({start(node) for node in tree.body[last_import + 1:]} | {len(lines) + 1})
    inserts = {}
    for chunk in chunks:
        spot = spots[min(int(chunk["at"] * len(spots)), len(spots) - 1)]
        inserts.setdefault(spot, []).append("\n\n" + chunk["source"].rstrip("\n") + "\n\n\n")
    out = []
    for number, line in enumerate(lines, start=1):
        out.extend(inserts.get(number, []))
        out.append(line)
    out.extend(inserts.get(len(lines) + 1, []))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("".join(out))
    return True

planted = []
for host in plan["hosts"]:
    rel = locate(host)
    if rel is not None and plant(rel, host["chunks"]):
        planted.append(host["key"])
print("RAAS_CANARIES_PLANTED=" + json.dumps(planted))
`;

/** The keys of the hosts the planter planted in, from its output; null when it printed no result. */
export function parsePlantedHosts(output: string): string[] | null {
  const line = /^RAAS_CANARIES_PLANTED=(.*)$/m.exec(output)?.[1];
  if (line === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(line);
    return Array.isArray(parsed) && parsed.every((item) => typeof item === "string") ? parsed : null;
  } catch {
    return null;
  }
}
