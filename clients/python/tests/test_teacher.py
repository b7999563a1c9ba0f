"""On-policy distillation on the wire: a step names its teacher, a trajectory carries the teacher's
logprobs aligned to its tokens, or says why they are missing."""

from __future__ import annotations

import unittest

import support  # noqa: F401  (puts raas_client on sys.path)

from raas_client import StepTask, StepTrajectory, Teacher, TeacherReport, WireFormatError
from raas_client.requests import CreateStepRequest, InlineTasks
from raas_client.wire import from_wire, to_wire

BASE = {
    **dict.fromkeys(["batchId", "groupId", "failureKind", "failureLabel", "tokenBreak", "metadata"]),
    **dict.fromkeys(["dispatchVersion", "carriedFromStepId"]),
    "jobId": "job_1",
    "kind": "math",
    "status": "completed",
    "reward": 1,
    "trainable": True,
    "tokens": [11, 21, 22],
    "lossMask": [0, 1, 1],
    "logprobs": [None, -0.5, -2],
    "logprobsComplete": True,
    "promptLength": 1,
    "turns": [],
    "turnCount": 1,
    "tokenExact": True,
    "timings": {"queueMs": 1, "initMs": 2, "runMs": 3, "evalMs": 4},
    "slot": 0,
}


class TeacherWireTest(unittest.TestCase):
    def test_a_step_names_its_teacher_by_policy_and_sends_nothing_else(self):
        request = CreateStepRequest(
            run_id="run_1",
            tasks=InlineTasks([StepTask("t", "math", {})]),
            group_size=2,
            groups=1,
            teacher=Teacher(policy_id="teacher"),
        )
        self.assertEqual(to_wire(request)["teacher"], {"policyId": "teacher"})
        self.assertNotIn("teacher", to_wire(CreateStepRequest("run_1", InlineTasks([]), 2, 1)))

    def test_a_trajectory_carries_teacher_logprobs_aligned_to_its_tokens(self):
        wire = {
            **BASE,
            "teacherLogprobs": [None, -0.25, -3],
            "teacher": {"policyId": "teacher", "backendId": "t1", "isScored": True, "missingReason": None},
        }
        trajectory = from_wire(StepTrajectory, wire)
        self.assertEqual(trajectory.teacher_logprobs, [None, -0.25, -3.0])
        self.assertEqual(len(trajectory.teacher_logprobs or []), len(trajectory.tokens))
        self.assertIsInstance((trajectory.teacher_logprobs or [])[2], float)
        self.assertEqual(trajectory.teacher, TeacherReport("teacher", "t1", True, None))

    def test_a_missing_teacher_says_why_and_leaves_the_reward(self):
        reason = "the teacher failed: connection refused"
        wire = {
            **BASE,
            "teacher": {"policyId": None, "backendId": "t1", "isScored": False, "missingReason": reason},
        }
        trajectory = from_wire(StepTrajectory, wire)
        self.assertIsNone(trajectory.teacher_logprobs)
        assert trajectory.teacher is not None
        self.assertFalse(trajectory.teacher.is_scored)
        self.assertEqual(trajectory.teacher.missing_reason, reason)
        self.assertEqual(trajectory.reward, 1)

    def test_no_teacher_named_leaves_both_none_and_a_bad_value_is_a_wire_error(self):
        plain = from_wire(StepTrajectory, BASE)
        self.assertIsNone(plain.teacher_logprobs)
        self.assertIsNone(plain.teacher)
        with self.assertRaises(WireFormatError):
            from_wire(StepTrajectory, {**BASE, "teacherLogprobs": [None, "x", -1]})


if __name__ == "__main__":
    unittest.main()
