#!/bin/bash
# Runs the hidden unit tests against the agent's module from the workdir.
mkdir -p /logs/verifier
cd /app || exit 1
if PYTHONPATH=/app python3 /tests/test_stats.py -v 2>&1; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
