"""The event-stream reader, and iter_groups' reconnection against a stub server that drops the
stream mid-step (the real server does not drop streams on request, so a stub stands in here)."""

from __future__ import annotations

import json
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import support  # noqa: F401  (puts raas_client on sys.path)

from raas_client import RaasClient, RaasError, StepFailedError
from raas_client.sse import parse_events

WASTE = {"jobs": 0, "rolloutSeconds": 0, "generatedTokens": 0}
STATS = {
    **dict.fromkeys(
        [
            "groupsStarted",
            "groupsDecided",
            "informative",
            "uninformative",
            "failedGroups",
            "groupsDelivered",
            "jobsSubmitted",
            "jobsCancelled",
            "infraRetries",
            "trajectoriesCarriedIn",
            "trajectoriesCarriedOver",
            "staleWithheld",
            "staleRegenerated",
            "trajectories",
        ],
        0,
    ),
    **dict.fromkeys(
        ["rewardMean", "rewardStd", "rewardMin", "rewardMax", "solvedFraction", "meanTrajectoryTokens"]
    ),
    "waste": {"cancelled": WASTE, "zeroVariance": WASTE, "stale": WASTE, "infraFailures": WASTE},
}
STEP = {
    "id": "stp_1",
    "runId": "run_1",
    "index": 0,
    "stepKey": None,
    "status": "completed",
    "groupSize": 2,
    "groups": 3,
    "policy": "none",
    "stats": STATS,
    "deliveredSeq": 3,
    "createdAtMs": 0,
    "closedAtMs": 1,
}
FAILURE = {
    "reason": "failure-budget",
    "message": "step stp_1 failed: 17 jobs failed for infrastructure reasons, past its budget of 16",
    "jobsFailed": 17,
    "budget": 16,
    "commonestCause": "sandbox/init",
    "commonestCauseJobs": 15,
    "commonestMessage": "bwrap: no space left on device",
}
JOB_FAILURES = {"jobs": 17, "causes": {"sandbox/init": {"jobs": 15, "lastMessage": "bwrap: no space left on device"}}}
FAILED_STEP = {
    **STEP,
    "status": "failed",
    "failure": FAILURE,
    "stats": {**STATS, "jobFailures": JOB_FAILURES},
}


def group(seq: int) -> dict:
    return {
        "seq": seq,
        "groupId": f"grp_{seq}",
        "stepId": "stp_1",
        "runId": "run_1",
        "taskId": f"t-{seq}",
        "decision": "informative",
        "rewards": [0, 1],
        "trajectories": [],
    }


