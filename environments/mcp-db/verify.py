"""Reward function of the mcp-db environment, in veRL's shape.

compute_score(data_source, solution_str, ground_truth, extra_info) -> dict with "score".
Standard library only. The answer is a whole number: the solution (or its last \\boxed{...}),
stripped of spaces, thousands separators and a trailing full stop, must equal the ground truth.
Anything else scores 0; this function does not raise on anything the policy writes.
"""

import re

MAX_ANSWER_CHARS = 100


def answer_of(solution):
    boxed = re.findall(r"\\boxed\{([^{}]*)\}", solution)
    text = boxed[-1] if boxed else solution
    if len(text) > MAX_ANSWER_CHARS:
        return None
    cleaned = re.sub(r"[\s,_]", "", text).rstrip(".")
    return cleaned if re.fullmatch(r"-?\d+", cleaned) else None


def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    answer = answer_of(solution_str if isinstance(solution_str, str) else "")
    correct = answer is not None and int(answer) == int(str(ground_truth))
    return {"score": 1.0 if correct else 0.0, "answer": answer}
