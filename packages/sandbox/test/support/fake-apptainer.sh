#!/bin/bash
# A labelled test double for `apptainer exec`: accepts the flags ApptainerRuntime emits, checks
# the ones it must emit, and runs the command with bubblewrap over the host's /usr instead of
# an image. It exercises the runtime's plumbing (binds, env, pwd, server paths), not Apptainer.
set -euo pipefail
[ "$1" = exec ] || { echo "fake-apptainer: expected exec, got $1" >&2; exit 64; }
shift
args=(--unshare-all --die-with-parent --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib
  --symlink usr/lib64 /lib64 --proc /proc --dev /dev --tmpfs /tmp --clearenv)
seen=""
while [ $# -gt 0 ]; do
  case "$1" in
    --containall|--no-home|--writable-tmpfs|--cleanenv|--net) seen="$seen $1"; shift ;;
    --network) shift 2 ;;
    --pwd) args+=(--chdir "$2"); shift 2 ;;
    --env) args+=(--setenv "${2%%=*}" "${2#*=}"); shift 2 ;;
    --bind)
      IFS=: read -r src dst mode <<<"$2"
      if [ "${mode:-rw}" = ro ]; then args+=(--ro-bind "$src" "$dst"); else args+=(--bind "$src" "$dst"); fi
      shift 2 ;;
    -*) echo "fake-apptainer: unknown flag $1" >&2; exit 64 ;;
    *) image="$1"; shift; break ;;
  esac
done
for required in --containall --no-home --writable-tmpfs --cleanenv; do
  case "$seen" in *"$required"*) ;; *) echo "fake-apptainer: missing $required" >&2; exit 65 ;; esac
done
[ -n "${image:-}" ] || { echo "fake-apptainer: no image" >&2; exit 64; }
exec bwrap "${args[@]}" -- "$@"
