#!/bin/bash
# Runs /app/top_words.sh on inputs it has not seen and writes 1 to the reward file only when every
# case matches.
source /tests/reap.sh
mkdir -p /logs/verifier
cd /app || { echo 0 > /logs/verifier/reward.txt; exit 0; }

check() {
  local expected=$1
  shift
  local actual
  actual=$(timeout 10 bash /app/top_words.sh "$@" 2>&1 | sed 's/^ *//')
  if [ "$actual" != "$expected" ]; then
    printf 'FAIL %s\n--- expected\n%s\n--- got\n%s\n' "$*" "$expected" "$actual"
    return 1
  fi
  echo "ok $*"
}

status=0
check $'4 apples\n3 kiwi\n2 and' "/tests/inputs/story one.txt" || status=1
check $'4 apples' "/tests/inputs/story one.txt" 1 || status=1
check $'4 the\n3 quick\n2 dog\n2 fox' /app/sample.txt 4 || status=1

reap_leftovers
if [ "$status" -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
