#!/usr/bin/env python3
"""A compact SWE agent over the OpenAI chat API (standard library only).

The example harness of RaaS's `harness` handler for swe tasks: `task_agent.py` (written beside it)
with the tools worded for a repository. It reads its task (system prompt and issue text) from the
JSON file named by RAAS_TASK_FILE, talks to the model at OPENAI_BASE_URL with the key
OPENAI_API_KEY (the job's inference gateway, reached through the sandbox's loopback forwarder),
offers a `bash` and a `submit` tool, runs the commands the model asks for in the repository, and
stops when the model submits, answers without a tool call, or runs out of turns. The grade is the
repository's diff; the answer file task_agent writes is not read.
"""

import sys

import task_agent

BASH, SUBMIT = (tool["function"] for tool in task_agent.TOOLS)
BASH["description"] = "Run a bash command in the repository's sandbox and return its output."
SUBMIT["description"] = "Call when the issue is resolved; ends the task. Your changes are kept."
SUBMIT["parameters"] = {"type": "object", "properties": {}}

if __name__ == "__main__":
    sys.exit(task_agent.main())
