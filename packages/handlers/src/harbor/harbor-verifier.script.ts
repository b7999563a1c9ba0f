/**
 * The verifier's wrapper, run as one non-interactive command (`bash -c`, its own jail with a
 * private /tmp) with the time limit in seconds as `$1`. Reads on stdin: a nonce, the verifier's
 * root (a fresh directory in that private /tmp, so nothing the agent left behind can reach it),
 * the tests' HOME (empty: a fresh directory below the root, so no dotfile or user site-packages
 * the agent left in /workspace configures the tests' tools), then `F <x|-> <path> <base64>` lines of the files to place below the root, ended by `E`. Runs
 * `tests/test.sh` with stdin closed and its output in `logs/verifier/test-stdout.txt`, then writes
 * what it found as `RAAS-HARBOR <nonce> …` frames on its own stdout: the reward files (base64),
 * the output's tail, whether the limit ended it, and test.sh's exit status. Only this script knows
 * the nonce (read from stdin, never exported), so output the tests print cannot pass for a frame.
 */
/** Largest reward file read, in bytes (1 MiB). */
const MAX_REWARD_FILE_BYTES = 1024 ** 2;

export const HARBOR_VERIFIER_SH = String.raw`set -u
limit="$1"
IFS= read -r nonce || exit 97
IFS= read -r root || exit 97
IFS= read -r home || exit 97
frame() { printf '\nRAAS-HARBOR %s %s\n' "$nonce" "$*"; }
if ! mkdir -m 700 "$root" 2>/dev/null; then frame setup "cannot create $root"; exit 0; fi
mkdir -p "$root/tests" "$root/logs/verifier" "$root/logs/agent" "$root/solution"
while IFS=$'\t' read -r tag mode path data; do
  [ "$tag" = F ] || break
  case "$path" in /* | .. | ../* | */../* | */..) frame setup "refused path"; exit 0 ;; esac
  mkdir -p "$(dirname "$root/$path")"
  if ! printf '%s' "$data" | base64 -d >"$root/$path"; then frame setup "cannot write $path"; exit 0; fi
  if [ "$mode" = x ]; then chmod +x "$root/$path"; fi
done
exec </dev/null
if [ -z "$home" ]; then home="$root/home"; fi
export HOME="$home"
mkdir -p "$HOME"
started=$(date +%s)
timeout --kill-after=5 "$limit" bash "$root/tests/test.sh" >"$root/logs/verifier/test-stdout.txt" 2>&1
status=$?
elapsed=$(($(date +%s) - started))
# In the verifier's own jail (its pid namespace, where this script's parent is pid 1) whatever the
# tests started and left running is killed before the reward is read: a daemon of the code under
# test cannot rewrite it afterwards. Outside a jail (no tool jail) nothing is killed here.
if [ "$PPID" = 1 ]; then kill -KILL -1 2>/dev/null; sleep 0.1; fi
if { [ "$status" = 124 ] || [ "$status" = 137 ]; } && [ "$elapsed" -ge "$limit" ]; then frame timeout "$elapsed"; fi
for name in reward.txt reward.json; do
  file="$root/logs/verifier/$name"
  if [ -f "$file" ]; then
    if [ "$(stat -c %s "$file")" -gt ${MAX_REWARD_FILE_BYTES} ]; then frame toolarge "$name"
    else frame file "$name" "$(base64 -w0 <"$file")"; fi
  fi
done
frame tail "$(tail -c 4096 "$root/logs/verifier/test-stdout.txt" | base64 -w0)"
frame exit "$status"
`;
