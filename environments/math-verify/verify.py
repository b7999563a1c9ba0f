"""Reward function of the math-verify environment, in veRL's shape.

compute_score(data_source, solution_str, ground_truth, extra_info) -> dict with "score".
Standard library only, no network. The answer is the last \\boxed{...} of the solution (or the
whole solution when it is a bare number); it is compared exactly, as a rational number where both
sides are one (so 0.5, 1/2 and \\frac{1}{2} agree), else as normalised text. A malformed answer
scores 0: this function does not raise on anything the policy writes.
"""

import re
from fractions import Fraction

MAX_ANSWER_CHARS = 200


def last_boxed(text):
    """The content of the last \\boxed{...} in text, braces balanced; None when there is none."""
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    i = start + len("\\boxed{")
    depth = 1
    out = []
    while i < len(text):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return "".join(out)
        out.append(ch)
        i += 1
    return None


def normalise(answer):
    s = answer.strip().strip("$").replace(" ", "").replace("\\!", "").replace(",", "")
    s = re.sub(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}", r"(\1)/(\2)", s)
    s = re.sub(r"\\text\{[^{}]*\}", "", s)
    s = s.replace("\\left", "").replace("\\right", "")
    return s


def as_number(s):
    m = re.fullmatch(r"\(?(-?\d+(?:\.\d+)?)\)?(?:/\(?(-?\d+(?:\.\d+)?)\)?)?", s)
    if not m:
        return None
    try:
        value = Fraction(m.group(1))
        if m.group(2) is not None:
            value /= Fraction(m.group(2))
        return value
    except (ValueError, ZeroDivisionError):
        return None


def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    boxed = last_boxed(solution_str)
    if boxed is None and len(solution_str.strip()) <= MAX_ANSWER_CHARS:
        boxed = solution_str
    if boxed is None or len(boxed) > MAX_ANSWER_CHARS:
        return {"score": 0.0, "extracted": None, "reason": "no answer found"}
    got, want = normalise(boxed), normalise(str(ground_truth))
    got_n, want_n = as_number(got), as_number(want)
    correct = got_n == want_n if got_n is not None and want_n is not None else got == want
    return {"score": 1.0 if correct else 0.0, "extracted": boxed}
