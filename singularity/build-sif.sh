#!/usr/bin/env bash
# Builds the RaaS sandbox base image on a cluster.
#
#   singularity/build-sif.sh [output.sif]
#
# Where to run it: any node with apptainer (or singularity) >= 1.1 and outbound network to
# Docker Hub and the npm registry. Building needs either root, `--fakeroot` (enabled by the
# admin in /etc/subuid), or a remote builder. Login nodes often forbid it; a short
# interactive job works: `srun --pty -c 4 --mem 8G bash`.
#
# Then point the runtime at the image:
#   new ApptainerRuntime({ defaultImage: "/shared/images/raas-base.sif" })
# and run the real-runtime tests with RAAS_TEST_SIF=/shared/images/raas-base.sif.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-raas-base.sif}"
bin="$(command -v apptainer || command -v singularity || true)"
if [ -z "$bin" ]; then
  echo "apptainer/singularity not found on PATH (try: module load apptainer)" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  "$bin" build "$out" "$here/raas-base.def"
else
  "$bin" build --fakeroot "$out" "$here/raas-base.def"
fi
echo "built $out; check it with: $bin exec $out node -e \"require('/opt/raas/node_modules/node-pty')\""
