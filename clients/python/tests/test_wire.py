"""snake_case <-> camelCase in one place, and the replies' dataclasses built strictly."""

from __future__ import annotations

import unittest

import support  # noqa: F401  (puts raas_client on sys.path)

from raas_client import StepTask, WasteLedger, WireFormatError
from raas_client.errors import error_from_reply
from raas_client.models import SamplingParams, StepStats, StepTrajectory, TopLogprob, TurnReward
from raas_client.requests import CreateStepRequest, DynamicSampling, InlineTasks
from raas_client.wire import from_wire, to_camel, to_wire

WASTE = {"jobs": 2, "rolloutSeconds": 1.5, "generatedTokens": 40}


class WireTest(unittest.TestCase):
    def test_field_names_become_camel_case(self):
        self.assertEqual(to_camel("created_at_ms"), "createdAtMs")
        self.assertEqual(to_camel("loss_mask"), "lossMask")
        self.assertEqual(to_camel("id"), "id")

    def test_a_request_sends_camel_case_keys_omits_unset_fields_and_leaves_payloads_alone(self):
        task = StepTask("t-1", "sleep", {"init_ms": 5, "nested": {"run_ms": 1}})
        request = CreateStepRequest(
            run_id="run_1",
            tasks=InlineTasks([task]),
            group_size=4,
            groups=2,
            dynamic_sampling=DynamicSampling(policy="none"),
        )
        self.assertEqual(
            to_wire(request),
            {
                "runId": "run_1",
                "tasks": {
                    "tasks": [
                        {"taskId": "t-1", "kind": "sleep", "payload": {"init_ms": 5, "nested": {"run_ms": 1}}}
                    ],
                    "type": "inline",
                },
                "groupSize": 4,
                "groups": 2,
                "dynamicSampling": {"policy": "none"},
            },
        )

    def test_a_reply_builds_nested_dataclasses_and_ignores_unknown_keys(self):
        ledger = from_wire(
            WasteLedger,
            {"cancelled": WASTE, "zeroVariance": WASTE, "stale": WASTE, "infraFailures": WASTE, "extra": 1},
        )
        self.assertEqual(ledger.zero_variance.rollout_seconds, 1.5)
        self.assertEqual(ledger.total.jobs, 8)
        self.assertEqual(ledger.total.generated_tokens, 160)
        # Entries newer servers send are read too, and count in the total.
        newer = from_wire(
            WasteLedger,
            {
                "cancelled": WASTE,
                "zeroVariance": WASTE,
                "stale": WASTE,
                "infraFailures": WASTE,
                "uncertified": WASTE,
                "expiredLongShots": WASTE,
                "tampered": WASTE,
            },
        )
        self.assertEqual(newer.expired_long_shots.jobs, 2)
        self.assertEqual(newer.tampered.jobs, 2)
        self.assertEqual(newer.total.jobs, 14)

    def test_a_trajectory_gives_the_weight_version_of_every_sampled_token(self):
        turn = {
            "index": 0,
            "start": 3,
            "end": 7,
            "weightVersion": "2",
            "weightVersionSpans": [
                {"start": 3, "end": 5, "weightVersion": "1"},
                {"start": 5, "end": 7, "weightVersion": "2"},
            ],
            "backendId": "b",
            "finishReason": "stop",
            "cachedPromptTokens": None,
            "latencyMs": 12,
            "sampling": {"temperature": 0.6, "topP": 0.95, "topK": None, "seed": 17, "maxTokens": 512},
        }
        trajectory = from_wire(
            StepTrajectory,
            {
                **dict.fromkeys(["batchId", "groupId", "failureKind", "failureLabel", "tokenBreak", "metadata"]),
                **dict.fromkeys(["dispatchVersion", "carriedFromStepId"]),
                "jobId": "job_1",
                "kind": "math",
                "status": "completed",
                "reward": 1,
                "trainable": True,
                "tokens": [11, 12, 13, 21, 22, 23, 24, 31],
                "lossMask": [0, 0, 0, 1, 1, 1, 1, 0],
                "logprobs": [None, None, None, -0.5, -0.25, -1, -2, None],
                "versions": [-1, -1, -1, 1, 1, 2, 2, -1],
                "logprobsComplete": True,
                "promptLength": 3,
                "turns": [turn],
                "turnCount": 1,
                "tokenExact": True,
                "timings": {"queueMs": 1, "initMs": 2, "runMs": 3, "evalMs": None},
                "slot": 0,
            },
        )
        self.assertEqual(trajectory.reward, 1.0)
        self.assertIsInstance(trajectory.turns[0].latency_ms, float)
        self.assertEqual(trajectory.turns[0].sampling, SamplingParams(0.6, 0.95, None, 17, 512))
        self.assertEqual(trajectory.sampled_tokens, 4)
        self.assertEqual(trajectory.token_weight_versions(), [None, None, None, "1", "1", "2", "2", None])
        # The integer versions a trainer masks with as they are: one per token, -1 off the sampled ones.
        self.assertEqual(trajectory.versions, [-1, -1, -1, 1, 1, 2, 2, -1])
        self.assertEqual(len(trajectory.versions), len(trajectory.tokens))
        self.assertTrue(all(type(version) is int for version in trajectory.versions))
        self.assertEqual(trajectory.turn_rewards, [])

    def test_a_trajectory_carries_its_turn_rewards_typed_and_placed_on_tokens(self):
        reward = {"turn": 0, "reward": 0.5, "source": "verifier", "label": "found it"}
        trajectory = from_wire(
            StepTrajectory,
            {
                **dict.fromkeys(["batchId", "groupId", "failureKind", "failureLabel", "tokenBreak", "metadata"]),
                **dict.fromkeys(["dispatchVersion", "carriedFromStepId"]),
                "jobId": "job_1",
                "kind": "harbor",
                "status": "completed",
                "reward": 1,
                "trainable": True,
                "tokens": [11, 12, 21, 22, 23, 31],
                "lossMask": [0, 0, 1, 1, 1, 0],
                "logprobs": [None, None, -0.5, -0.25, -1, None],
                "logprobsComplete": True,
                "promptLength": 2,
                "turns": [],
                "turnCount": 2,
                "tokenExact": False,
                "timings": {"queueMs": 1, "initMs": 2, "runMs": 3, "evalMs": 4},
                "slot": 0,
                "turnRewards": [
                    {**reward, "toolCallIndex": None, "start": 2, "end": 5},
                    {**reward, "source": "tool", "label": "query", "toolCallIndex": 1, "start": 2, "end": 5},
                    {**reward, "turn": 1, "toolCallIndex": None, "start": None, "end": None},
                ],
            },
        )
        first = trajectory.turn_rewards[0]
        self.assertEqual(first, TurnReward(0, 0.5, "verifier", "found it", None, 2, 5))
        self.assertIsInstance(first.reward, float)
        self.assertEqual(trajectory.turn_rewards[1].tool_call_index, 1)
        self.assertEqual(trajectory.token_rewards(), [0.0, 0.0, 0.0, 0.0, 1.0, 0.0])
        # A server that sends no integer versions (older than them) leaves the list empty.
        self.assertEqual(trajectory.versions, [])
        with self.assertRaises(WireFormatError):
            from_wire(TurnReward, {**reward, "source": "judge", "toolCallIndex": None, "start": 0, "end": 1})

    def test_a_trajectory_carries_top_logprobs_aligned_to_its_tokens_when_asked_for(self):
        base = {
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
        top = [
            None,
            [{"tokenId": 21, "logprob": -0.5}, {"tokenId": 7, "logprob": -1}],
            [{"tokenId": 8, "logprob": -0.25}, {"tokenId": 22, "logprob": -2}],
        ]
        trajectory = from_wire(StepTrajectory, {**base, "topLogprobs": top})
        assert trajectory.top_logprobs is not None
        self.assertIsNone(trajectory.top_logprobs[0])
        self.assertEqual(trajectory.top_logprobs[1], [TopLogprob(21, -0.5), TopLogprob(7, -1.0)])
        self.assertIsInstance(trajectory.top_logprobs[2][0].logprob, float)
        # A job that asked for none (or a server that sends none) leaves it None.
        self.assertIsNone(from_wire(StepTrajectory, base).top_logprobs)
        with self.assertRaises(WireFormatError):
            from_wire(StepTrajectory, {**base, "topLogprobs": [None, [{"tokenId": "x", "logprob": 0}], None]})

    def test_a_missing_field_or_a_wrong_type_is_a_wire_format_error_naming_where(self):
        with self.assertRaises(WireFormatError) as missing:
            from_wire(WasteLedger, {"cancelled": WASTE})
        self.assertIn("zeroVariance", str(missing.exception))
        with self.assertRaises(WireFormatError) as wrong:
            from_wire(StepStats, {"groupsStarted": "three"})
        self.assertIn("$.groupsStarted", str(wrong.exception))

    def test_the_error_envelope_becomes_a_raas_error(self):
        body = b'{"error":{"code":"NOT_FOUND","message":"no step stp_x","details":{"id":"stp_x"}}}'
        error = error_from_reply(404, body)
        self.assertEqual((error.status, error.code, error.message), (404, "NOT_FOUND", "no step stp_x"))
        self.assertEqual(error.details, {"id": "stp_x"})
        proxy = error_from_reply(502, b"<html>Bad Gateway</html>")
        self.assertEqual(proxy.code, "HTTP_502")
        self.assertIn("Bad Gateway", proxy.message)


if __name__ == "__main__":
    unittest.main()
