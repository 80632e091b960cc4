#!/usr/bin/env bash
# A real Kubernetes control plane on loopback, for the Kubernetes target's end-to-end test: etcd (Debian's
# etcd-server), kube-apiserver, kube-controller-manager and kube-scheduler built from the Go module proxy, and kwok
# managing one fake node so that pods become Running and rollouts complete (kwok pods carry no traffic).
#
#   cluster.sh build        build or reuse the binaries, cached under ~/.cache/meshbench/kube-<version>
#   cluster.sh up DIR       start everything, state in DIR (kubeconfig DIR/kubeconfig, logs DIR/*.log, pids DIR/pids)
#   cluster.sh istio DIR CRDS  apply Istio's CRDs (server-side) and stand-ins for Istio's egress and ingress gateways
#   cluster.sh down DIR     stop what `up DIR` started (by pid), remove its state
#
# Every process is started by this script, recorded by pid and stopped by `down`; nothing listens beyond 127.0.0.1.
# The API server uses TLS with a CA made for this cluster alone and a token for the one admin user.
set -euo pipefail

KUBE_VERSION=v1.31.4
STAGING_VERSION=v0.31.4
KWOK_VERSION=v0.6.1
CACHE="${MESHBENCH_CACHE:-$HOME/.cache/meshbench}/kube-$KUBE_VERSION"
BINARIES=(kube-apiserver kube-controller-manager kube-scheduler)

log() { echo "cluster: $*" >&2; }

