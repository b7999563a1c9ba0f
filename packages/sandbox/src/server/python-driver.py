"""Persistent Python cell runner for the RaaS execution server.

Reads one JSON request per line on fd 3 and runs each cell in one long-lived namespace. A cell
ends in two steps, so that no end marker exists anywhere while the cell's code runs:

1. after the cell, the driver undoes the hooks a cell could leave behind (stdout/stderr
   objects, trace and profile functions), flushes, and writes "done <n>" on fd 4 (n counts
   the cells read, so a cell that speaks on fd 4 itself shows up as a duplicate);
2. the server answers with "seal:<nonce>" on fd 3, and only then does the driver write
   the marker line (nonce + status) to stdout, after the cell's own output.

Requests are "code:<base64>" and "seal:<hex>" lines. Everything the loop uses after a cell is
a builtin captured before the first cell (builtins cannot be patched in place, unlike Python
functions such as json.loads or ast.parse, whose __code__ a cell could replace), so what one
cell does cannot change how a later cell is framed or reported.

The nonce is fresh per cell and chosen by the server after the cell finished, so a cell cannot
read it from the driver's frames, namespace, argv or environment. stderr is merged into
stdout so ordering tells the server exactly where a cell's output ends. SIGINT raises
KeyboardInterrupt only while a cell runs, so a late interrupt never kills the interpreter.
"""
import ast
import binascii
import os
import signal
import sys

READY_NONCE = sys.argv[1]
running = False


def on_sigint(signum, frame):
    if running:
        raise KeyboardInterrupt


def format_error(error, type_=type, str_=str):
    """The traceback without this driver's own frames, so it reads as the cell's.

    The traceback module is a cell's to patch (it is plain Python); if what it returns lacks
    the exception's own "Type: message" line, that line, built from builtins only, is added.
    """
    name = type_(error).__qualname__
    module = type_(error).__module__
    if module not in ("builtins", "__main__"):
        name = "%s.%s" % (module, name)
    try:
        message = str_(error)
    except BaseException:
        message = "<exception str() failed>"
    last = "%s: %s\n" % (name, message) if message else name + "\n"
    try:
        import traceback

        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != __file__]
        text = "".join(traceback.format_exception_only(type_(error), error))
        if frames:
            text = "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames)) + text
    except BaseException:
        text = ""
    if name not in text:
        text = "Traceback (most recent call last):\n" + last if not text else text + last
    return text


def main():
    global running
    # Captured before any cell runs (see the module docstring).
    write, compile_, exec_, eval_, isinstance_, repr_, str_ = os.write, compile, exec, eval, isinstance, repr, str
    a2b, only_ast, expr_type, expression_type = binascii.a2b_base64, ast.PyCF_ONLY_AST, ast.Expr, ast.Expression
    stdout, settrace, setprofile = sys.stdout, sys.settrace, sys.setprofile
    flush, write_text, type_ = stdout.flush, stdout.write, type
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    # As in the interactive interpreter; the ready nonce is not the cells' business.
    sys.argv[:] = [""]
    os.dup2(1, 2)
    sys.stderr = sys.stdout
    sys.stdin = open(os.devnull)
    signal.signal(signal.SIGINT, on_sigint)
    read_line = os.fdopen(3, "rb").readline
    write(1, ("__RAAS_PY_%s_ready__\n" % READY_NONCE).encode())
    cells = 0
    while True:
        line = read_line()
        cells += 1
        if not line:
            return
        status = "ok"
        try:
            code = a2b(line[5:]).decode() if line.startswith(b"code:") else ""
            running = True
            tree = compile_(code, "<cell>", "exec", only_ast)
            last = None
            if tree.body and isinstance_(tree.body[-1], expr_type):
                last = expression_type(tree.body.pop().value)
            exec_(compile_(tree, "<cell>", "exec"), namespace)
            if last is not None:
                value = eval_(compile_(last, "<cell>", "eval"), namespace)
                if value is not None:
                    write_text(repr_(value) + "\n")
        except SystemExit as error:
            status = "exit:" + " ".join(str_(error.code).split())[:200]
        except BaseException as error:
            status = "interrupted" if isinstance_(error, KeyboardInterrupt) else "error"
            try:
                text = format_error(error, type_, str_)
                try:
                    sys.stdout.write(text)
                except BaseException:
                    sys.stdout = stdout
                    write_text(text)
            except BaseException:
                pass
        finally:
            running = False
        settrace(None)
        setprofile(None)
        try:
            sys.stdout.flush()
        except BaseException:
            pass
        sys.stdout = sys.stderr = stdout
        flush()
        write(4, b"done %d\n" % cells)
        seal = read_line()
        seal = seal[5:].strip().decode() if seal.startswith(b"seal:") else ""
        write(1, ("\n__RAAS_PY_%s_%s__\n" % (seal, status)).encode())


if __name__ == "__main__":
    main()
