#!/bin/bash
# Grades the agent's package from an isolated grader that imports none of it (test_stats.py).
mkdir -p /logs/verifier
python3 -I /tests/test_stats.py