class StubStream(BaseHTTPRequestHandler):
    """First connection: groups 1 and 2, then the connection drops. Later ones: groups after
    Last-Event-ID, then `done`."""

    connections: list[dict] = []

    #: Answer this many requests with 503 + Retry-After first (a server past its subscription cap).
    refusals = 0

    #: The step the `done` answers carry.
    final_step = STEP

    def do_GET(self):  # noqa: N802 (http.server's name)
        StubStream.connections.append({"path": self.path, "lastEventId": self.headers.get("last-event-id")})
        if StubStream.refusals > 0:
            StubStream.refusals -= 1
            return self.refuse()
        if "/next" in self.path:
            return self.reply_next()
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()
        first = len(StubStream.connections) == 1
        after = int(self.headers.get("last-event-id") or 0)
        self.wfile.write(b": keep-alive\n\n")
        for seq in range(after + 1, 3 if first else 4):
            self.wfile.write(f"event: group\nid: {seq}\ndata: {json.dumps(group(seq))}\n\n".encode())
        if first:
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(f"event: done\ndata: {json.dumps(StubStream.final_step)}\n\n".encode())

    def reply_next(self):
        after = int(self.path.split("afterSeq=")[1].split("&")[0])
        groups = [group(after + 1)] if after < 3 else []
        body = json.dumps({"step": StubStream.final_step, "groups": groups, "done": after + 1 >= 3}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def refuse(self):
        body = b'{"error":{"code":"UNAVAILABLE","message":"too many live subscriptions"}}'
        self.send_response(503)
        self.send_header("content-type", "application/json")
        self.send_header("retry-after", "0.3")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class SseTest(unittest.TestCase):
    def setUp(self):
        StubStream.connections = []
        StubStream.refusals = 0
        StubStream.final_step = STEP
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), StubStream)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.client = RaasClient(f"http://127.0.0.1:{self.server.server_port}", token="t")

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()

    def test_events_are_parsed_with_comments_multi_line_data_and_a_cut_off_tail_dropped(self):
        text = b": hi\n\nevent: group\nid: 7\ndata: a\ndata: b\n\ndata: plain\n\nevent: group\ndata: cut"
        lines = text.split(b"\n")
        events = list(parse_events(line + b"\n" for line in lines))
        parsed = [(event.event, event.data, event.id) for event in events]
        self.assertEqual(parsed, [("group", "a\nb", "7"), ("message", "plain", None)])

    def test_a_dropped_stream_is_resumed_with_last_event_id_and_no_group_is_repeated(self):
        seqs = [result.seq for result in self.client.iter_groups("stp_1", mode="sse")]
        self.assertEqual(seqs, [1, 2, 3])
        self.assertEqual([c["lastEventId"] for c in StubStream.connections], [None, "2"])
        self.assertIn("afterSeq=2", StubStream.connections[1]["path"])

    def test_poll_mode_follows_after_seq_until_done(self):
        seqs = [result.seq for result in self.client.iter_groups("stp_1", mode="poll", after_seq=1)]
        self.assertEqual(seqs, [2, 3])
        self.assertEqual(len(StubStream.connections), 2)

    def test_a_failed_step_raises_with_its_reason_after_its_last_group_in_both_modes(self):
        StubStream.final_step = FAILED_STEP
        for mode in ("sse", "poll"):
            with self.subTest(mode):
                StubStream.connections = []
                seqs = []
                with self.assertRaises(StepFailedError) as raised:
                    for result in self.client.iter_groups("stp_1", mode=mode):
                        seqs.append(result.seq)
                self.assertEqual(seqs, [1, 2, 3])
                error = raised.exception
                self.assertEqual((error.status, error.code), (0, "STEP_FAILED"))
                self.assertIn("past its budget of 16", error.message)
                self.assertEqual(error.step.status, "failed")
                failure = error.step.failure
                self.assertEqual((failure.jobs_failed, failure.budget), (17, 16))
                self.assertEqual((failure.commonest_cause, failure.commonest_cause_jobs), ("sandbox/init", 15))
                self.assertEqual(error.step.stats.job_failures.causes["sandbox/init"]["jobs"], 15)

    def test_a_completed_step_without_failure_fields_ends_quietly(self):
        # A server older than the failure budget sends neither `failure` nor `jobFailures`.
        self.assertEqual([r.seq for r in self.client.iter_groups("stp_1", mode="poll")], [1, 2, 3])
        page = self.client.next_groups("stp_1", 2)
        self.assertEqual((page.done, page.step.failure, page.step.stats.job_failures), (True, None, None))

    def test_a_refusal_with_retry_after_is_waited_out_then_the_stream_is_read(self):
        StubStream.refusals = 1
        started = time.monotonic()
        seqs = [result.seq for result in self.client.iter_groups("stp_1", mode="sse")]
        self.assertEqual(seqs, [1, 2, 3])
        self.assertGreaterEqual(time.monotonic() - started, 0.3)
        self.assertEqual(len(StubStream.connections), 2)  # the refused one, then the whole stream

    def test_a_refusal_that_persists_is_raised_with_the_server_code(self):
        StubStream.refusals = 100
        client = RaasClient(self.client.base_url, max_reconnects=1)
        with self.assertRaises(RaasError) as raised:
            list(client.iter_groups("stp_1"))
        self.assertEqual((raised.exception.status, raised.exception.code), (503, "UNAVAILABLE"))
        self.assertEqual(raised.exception.retry_after, 0.3)

    def test_an_unreachable_server_is_a_connection_error_after_the_retries(self):
        self.server.shutdown()
        self.server.server_close()
        client = RaasClient(self.client.base_url, max_reconnects=1)
        with self.assertRaises(RaasError) as raised:
            list(client.iter_groups("stp_1", mode="poll"))
        self.assertEqual((raised.exception.status, raised.exception.code), (0, "UNAVAILABLE"))


if __name__ == "__main__":
    unittest.main()
