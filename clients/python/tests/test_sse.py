"""The event-stream reader, and iter_groups' reconnection against a stub server that drops the
stream mid-step (the real server does not drop streams on request, so a stub stands in here)."""

from __future__ import annotations

import json
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import support  # noqa: F401  (puts raas_client on sys.path)

from raas_client import RaasClient, RaasError
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
        self.wfile.write(f"event: done\ndata: {json.dumps(STEP)}\n\n".encode())

    def reply_next(self):
        after = int(self.path.split("afterSeq=")[1].split("&")[0])
        groups = [group(after + 1)] if after < 3 else []
        body = json.dumps({"step": STEP, "groups": groups, "done": after + 1 >= 3}).encode()
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
