# Sourced by the verifier. reap_leftovers kills every process this shell can see except its own
# ancestors (and pid 1): what the code under test may have left running to rewrite the reward file
# after the verifier wrote it. Call it after the agent's code has run, right before writing.
reap_leftovers() {
  local keep=" 1 " pid=$$ stat rest
  while [ "$pid" -gt 1 ] && [ -r "/proc/$pid/stat" ]; do
    keep="$keep$pid "
    stat=$(</proc/$pid/stat)
    rest=${stat##*) }
    set -- $rest
    pid=$2
  done
  local round found dir p
  for round in 1 2 3 4 5 6 7 8 9 10; do
    found=0
    for dir in /proc/[0-9]*; do
      p=${dir#/proc/}
      case "$keep" in
        *" $p "*) ;;
        *) kill -KILL "$p" 2>/dev/null && found=1 ;;
      esac
    done
    [ "$found" = 0 ] && return 0
    sleep 0.05
  done
}
