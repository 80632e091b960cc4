#!/usr/bin/env bash
# The test cluster with everything a run of the Kubernetes target needs, from a fresh clone: the one sequence
# docs/kubernetes.md gives and .ci/run runs (root, from the checkout's root).
#
#   setup.sh DIR [TAG]     cluster state in DIR; the services' image is meshbench.local/acmeair-services:TAG (default dev)
#
# 1. cluster.sh build: Kubernetes, CoreDNS and Istio from the Go module proxy, images from Debian's packages, cached
#    under ~/.cache/meshbench (about 16 minutes cold on 2 cores, seconds when cached);
# 2. the jars and the services' image in one reactor build (Jib, no Docker daemon; every module comes from this checkout,
#    never from ~/.m2, so it works with nothing of the project installed);
# 3. cluster.sh up, istio, mongo (the kit's embedded TLS MongoDB), and the image imported into the node's containerd.
# Then: mvn -B verify -Pall-cases $(bash istio-config/test-cluster/cluster.sh settings DIR); cluster.sh down DIR.
set -euo pipefail
DIR="${1:?usage: setup.sh DIR [TAG]}"
TAG="${2:-dev}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE_ROOT="${MESHBENCH_CACHE:-$HOME/.cache/meshbench}"
log() { echo "setup: $(date +%H:%M:%S) $*" >&2; }

bash "$HERE/cluster.sh" build
log "the jars and the services' image (mvn -Pimages package jib:buildTar)"
mvn -B -ntp -q -Pimages package jib:buildTar -DskipTests \
  -Dmeshbench.images.base="tar://$CACHE_ROOT/images/java-base.tar" \
  -Dmeshbench.images.registry=meshbench.local -Dmeshbench.images.tag="$TAG"
bash "$HERE/cluster.sh" up "$DIR"
bash "$HERE/cluster.sh" istio "$DIR"
bash "$HERE/cluster.sh" mongo "$DIR" embedded-mongo/target/embedded-mongo.jar
bash "$HERE/cluster.sh" load "$DIR" acmeair-services/target/jib-image.tar
echo "meshbench.local/acmeair-services:$TAG" > "$DIR/services-image"
log "ready: mvn -B verify -Pall-cases \$(bash $HERE/cluster.sh settings $DIR)"
