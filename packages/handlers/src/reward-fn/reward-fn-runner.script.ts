/**
 * The verifier's runner, written into a fresh EVAL sandbox as `.raas/reward_runner.py` and run as
 * one non-interactive command (`python3 -I`, its own jail) in which nothing of the agent's RUN
 * exists. It reads one JSON document on stdin — a nonce, the verifier's path and function name,
 * and the call's inputs (`data_source`, `solution_str`, `ground_truth`, `extra_info`) — before
 * verify.py is imported, so the policy's text only ever reaches `compute_score` as a string value.
 *
 * The result leaves on a channel only this script holds: the original stdout is duplicated to a
 * private descriptor (not inherited by children) and fd 1 is pointed at stderr before verify.py is
 * imported, so anything verify.py or the text it handles prints lands in stderr. One line
 * `RAAS-REWARD <nonce> <base64 JSON>` is written on the private descriptor: `{"status": "scored",
 * "value": …}`, `{"status": "exception", …}` (compute_score raised), or `{"status": "setup", …}`
 * (verify.py could not be imported, has no such function, or asks for parameters RaaS does not
 * supply).
 *
 * compute_score is called by its parameter names: veRL's `(data_source, solution_str,
 * ground_truth, extra_info)` and the shorter `(solution_str, ground_truth, extra_info)` both work,
 * as does any subset, `**kwargs`, or positional-only parameters with those names. `turns` (what
 * the policy said and called per turn, for per-turn rewards) reaches only a function that names it.
 * A returned dict's `turn_rewards` is sent whole, beside the value.
 */
export const REWARD_RUNNER_PY = String.raw`
import base64, inspect, json, math, os, sys, traceback, importlib.util

_write, _b64, _dumps = os.write, base64.b64encode, json.dumps
request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
nonce = request.pop("nonce")
result_fd = os.dup(1)
os.set_inheritable(result_fd, False)
os.dup2(2, 1)
sys.stdout = sys.stderr
sys.stdin = open(os.devnull)

def emit(doc):
    line = "RAAS-REWARD %s %s\n" % (nonce, _b64(_dumps(doc, default=repr).encode("utf-8")).decode("ascii"))
    data = line.encode("ascii")
    while data:
        data = data[_write(result_fd, data):]

def tail(text, limit=4000):
    return text if len(text) <= limit else "..." + text[-limit:]

def plain(value, depth=0, limit=200):
    """JSON-safe copy of a returned value (non-finite floats and unknown objects as strings)."""
    if depth > 20:
        return repr(value)[:200]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, dict):
        return {str(k): plain(v, depth + 1) for k, v in list(value.items())[:200]}
    if isinstance(value, (list, tuple)):
        return [plain(v, depth + 1) for v in list(value)[:limit]]
    try:
        return float(value)
    except Exception:
        return repr(value)[:200]

def bind(fn, supplied, named_only):
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError) as error:
        raise RuntimeError("cannot read the signature of the function: %s" % error)
    args, kwargs, taken = [], {}, set()
    for p in params:
        if p.kind == p.VAR_POSITIONAL:
            continue
        if p.kind == p.VAR_KEYWORD:
            kwargs.update({k: v for k, v in supplied.items() if k not in taken})
            continue
        if p.name in supplied or p.name in named_only:
            taken.add(p.name)
            given = supplied[p.name] if p.name in supplied else named_only[p.name]
            if p.kind == p.POSITIONAL_ONLY:
                args.append(given)
            else:
                kwargs[p.name] = given
        elif p.default is p.empty:
            raise RuntimeError(
                "the function requires parameter %r; RaaS supplies %s" % (p.name, ", ".join(sorted(supplied)))
            )
        elif p.kind == p.POSITIONAL_ONLY:
            break
    return args, kwargs

try:
    path = request["verifier_path"]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec = importlib.util.spec_from_file_location("raas_user_verifier", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["raas_user_verifier"] = module
    spec.loader.exec_module(module)
    fn = getattr(module, request["function"], None)
    if not callable(fn):
        raise RuntimeError("verify.py defines no function %r" % request["function"])
    args, kwargs = bind(fn, request["inputs"], request["named_only"])
except BaseException as error:
    emit({"status": "setup", "error": "%s: %s" % (type(error).__name__, error), "traceback": tail(traceback.format_exc())})
    sys.exit(0)

del request
try:
    value = fn(*args, **kwargs)
except BaseException as error:
    emit({"status": "exception", "error": "%s: %s" % (type(error).__name__, str(error)[:2000]), "traceback": tail(traceback.format_exc())})
    sys.exit(0)
# turn_rewards travels whole (beyond plain's 200 items), so that none is cut off unseen.
turn_rewards = None
if isinstance(value, dict) and "turn_rewards" in value:
    value = dict(value)
    turn_rewards = plain(value.pop("turn_rewards"), limit=10001)
emit({"status": "scored", "value": plain(value), "turn_rewards": turn_rewards})
`;
