"""RaasClient against a real running server (RAAS_URL, RAAS_TOKEN: a trainer token,
RAAS_ADMIN_TOKEN: an admin token). Tasks are the server's diagnostic `sleep` handler, so no
sandbox or model is needed; `successRate` 0.5 makes groups whose rewards differ."""

from __future__ import annotations

import os
import unittest
import uuid

import support

from raas_client import RaasClient, RaasError, StepFailedError, StepTask
from raas_client.requests import DynamicSampling

GROUP_SIZE = 4


def sleep_task(task_id: str, success_rate: float, run_ms: int = 20) -> StepTask:
    payload = {"initMs": 5, "runMs": run_ms, "evalMs": 5, "successRate": success_rate}
    return StepTask(task_id, "sleep", payload)


def mixed_tasks(count: int) -> list[StepTask]:
    return [sleep_task(f"mixed-{i}", 0.5) for i in range(count)]


def unique(prefix: str) -> str:
    return f"{prefix}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


@support.needs_server
class RunsAndStepsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = RaasClient(support.URL, token=support.TOKEN, timeout=60)

    def setUp(self):
        # A run per test: a step's undecided samples are carried into the run's next step.
        self.train_run = self.client.create_run(unique("py-client"), model="test-policy").run

    def test_create_run_is_idempotent_by_run_key_and_keeps_config_keys_as_given(self):
        key = unique("run-key")
        first = self.client.create_run("idempotent", run_key=key, config={"learning_rate": 1e-6})
        again = self.client.create_run("idempotent", run_key=key, config={"learning_rate": 1e-6})
        self.assertEqual((first.created, again.created), (True, False))
        self.assertEqual(again.run.id, first.run.id)
        self.assertEqual(first.run.config, {"learning_rate": 1e-6})
        self.assertEqual(self.client.get_run(first.run.id), again.run)
        self.assertIn(first.run.id, [run.id for run in self.client.list_runs(limit=1000)])

    def test_a_zero_variance_step_streams_exactly_m_informative_groups_in_order(self):
        step = self.client.create_step(
            self.train_run.id, tasks=mixed_tasks(40), group_size=GROUP_SIZE, groups=3, step_key=unique("sse")
        ).step
        self.assertEqual((step.group_size, step.groups, step.policy), (GROUP_SIZE, 3, "zero-variance"))
        groups = list(self.client.iter_groups(step.id, mode="sse"))
        self.assertEqual([group.seq for group in groups], [1, 2, 3])
        for group in groups:
            self.assertEqual((group.step_id, group.run_id), (step.id, self.train_run.id))
            self.assertEqual(group.decision, "informative")
            self.assertEqual(len(group.trajectories), GROUP_SIZE)
            self.assertEqual(len(set(group.rewards)), 2, group.rewards)
            self.assertEqual([t.slot for t in group.trajectories], list(range(GROUP_SIZE)))
            for trajectory in group.trajectories:
                self.assertEqual((trajectory.group_id, trajectory.batch_id), (group.group_id, step.id))
                self.assertEqual((trajectory.status, trajectory.trainable), ("completed", True))
                self.assertIn(trajectory.reward, (0.0, 1.0))
                self.assertEqual(len(trajectory.loss_mask), len(trajectory.tokens))
                self.assertEqual(len(trajectory.logprobs), len(trajectory.tokens))
                self.assertGreater(trajectory.timings.run_ms, 0)
        done = self.client.get_step(step.id)
        self.assertEqual(done.status, "completed")
        self.assertTrue(done.is_done)
        self.assertEqual((done.stats.groups_delivered, done.delivered_seq), (3, 3))
        # Groups already informative at the close are carried whole into the next step, not cancelled.
        self.assertGreaterEqual(done.stats.informative, 3)
        self.assertEqual(done.stats.trajectories, 3 * GROUP_SIZE)
        self.assertEqual(done.stats.reward_min, 0.0)
        self.assertEqual(done.stats.reward_max, 1.0)
        # Every uninformative group's members are in the waste ledger (a group that ends flat after
        # the step closed is too, without counting as decided in this step).
        self.assertGreaterEqual(done.stats.waste.zero_variance.jobs, done.stats.uninformative * GROUP_SIZE)
        listed = self.client.list_groups(step.id)
        delivered = [group for group in listed if group.state == "delivered"]
        self.assertEqual(sorted(group.id for group in delivered), sorted(group.group_id for group in groups))
        self.assertTrue(all(len(group.members) == GROUP_SIZE for group in listed))

    def test_poll_mode_yields_the_same_groups_as_the_stream_and_resumes_after_a_seq(self):
        step = self.client.create_step(
            self.train_run.id, tasks=mixed_tasks(40), group_size=2, groups=3, dynamic_sampling="none"
        ).step
        streamed = list(self.client.iter_groups(step.id, mode="sse"))
        polled = list(self.client.iter_groups(step.id, mode="poll", poll_timeout_ms=5_000))
        self.assertEqual([g.seq for g in polled], [1, 2, 3])
        self.assertEqual(polled, streamed)
        self.assertEqual([g.seq for g in self.client.iter_groups(step.id, mode="poll", after_seq=2)], [3])
        self.assertEqual([g.seq for g in self.client.iter_groups(step.id, mode="sse", after_seq=1)], [2, 3])

    def test_policy_none_hands_out_groups_whose_rewards_are_all_equal(self):
        tasks = [sleep_task(f"always-{i}", 1.0) for i in range(2)]
        step = self.client.create_step(
            self.train_run.id,
            tasks=tasks,
            group_size=2,
            groups=2,
            dynamic_sampling=DynamicSampling(policy="none"),
        ).step
        groups = list(self.client.iter_groups(step.id))
        self.assertEqual([g.decision for g in groups], ["uninformative", "uninformative"])
        self.assertEqual([g.rewards for g in groups], [[1.0, 1.0], [1.0, 1.0]])
        self.assertEqual(sorted(g.task_id for g in groups), ["always-0", "always-1"])

    def test_a_step_whose_tasks_run_out_is_exhausted_not_hung(self):
        tasks = [sleep_task(f"never-{i}", 0.0) for i in range(2)]
        step = self.client.create_step(self.train_run.id, tasks=tasks, group_size=2, groups=1).step
        self.assertEqual(list(self.client.iter_groups(step.id, mode="poll")), [])
        final = self.client.get_step(step.id)
        self.assertEqual(final.status, "exhausted")
        self.assertEqual((final.stats.uninformative, final.stats.groups_delivered), (2, 0))

    def test_a_step_whose_every_job_fails_raises_step_failed_not_hung(self):
        payload = {"initMs": 5, "runMs": 5, "evalMs": 5, "fail": {"init": {"rate": 1, "kind": "sandbox"}}}
        tasks = [StepTask(f"broken-{i}", "sleep", payload) for i in range(40)]
        step = self.client.create_step(
            self.train_run.id, tasks=tasks, group_size=2, groups=2, max_infra_retries=0, max_job_failures=3
        ).step
        for mode in ("sse", "poll"):
            with self.subTest(mode), self.assertRaises(StepFailedError) as raised:
                list(self.client.iter_groups(step.id, mode=mode))
            failure = raised.exception.step.failure
            self.assertEqual((failure.reason, failure.jobs_failed, failure.budget), ("failure-budget", 4, 3))
            self.assertEqual(failure.commonest_cause, "sandbox/init")
            self.assertIn("past its budget of 3", raised.exception.message)
        final = self.client.get_step(step.id)
        self.assertEqual((final.status, final.stats.groups_delivered), ("failed", 0))
        self.assertEqual(final.stats.job_failures.jobs, 4)

    def test_cancel_stops_a_running_step_and_its_jobs(self):
        slow = [sleep_task(f"slow-{i}", 0.5, run_ms=600_000) for i in range(4)]
        step = self.client.create_step(self.train_run.id, tasks=slow, group_size=2, groups=2).step
        cancelled = self.client.cancel(step.id)
        self.assertEqual(cancelled.status, "cancelled")
        self.assertEqual(list(self.client.iter_groups(step.id)), [])
        groups = self.client.list_groups(step.id)
        self.assertTrue(groups)
        states = [group.state for group in groups]
        self.assertTrue(all(state in ("cancelled", "carried") for state in states), states)
        self.assertTrue(all(m.status == "cancelled" for g in groups for m in g.members))

    def test_steps_are_listed_under_their_run_in_order_and_idempotent_by_step_key(self):
        def create(**key):
            tasks = mixed_tasks(4)
            return self.client.create_step(self.train_run.id, tasks=tasks, group_size=2, groups=1, **key)

        first, again, second = create(step_key="a"), create(step_key="a"), create()
        self.assertEqual((first.created, again.created, again.step.id), (True, False, first.step.id))
        steps = self.client.list_steps(self.train_run.id)
        self.assertEqual([(s.id, s.index) for s in steps], [(first.step.id, 0), (second.step.id, 1)])
        self.assertEqual(self.client.get_run(self.train_run.id).step_count, 2)
        for step in steps:
            self.client.cancel(step.id)

    def test_cancel_jobs_of_a_batch_names_the_cancelled_jobs(self):
        slow = [sleep_task(f"batch-{i}", 0.5, run_ms=600_000) for i in range(2)]
        step = self.client.create_step(self.train_run.id, tasks=slow, group_size=2, groups=1).step
        members = [member for group in self.client.list_groups(step.id) for member in group.members]
        running = [member.job_id for member in members if member.status == "running"]
        self.assertTrue(running)
        cancelled = self.client.cancel_jobs(batch_id=step.id)
        self.assertEqual(sorted(cancelled), sorted(running))
        self.client.cancel(step.id)


