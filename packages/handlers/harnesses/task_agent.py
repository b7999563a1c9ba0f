#!/usr/bin/env python3
"""A compact agent for any task over the OpenAI chat API (standard library only).

The example harness of RaaS's `harness` handler for every kind (math, code, Harbor tasks,
reward functions, ...): it reads its task (system prompt, user message, working directory) from
the JSON file named by RAAS_TASK_FILE, talks to the model at OPENAI_BASE_URL with the key
OPENAI_API_KEY (the job's inference gateway, reached through the sandbox's loopback forwarder),
offers a `bash` and a `submit` tool, and runs the commands the model asks for. Its final answer,
the `submit` call's `answer` or else the model's last message, goes to RAAS_ANSWER_FILE: the task's
grader reads it as the agent's answer.
"""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

MAX_TURNS = int(os.environ.get("RAAS_HARNESS_MAX_TURNS", "30"))
COMMAND_TIMEOUT_S = int(os.environ.get("RAAS_HARNESS_COMMAND_TIMEOUT_S", "120"))
MAX_OUTPUT_CHARS = 8000

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "description": "Run a bash command in the task's sandbox and return its output.",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string", "description": "The command to run."}},
                "required": ["command"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "submit",
            "description": "Call when the task is done; ends the task. Give your final answer, if it has one.",
            "parameters": {
                "type": "object",
                "properties": {"answer": {"type": "string", "description": "Your final answer."}},
            },
        },
    },
]


def chat(messages):
    """One chat completion; returns the assistant message."""
    body = json.dumps({"model": "policy", "messages": messages, "tools": TOOLS}).encode("utf-8")
    request = urllib.request.Request(
        os.environ["OPENAI_BASE_URL"].rstrip("/") + "/chat/completions",
        data=body,
        headers={
            "content-type": "application/json",
            "authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", ""),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            return json.load(response)["choices"][0]["message"]
    except urllib.error.HTTPError as error:
        raise SystemExit("model call failed: %s %s" % (error.code, error.read().decode("utf-8", "replace")))


def run_bash(command, cwd):
    """Runs a command; returns what the model sees (output, then the exit code when non-zero)."""
    try:
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=COMMAND_TIMEOUT_S,
        )
        output = done.stdout.decode("utf-8", "replace")
        if done.returncode != 0:
            output += "\n[exit code: %d]" % done.returncode
    except subprocess.TimeoutExpired:
        output = "[the command ran past %d s and was stopped]" % COMMAND_TIMEOUT_S
    if len(output) > MAX_OUTPUT_CHARS:
        half = MAX_OUTPUT_CHARS // 2
        output = output[:half] + "\n[... output cut ...]\n" + output[-half:]
    return output if output != "" else "(no output)"


def write_answer(answer):
    """The final answer, where the task's grader reads it."""
    path = os.environ.get("RAAS_ANSWER_FILE")
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(answer)


def main():
    with open(os.environ["RAAS_TASK_FILE"], encoding="utf-8") as handle:
        task = json.load(handle)
    cwd = task.get("cwd") or os.getcwd()
    messages = [
        {"role": "system", "content": task["system"]},
        {"role": "user", "content": task["user"]},
    ]
    for turn in range(MAX_TURNS):
        message = chat(messages)
        messages.append(message)
        calls = message.get("tool_calls") or []
        if not calls:
            write_answer(message.get("content") or "")
            print("turn %d: the model answered without a tool call; stopping" % turn)
            return 0
        for call in calls:
            name = call["function"]["name"]
            try:
                arguments = json.loads(call["function"]["arguments"] or "{}")
            except json.JSONDecodeError:
                arguments = None
            if name == "submit" and isinstance(arguments, dict):
                answer = arguments.get("answer")
                write_answer(answer if isinstance(answer, str) else message.get("content") or "")
                print("turn %d: submitted" % turn)
                return 0
            if name == "bash" and isinstance(arguments, dict) and isinstance(arguments.get("command"), str):
                output = run_bash(arguments["command"], cwd)
            else:
                output = 'Unknown tool or bad arguments: call bash with {"command": "..."} or submit.'
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})
    print("stopped after %d turns" % MAX_TURNS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
