#!/bin/bash
# Checks the config the agent wrote and queries the service it left running.
mkdir -p /logs/verifier
python3 -I - <<'PY'
import configparser, json, subprocess, sys, urllib.request, urllib.error

def write_reward(value):
    # Whatever the service's code left running is killed before the reward is written.
    subprocess.run(["bash", "-c", "source /tests/reap.sh && reap_leftovers"], timeout=30)
    open("/logs/verifier/reward.txt", "w").write(f"{value}\n")

def fail(message):
    print("FAIL", message)
    write_reward(0)
    sys.exit(0)

check = subprocess.run([sys.executable, "/app/inventory_service.py", "--config", "/app/service.ini", "--check"],
                       capture_output=True, text=True, timeout=20)
if check.returncode != 0:
    fail("the service rejects the config: " + check.stderr.strip())
config = configparser.ConfigParser()
config.read("/app/service.ini")
if config.get("server", "port") != "8765" or config.get("server", "log_level") != "warning":
    fail("port or log level is not what was asked")
try:
    request = urllib.request.Request("http://127.0.0.1:8765/items", headers={"X-Api-Key": "s3cret-key"})
    items = json.load(urllib.request.urlopen(request, timeout=5))["items"]
except (urllib.error.URLError, OSError, ValueError, KeyError) as error:
    fail(f"the service does not answer on 127.0.0.1:8765: {error}")
if [item["sku"] for item in items] != ["A-100", "A-101", "B-200"]:
    fail(f"unexpected items: {items}")
try:
    urllib.request.urlopen(urllib.request.Request("http://127.0.0.1:8765/items"), timeout=5)
    fail("the service answers without the API key")
except urllib.error.HTTPError as error:
    if error.code != 401:
        fail(f"without the key the service answers {error.code}")
print("ok")
write_reward(1)
PY