build() {
  mkdir -p "$CACHE"
  local missing=()
  # A binary counts only if it reports the wanted version (a build without version stamps says v0.0.0-master).
  for b in "${BINARIES[@]}"; do "$CACHE/$b" --version 2>/dev/null | grep -qF "$KUBE_VERSION" || missing+=("$b"); done
  [ -x "$CACHE/kwok" ] || missing+=(kwok)
  if [ ${#missing[@]} -eq 0 ]; then log "binaries cached in $CACHE"; return; fi
  command -v go >/dev/null || { log "go is not on PATH: needed to build ${missing[*]}"; exit 1; }
  local work; work="$(mktemp -d)"
  # A RETURN trap stays set after this function returns and would fire again when its caller (up) returns, with
  # $work out of scope (set -u): so it clears itself.
  trap 'rm -rf "$work"; trap - RETURN' RETURN
  if [[ " ${missing[*]} " == *" kube-"* ]]; then
    # A throwaway module that requires k8s.io/kubernetes: its go.mod replaces the staging modules with local
    # folders, which a dependent module cannot see, so pin them to the published k8s.io/* modules instead.
    log "building ${BINARIES[*]} $KUBE_VERSION from the Go module proxy (several minutes when cold)"
    (cd "$work" && go mod init meshbench.dev/kube-build >/dev/null 2>&1
     local mods; mods=$(curl -fsS "https://proxy.golang.org/k8s.io/kubernetes/@v/$KUBE_VERSION.mod" \
       | sed -n 's#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/.*#\1#p')
     [ -n "$mods" ] || { log "could not read k8s.io/kubernetes $KUBE_VERSION go.mod from the module proxy"; exit 1; }
     for m in $mods; do go mod edit -replace "$m=$m@$STAGING_VERSION"; done
     go mod edit -require "k8s.io/kubernetes@$KUBE_VERSION"
     printf 'package main\nimport _ "k8s.io/kubernetes/cmd/kube-apiserver/app"\nfunc main() {}\n' > tools.go
     GOFLAGS=-mod=mod go mod tidy >/dev/null
     # Version stamps as Kubernetes' own build sets them, so /version says v1.31.4 like a release.
     local minor; minor=$(echo "$KUBE_VERSION" | cut -d. -f2)
     local ldflags="-X k8s.io/component-base/version.gitVersion=$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1"
     ldflags="$ldflags -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
     ldflags="$ldflags -X k8s.io/client-go/pkg/version.gitVersion=$KUBE_VERSION -X k8s.io/client-go/pkg/version.gitMajor=1"
     ldflags="$ldflags -X k8s.io/client-go/pkg/version.gitMinor=$minor"
     for b in "${BINARIES[@]}"; do
       if [[ " ${missing[*]} " == *" $b "* ]]; then
         CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags "$ldflags" -o "$CACHE/$b" "k8s.io/kubernetes/cmd/$b"
         log "built $b"
       fi
     done)
  fi
  if [ ! -x "$CACHE/kwok" ]; then
    log "building kwok $KWOK_VERSION"
    GOBIN="$CACHE" CGO_ENABLED=0 go install "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
  fi
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

start() { # name, command...: start in the background, log to DIR/name.log, record the pid
  local name="$1"; shift
  "$@" >"$DIR/$name.log" 2>&1 &
  echo "$! $name" >>"$DIR/pids"
}

wait_for() { # what, seconds, command...: poll once a second; give up early if a started process has exited
  local what="$1" secs="$2" pid name; shift 2
  for _ in $(seq 1 "$secs"); do
    "$@" >/dev/null 2>&1 && return 0
    while read -r pid name; do
      kill -0 "$pid" 2>/dev/null || { log "$name ($pid) exited while waiting for $what; last lines of $name.log:"
        tail -n 20 "$DIR/$name.log" >&2 || true; return 1; }
    done <"$DIR/pids"
    sleep 1
  done
  log "$what not ready after ${secs}s; last log lines:"; tail -n 20 "$DIR"/*.log >&2 || true
  return 1
}

up() {
  build
  mkdir -p "$DIR"; DIR="$(cd "$DIR" && pwd)"
  [ -e "$DIR/pids" ] && { log "$DIR/pids exists: run 'cluster.sh down $DIR' first"; exit 1; }
  # Any failure from here on (set -e inside a helper function, an explicit exit, Ctrl-C) stops what started: an EXIT
  # trap, since an ERR trap is not inherited by functions and an INT trap alone would carry on after the handler.
  trap 'rc=$?; trap - EXIT; [ "$rc" -eq 0 ] || { log "start failed; stopping what started"; down; }; exit "$rc"' EXIT
  trap 'exit 130' INT TERM
  : >"$DIR/pids"
  command -v etcd >/dev/null || { log "etcd is not on PATH (Debian: apt-get install etcd-server)"; exit 1; }
  local etcd_port etcd_peer api_port
  etcd_port=$(free_port); etcd_peer=$(free_port); api_port=$(free_port)

  # PKI for this cluster alone: a CA, the API server's serving certificate, the service-account signing key.
  local pki="$DIR/pki"; mkdir -p "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=meshbench-test-cluster-ca" \
    -keyout "$pki/ca.key" -out "$pki/ca.crt" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=kube-apiserver" -keyout "$pki/apiserver.key" -out "$pki/apiserver.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost,IP:10.96.0.1,DNS:kubernetes.default.svc\n' > "$pki/san.ext"
  openssl x509 -req -in "$pki/apiserver.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -days 2 \
    -extfile "$pki/san.ext" -out "$pki/apiserver.crt" 2>/dev/null
  openssl genrsa -out "$pki/sa.key" 2048 2>/dev/null
  openssl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null
  local token; token=$(openssl rand -hex 24)
  # A second user with no rights at all, so tests can see the server's own 403.
  local viewer; viewer=$(openssl rand -hex 24)
  printf '%s,meshbench-admin,meshbench-admin,system:masters\n%s,meshbench-viewer,meshbench-viewer\n' "$token" "$viewer" > "$pki/tokens.csv"
  (umask 077 && echo "$viewer" > "$DIR/viewer-token")
  chmod 600 "$pki"/*.key "$pki/tokens.csv"

  cat > "$DIR/kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters:
- name: test
  cluster:
    server: https://127.0.0.1:$api_port
    certificate-authority: $pki/ca.crt
users:
- name: admin
  user:
    token: $token
contexts:
- name: test
  context: {cluster: test, user: admin}
current-context: test
KC
  chmod 600 "$DIR/kubeconfig"

  log "starting etcd on 127.0.0.1:$etcd_port"
  start etcd etcd --name test --data-dir "$DIR/etcd" --listen-client-urls "http://127.0.0.1:$etcd_port" \
    --advertise-client-urls "http://127.0.0.1:$etcd_port" --listen-peer-urls "http://127.0.0.1:$etcd_peer" \
    --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" --initial-cluster "test=http://127.0.0.1:$etcd_peer" \
    --unsafe-no-fsync --logger zap --log-outputs stderr
  wait_for etcd 30 curl -fsS "http://127.0.0.1:$etcd_port/health"

  log "starting kube-apiserver on https://127.0.0.1:$api_port"
  start kube-apiserver "$CACHE/kube-apiserver" --etcd-servers "http://127.0.0.1:$etcd_port" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api_port" \
    --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" --client-ca-file "$pki/ca.crt" \
    --token-auth-file "$pki/tokens.csv" --authorization-mode RBAC \
    --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$pki/sa.pub" \
    --service-account-signing-key-file "$pki/sa.key" --service-cluster-ip-range 10.96.0.0/16 \
    --enable-priority-and-fairness=false --profiling=false --endpoint-reconciler-type none
  wait_for kube-apiserver 90 kubectl --kubeconfig "$DIR/kubeconfig" get --raw /readyz

  log "starting kube-controller-manager, kube-scheduler, kwok"
  start kube-controller-manager "$CACHE/kube-controller-manager" --kubeconfig "$DIR/kubeconfig" \
    --authentication-kubeconfig "$DIR/kubeconfig" --authorization-kubeconfig "$DIR/kubeconfig" \
    --bind-address 127.0.0.1 --secure-port 0 --leader-elect=false --use-service-account-credentials=false \
    --service-account-private-key-file "$pki/sa.key" --root-ca-file "$pki/ca.crt" \
    --controllers '*,-nodeipam,-nodelifecycle,-service,-route,-cloud-node-lifecycle,-persistentvolume-binder,-attachdetach'
  start kube-scheduler "$CACHE/kube-scheduler" --kubeconfig "$DIR/kubeconfig" \
    --authentication-kubeconfig "$DIR/kubeconfig" --authorization-kubeconfig "$DIR/kubeconfig" \
    --bind-address 127.0.0.1 --secure-port 0 --leader-elect=false
  # kwok also reads ~/.kwok/kwok.yaml whenever it exists; HOME=$DIR keeps a developer's kwok config (custom Stages)
  # out, so kwok runs its built-in node and pod stages (node Ready with heartbeats, pods Running and Ready).
  start kwok env HOME="$DIR" "$CACHE/kwok" --kubeconfig "$DIR/kubeconfig" --manage-all-nodes=false \
    --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake --server-address 127.0.0.1:0

  kubectl --kubeconfig "$DIR/kubeconfig" apply -f - >/dev/null <<NODE
apiVersion: v1
kind: Node
metadata:
  name: kwok-node-0
  annotations: {kwok.x-k8s.io/node: fake}
  labels: {kubernetes.io/hostname: kwok-node-0, type: kwok}
status:
  allocatable: {cpu: "32", memory: 128Gi, pods: "110"}
  capacity: {cpu: "32", memory: 128Gi, pods: "110"}
  nodeInfo: {kubeletVersion: fake, architecture: amd64, operatingSystem: linux}
NODE
  wait_for "node kwok-node-0 Ready" 60 sh -c \
    "kubectl --kubeconfig '$DIR/kubeconfig' get node kwok-node-0 -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -q True"
  # The API server taints a new node not-ready; the node lifecycle controller (off here: kwok keeps no leases) would
  # lift it once the node reports Ready, so lift it here.
  kubectl --kubeconfig "$DIR/kubeconfig" taint nodes kwok-node-0 node.kubernetes.io/not-ready:NoSchedule- >/dev/null 2>&1 || true
  wait_for "default service account" 60 kubectl --kubeconfig "$DIR/kubeconfig" get serviceaccount default -n default
  trap - EXIT INT TERM
  log "ready: KUBECONFIG=$DIR/kubeconfig"
}

istio() {
  local crds="$1" kc=(kubectl --kubeconfig "$DIR/kubeconfig")
  [ -f "$crds" ] || { log "no CRD file at $crds"; exit 1; }
  log "applying Istio's CRDs from $crds"
  "${kc[@]}" apply --server-side --force-conflicts -f "$crds" >/dev/null
  "${kc[@]}" wait --for condition=Established --timeout=60s crd --all >/dev/null
  # Stand-ins for Istio's egress and ingress gateways (no Istio runs here): what the orchestrator's checks look for
  # in egress cases gateway and mtls and in the latency study's gateway cells, and Deployments for it to wait on.
  # kwok never pulls the image.
  "${kc[@]}" apply --server-side -f - >/dev/null <<GW
apiVersion: v1
kind: Namespace
metadata:
  name: istio-system
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: istio-egressgateway
  namespace: istio-system
  labels: {app: istio-egressgateway, istio: egressgateway}
spec:
  replicas: 1
  selector:
    matchLabels: {app: istio-egressgateway, istio: egressgateway}
  template:
    metadata:
      labels: {app: istio-egressgateway, istio: egressgateway}
    spec:
      containers:
        - name: istio-proxy
          image: docker.io/istio/proxyv2:1.28.0
---
apiVersion: v1
kind: Service
metadata:
  name: istio-egressgateway
  namespace: istio-system
spec:
  selector: {istio: egressgateway}
  ports:
    - {name: http2, port: 80}
    - {name: https, port: 443}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: istio-ingressgateway
  namespace: istio-system
  labels: {app: istio-ingressgateway, istio: ingressgateway}
spec:
  replicas: 1
  selector:
    matchLabels: {app: istio-ingressgateway, istio: ingressgateway}
  template:
    metadata:
      labels: {app: istio-ingressgateway, istio: ingressgateway}
    spec:
      containers:
        - name: istio-proxy
          image: docker.io/istio/proxyv2:1.28.0
---
apiVersion: v1
kind: Service
metadata:
  name: istio-ingressgateway
  namespace: istio-system
  labels: {app: istio-ingressgateway, istio: ingressgateway}
spec:
  selector: {app: istio-ingressgateway, istio: ingressgateway}
  ports:
    - {name: http2, port: 80, targetPort: 8080}
    - {name: https, port: 443, targetPort: 8443}
GW
  "${kc[@]}" rollout status -n istio-system deployment/istio-egressgateway --timeout=60s >/dev/null
  "${kc[@]}" rollout status -n istio-system deployment/istio-ingressgateway --timeout=60s >/dev/null
  log "Istio's CRDs and stand-ins for its egress and ingress gateways are in place"
}

down() {
  [ -f "$DIR/pids" ] || { log "nothing started in $DIR"; return 0; }
  # Reverse start order: kwok and controllers first, etcd last.
  # Only a pid whose command line still names what was started there (a stale pids file must not hit a reused pid).
  local pid name p pids=()
  while read -r pid name; do
    ps -o args= -p "$pid" 2>/dev/null | grep -qF -- "$name" && pids+=("$pid $name")
  done < <(tac "$DIR/pids")
  for p in "${pids[@]}"; do
    read -r pid name <<<"$p"; kill "$pid" 2>/dev/null && log "stopped $name ($pid)" || true
  done
  local alive
  for _ in $(seq 1 20); do
    alive=0; for p in "${pids[@]}"; do kill -0 "${p%% *}" 2>/dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break; sleep 0.5
  done
  for p in "${pids[@]}"; do kill -9 "${p%% *}" 2>/dev/null && log "killed ${p#* } (${p%% *})" || true; done
  rm -rf "$DIR/pids" "$DIR/etcd" "$DIR/pki" "$DIR/kubeconfig" "$DIR/viewer-token"
}

cmd="${1:-}"; DIR="${2:-}"
case "$cmd" in
  build) build ;;
  up)   [ -n "$DIR" ] || { echo "usage: $0 up DIR" >&2; exit 2; }; up ;;
  istio) [ -n "$DIR" ] && [ -n "${3:-}" ] || { echo "usage: $0 istio DIR CRDS_FILE" >&2; exit 2; }; istio "$3" ;;
  down) [ -n "$DIR" ] || { echo "usage: $0 down DIR" >&2; exit 2; }; down ;;
  *) echo "usage: $0 build | up DIR | istio DIR CRDS_FILE | down DIR" >&2; exit 2 ;;
esac
