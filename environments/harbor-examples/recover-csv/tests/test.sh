#!/bin/bash
# Compares the agent's clean file with the expected one byte for byte.
mkdir -p /logs/verifier
if [ -f /app/clean/orders.csv ] && cmp -s /app/clean/orders.csv /tests/expected.csv; then
  echo "ok"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: /app/clean/orders.csv differs from the expected rows"
  diff /tests/expected.csv /app/clean/orders.csv 2>&1 | head -20
  echo 0 > /logs/verifier/reward.txt
fi
