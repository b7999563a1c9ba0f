#!/bin/bash
python3 - <<'PY'
import collections, json, re

pattern = re.compile(r'^\S+ \S+ \S+ \[[^\]]+\] "(\S+) (\S+) (\S+)" (\d{3}) (\d+|-)$')
status = collections.Counter()
paths = collections.Counter()
total_bytes = 0
for line in open("/app/logs/access.log"):
    match = pattern.match(line.rstrip("\n"))
    if not match:
        continue
    _, path, _, code, size = match.groups()
    status[code] += 1
    paths[path] += 1
    total_bytes += 0 if size == "-" else int(size)
top = sorted(paths.items(), key=lambda item: (-item[1], item[0]))[0][0]
report = {"requests": sum(status.values()), "status": dict(sorted(status.items())), "top_path": top, "bytes": total_bytes}
json.dump(report, open("/app/report.json", "w"), indent=2)
PY