@support.needs_server
class ErrorsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = RaasClient(support.URL, token=support.TOKEN)
        cls.train_run = cls.client.create_run(unique("py-errors")).run

    def assert_raas_error(self, call, status: int, code: str, *fragments: str) -> RaasError:
        with self.assertRaises(RaasError) as raised:
            call()
        error = raised.exception
        self.assertEqual((error.status, error.code), (status, code), error.message)
        for fragment in fragments:
            self.assertIn(fragment, error.message)
        return error

    def test_an_unknown_step_or_run_is_not_found(self):
        self.assert_raas_error(lambda: self.client.get_step("stp_nope"), 404, "NOT_FOUND", "stp_nope")
        self.assert_raas_error(
            lambda: self.client.create_step("run_nope", tasks=mixed_tasks(1), group_size=2, groups=1),
            404,
            "NOT_FOUND",
        )
        self.assert_raas_error(lambda: list(self.client.iter_groups("stp_nope")), 404, "NOT_FOUND")

    def test_an_invalid_field_is_a_validation_error_naming_it(self):
        error = self.assert_raas_error(
            lambda: self.client.create_step(self.train_run.id, tasks=mixed_tasks(1), group_size=0, groups=1),
            400,
            "VALIDATION_FAILED",
            "groupSize",
        )
        self.assertIsNotNone(error.details)

    def test_a_payload_its_handler_rejects_creates_nothing(self):
        bad = [StepTask("bad-0", "sleep", {"initMs": 5, "agent": {"temperature": 1}})]
        before = len(self.client.list_steps(self.train_run.id))
        self.assert_raas_error(
            lambda: self.client.create_step(self.train_run.id, tasks=bad, group_size=2, groups=1),
            400,
            "VALIDATION_FAILED",
        )
        self.assertEqual(len(self.client.list_steps(self.train_run.id)), before)

    def test_an_unknown_dataset_is_refused(self):
        self.assert_raas_error(
            lambda: self.client.create_step(self.train_run.id, dataset="no-such-set", group_size=2, groups=1),
            400,
            "VALIDATION_FAILED",
            "no-such-set",
        )

    def test_without_a_token_writes_are_unauthorized(self):
        anonymous = RaasClient(support.URL)
        self.assert_raas_error(lambda: anonymous.create_run("nobody"), 401, "UNAUTHORIZED")

    def test_create_step_needs_exactly_one_task_source(self):
        with self.assertRaises(ValueError):
            self.client.create_step(self.train_run.id, group_size=2, groups=1)


