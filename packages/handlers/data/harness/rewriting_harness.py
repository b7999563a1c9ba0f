# A test harness (standard-library Python, run in a sandbox with the gateway's OPENAI_BASE_URL and
# OPENAI_API_KEY): a first call, a second whose history rewrote the user's question (a break in the
# prompt: a new chain), and a third that continues the second exactly, so its trace certificate
# has two chains, one call merged and one break. Usage: python3 rewriting_harness.py <task id>
import json
import os
import sys
import urllib.request

task_id = sys.argv[1]
base = os.environ["OPENAI_BASE_URL"].rstrip("/")


def ask(messages):
    request = urllib.request.Request(
        base + "/chat/completions",
        method="POST",
        data=json.dumps({"model": "any", "messages": messages, "max_tokens": 24}).encode(),
        headers={"content-type": "application/json", "authorization": "Bearer " + os.environ["OPENAI_API_KEY"]},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)["choices"][0]["message"]


system = {"role": "system", "content": "You are terse."}
first = ask([system, {"role": "user", "content": "task_id: " + task_id + "\nSay hi."}])
rewritten = [system, {"role": "user", "content": "task_id: " + task_id + "\nSay bye."}, first, {"role": "user", "content": "Again."}]
second = ask(rewritten)
ask(rewritten + [second, {"role": "user", "content": "Once more."}])
