#!/bin/bash
# Grades each field of /app/report.json on its own and writes every grade to reward.json; `reward`
# is 1 only when all of them are right. A per-step reward goes to the last turn whose tool calls
# touched report.json (read from /logs/agent/turns.json): the share of fields it got right.
mkdir -p /logs/verifier
python3 -I - <<'PY'
import json

expected = {
    "requests": 7,
    "status": {"200": 3, "201": 1, "304": 1, "404": 1, "500": 1},
    "top_path": "/api/items",
    "bytes": 4800,
}
try:
    report = json.load(open("/app/report.json"))
    if not isinstance(report, dict):
        report = {}
except (OSError, ValueError):
    report = {}
grades = {key: 1.0 if report.get(key) == value else 0.0 for key, value in expected.items()}
fields = sum(grades.values()) / len(grades)
grades["reward"] = 1.0 if all(grades.values()) and set(report) == set(expected) else 0.0
try:
    turns = json.load(open("/logs/agent/turns.json"))["turns"]
except (OSError, ValueError, KeyError, TypeError):
    turns = []
writers = [t["turn"] for t in turns if "report.json" in json.dumps(t.get("tool_calls", []))]
if writers:
    label = "last turn that touched report.json"
    grades["turn_rewards"] = [{"turn": writers[-1], "reward": fields, "label": label}]
print(grades)
json.dump(grades, open("/logs/verifier/reward.json", "w"))
PY