@support.needs_server
class PolicyAndBackendsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = RaasClient(support.URL, token=support.TOKEN)

    def test_weight_version_pause_and_resume(self):
        start = self.client.get_policy().weight_version or 0
        self.assertEqual(self.client.set_weight_version(start + 1).weight_version, start + 1)
        try:
            paused = self.client.pause("abort-and-continue")
            self.assertEqual((paused.is_paused, paused.pause_mode), (True, "abort-and-continue"))
            self.assertIsNotNone(paused.paused_at_ms)
        finally:
            resumed = self.client.resume(weight_version=start + 2)
        self.assertEqual((resumed.is_paused, resumed.pause_mode), (False, None))
        self.assertEqual(resumed.weight_version, start + 2)
        self.assertEqual(self.client.get_policy(), resumed)

    def test_each_policy_keeps_its_own_version_and_pause(self):
        policy = unique("py-policy")
        default_before = self.client.get_policy()
        self.assertEqual(self.client.set_weight_version(5, policy_id=policy).weight_version, 5)
        try:
            paused = self.client.pause("wait", policy_id=policy)
            self.assertEqual((paused.policy_id, paused.is_paused), (policy, True))
            self.assertIsNotNone(paused.owner_id)
            self.assertEqual(self.client.get_policy(), default_before)
        finally:
            resumed = self.client.resume(6, policy_id=policy)
        self.assertEqual((resumed.weight_version, resumed.is_paused), (6, False))
        listed = {state.policy_id: state for state in self.client.list_policies()}
        self.assertEqual(listed[policy], resumed)
        self.assertIn("default", listed)

    def test_a_version_that_goes_back_is_a_conflict(self):
        start = self.client.get_policy().weight_version or 0
        current = self.client.set_weight_version(start + 1).weight_version
        with self.assertRaises(RaasError) as raised:
            self.client.set_weight_version(current - 1)
        self.assertEqual((raised.exception.status, raised.exception.code), (409, "CONFLICT"))

    def test_datasets_are_listed_with_sizes(self):
        for dataset in self.client.list_datasets():
            self.assertGreater(dataset.size, 0)
            self.assertTrue(dataset.kinds)

    @unittest.skipUnless(support.ADMIN_TOKEN, "set RAAS_ADMIN_TOKEN to register a backend")
    def test_register_backend_creates_then_updates(self):
        admin = RaasClient(support.URL, token=support.ADMIN_TOKEN)
        backend_id = unique("py-backend")
        first = admin.register_backend("http://127.0.0.1:9", id=backend_id, model_name="test/model")
        again = admin.register_backend(
            "http://127.0.0.1:9", id=backend_id, model_name="test/model", weight_version="step-7"
        )
        self.assertEqual((first.created, again.created), (True, False))
        self.assertEqual((again.backend.id, again.backend.weight_version), (backend_id, "step-7"))
        self.assertEqual(again.backend.kind, "vllm")

    def test_register_backend_needs_an_admin_token(self):
        with self.assertRaises(RaasError) as raised:
            self.client.register_backend("http://127.0.0.1:9", model_name="test/model")
        self.assertEqual((raised.exception.status, raised.exception.code), (403, "FORBIDDEN"))


if __name__ == "__main__":
    unittest.main()
