"""Persistent Python cell runner for the RaaS execution server.

Reads one JSON request per line on fd 3 ({"code": "...", "nonce": "..."}), runs it in one
long-lived namespace, and ends each cell by writing a marker line (the request's nonce +
status) to stdout after the cell's own output, so stdout ordering tells the server exactly
where a cell ends. The nonce is fresh per cell and never stored where the cell's code looks
(its namespace, sys.argv, the environment), so a cell cannot print its own end marker. stderr is
merged into stdout for the same reason. SIGINT raises KeyboardInterrupt only while a cell
runs, so a late interrupt can never kill the interpreter between cells.
"""
import ast
import json
import os
import signal
import sys
import traceback

READY_NONCE = sys.argv[1]
namespace = {"__name__": "__main__", "__builtins__": __builtins__}
running = False


def on_sigint(signum, frame):
    if running:
        raise KeyboardInterrupt


def run_cell(code):
    tree = ast.parse(code, "<cell>", "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is not None:
        value = eval(compile(last, "<cell>", "eval"), namespace)
        if value is not None:
            print(repr(value))


def format_error(error):
    """The traceback without this driver's own frames, so it reads as the cell's."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != __file__]
    text = "".join(traceback.format_exception_only(type(error), error))
    if not frames:
        return text
    return "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames)) + text


def status_text(text):
    """A status fits on the marker line: no newlines, bounded length."""
    return " ".join(str(text).split())[:200]


def main():
    global running
    # As in the interactive interpreter; the ready nonce is not the cells' business.
    sys.argv[:] = [""]
    os.dup2(1, 2)
    sys.stderr = sys.stdout
    sys.stdin = open(os.devnull)
    signal.signal(signal.SIGINT, on_sigint)
    requests = os.fdopen(3, "r")
    sys.stdout.write("__RAAS_PY_%s_ready__\n" % READY_NONCE)
    sys.stdout.flush()
    for line in requests:
        status = "ok"
        request = json.loads(line)
        nonce = request.pop("nonce")
        try:
            code = request["code"]
            running = True
            run_cell(code)
        except SystemExit as error:
            status = "exit:%s" % status_text(error.code)
        except BaseException as error:
            status = "interrupted" if isinstance(error, KeyboardInterrupt) else "error"
            sys.stdout.write(format_error(error))
        finally:
            running = False
        sys.stdout.flush()
        sys.stdout.write("\n__RAAS_PY_%s_%s__\n" % (nonce, status))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
