#!/usr/bin/env bash
# End-to-end test of the Kubernetes target on the real cluster `cluster.sh up` + `cluster.sh istio` made, in two parts:
#
#   e2e.sh STATE_DIR [--fresh|--switched] [CASE...]     (from the checkout's root, after setup.sh STATE_DIR)
#
# fresh (CASE..., default all five): each case deployed afresh and run through the kit's own command (meshbench.jar
# run), then the proxies' own counters prove the path. Per case: transactions with 0 errors and CPU for every component
# (results.json); every request of JMeter through Istio's ingress gateway (its Envoy's request counter against the
# JTL); MongoDB's bytes through the egress gateway in gateway, mtls and sni and not in bypass and sidecar (Envoy's
# per-cluster counters); in bypass, nothing of MongoDB's in the sidecar; the sidecar's own MongoDB cluster in sidecar;
# mTLS from sidecar to gateway with istiod-issued SPIFFE certificates in mtls and sni, plain TLS passed through in
# gateway; nginx's SNI routing in sni (its log). And in mtls, a pod without a sidecar is refused by the egress gateway.
#
# switched (always all five): the application deployed once in one namespace with bypass, then sidecar, gateway,
# mtls, sni and bypass again switched in underneath it by the kit's own switch (KubernetesDeployment.apply: the next
# case's resources applied, what only the current one has deleted, pods restarted only where the pod template changes,
# every proxy read until it has the next case's routes and nothing draining); after each switch MongoDB traffic through
# the entry and the same path checks from the proxies' counters (SwitchDrill, a test class run with meshbench.jar), and
# each switch's time printed.
#
# Both parts by default. Exits 1 if any check fails.
set -euo pipefail

STATE="$(cd "${1:?usage: e2e.sh STATE_DIR [--fresh|--switched] [CASE...]}" && pwd)"
shift
FRESH=1
SWITCHED=1
case "${1:-}" in
  --fresh) SWITCHED=0; shift ;;
  --switched) FRESH=0; shift ;;
esac
CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=(bypass sidecar gateway mtls sni)
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export KUBECONFIG="$STATE/kubeconfig"
NS=acmeair
MONGO_NAME=mongo.meshbench.test
WORK="$(mktemp -d)"
failures=0

log() { echo "e2e: $(date +%H:%M:%S) $*" >&2; }
check() { # description, command...: PASS or FAIL, never stops the script
  local what="$1"; shift
  if "$@"; then echo "e2e: PASS $what"; else echo "e2e: FAIL $what"; failures=$((failures + 1)); fi
}
cleanup() {
  kubectl delete namespace "$NS" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

stats() { # namespace, workload: Envoy's counters, "name: value" per line
  kubectl exec -n "$1" "$2" -c istio-proxy -- pilot-agent request GET stats 2>/dev/null
}
sum() { # regex over stat names: the sum of the matching counters
  awk -v re="$1" -F': ' '$1 ~ re && $2 ~ /^[0-9]+$/ {s += $2} END {print s + 0}'
}
positive() { [ "${1:-0}" -gt 0 ]; }
zero() { [ "${1:-0}" -eq 0 ]; }

[ -f "$STATE/services-image" ] || { log "no services' image in $STATE: setup.sh $STATE first"; exit 1; }
mapfile -t SETTINGS < <(bash "$HERE/cluster.sh" settings "$STATE")

run_case() { # case: the kit's own run, left deployed for the checks
  java -jar orchestrator/target/meshbench.jar run --case "$1" "${SETTINGS[@]}" \
    -Dmeshbench.method=fresh -Dmeshbench.load=closed -Dmeshbench.clients=2 -Dmeshbench.stepSeconds=40 -Dmeshbench.warmup=0 \
    -Dmeshbench.warmupSeconds=5 -Dmeshbench.maxErrorPercent=0 -Dmeshbench.keep=true \
    -Dmeshbench.resultsDir="$WORK/results"
}

for c in "${CASES[@]}"; do
  [ "$FRESH" -eq 1 ] || break
  log "case $c: the kit's run"
  # Istio's gateways outlive the cases: their counters are compared with what they were before this run.
  ingress_before=$(stats istio-system deploy/istio-ingressgateway | sum '^http\..*\.downstream_rq_total$')
  egress_before=$(stats istio-system deploy/istio-egressgateway)
  if ! run_case "$c" >"$WORK/$c.log" 2>&1; then
    echo "e2e: FAIL case $c: the run failed; its output ends:"; tail -n 15 "$WORK/$c.log" | sed "s/^/e2e:   /"; failures=$((failures + 1)); continue
  fi
  run_dir="$(ls -d "$WORK/results/"*-"$c" | sort | tail -1)"
  check "$c: transactions with 0 errors" python3 "$HERE/e2e_results.py" "$run_dir/results.json" tx
  check "$c: every component has CPU series from Prometheus" python3 "$HERE/e2e_results.py" "$run_dir/results.json" cpu

  samples=$(($(wc -l < "$run_dir/samples.jtl") - 1))
  ingress=$(( $(stats istio-system deploy/istio-ingressgateway | sum '^http\..*\.downstream_rq_total$') - ingress_before ))
  check "$c: all $samples JMeter samples through the ingress gateway ($ingress requests there during the run)" [ "$ingress" -ge "$samples" ]

  sidecar=$(stats "$NS" deploy/customer)
  egress=$(stats istio-system deploy/istio-egressgateway)
  mongo_re="^cluster\\.outbound\\|27017\\|\\|$MONGO_NAME;?\\.upstream_cx_tx_bytes_total$"
  mongo_at_egress=$(( $(echo "$egress" | sum "$mongo_re") - $(echo "$egress_before" | sum "$mongo_re") ))
  handshakes_at_egress=$(( $(echo "$egress" | sum '^listener\..*\.ssl\.handshake$') - $(echo "$egress_before" | sum '^listener\..*\.ssl\.handshake$') ))
  case "$c" in
    bypass)
      check "bypass: no MongoDB bytes at the egress gateway ($mongo_at_egress)" zero "$mongo_at_egress"
      check "bypass: the sidecar saw nothing of MongoDB (27017 and passthrough: $(echo "$sidecar" | sum '(27017|PassthroughCluster).*(cx_total|bytes_total)$'))" \
        zero "$(echo "$sidecar" | sum '(27017|PassthroughCluster).*(cx_total|bytes_total)$')" ;;
    sidecar)
      check "sidecar: no MongoDB bytes at the egress gateway ($mongo_at_egress)" zero "$mongo_at_egress"
      check "sidecar: MongoDB's bytes through the sidecar's own cluster for it" \
        positive "$(echo "$sidecar" | sum "^cluster\\.outbound\\|27017\\|\\|$MONGO_NAME;?\\.upstream_cx_tx_bytes_total$")" ;;
    gateway)
      check "gateway: MongoDB's bytes through the egress gateway ($mongo_at_egress)" positive "$mongo_at_egress"
      check "gateway: TLS passed through, not terminated, at the gateway ($handshakes_at_egress handshakes there)" \
        zero "$handshakes_at_egress" ;;
    mtls|sni)
      if [ "$c" = mtls ]; then
        gw_handshakes=$handshakes_at_egress; gw=(istio-system deploy/istio-egressgateway)
        check "mtls: MongoDB's bytes through the egress gateway ($mongo_at_egress)" positive "$mongo_at_egress"
      else
        gw_stats="$(stats "$NS" deploy/meshbench-egressgateway)"; gw=("$NS" deploy/meshbench-egressgateway)
        gw_handshakes=$(echo "$gw_stats" | sum '^listener\..*\.ssl\.handshake$')
        check "sni: MongoDB's bytes through the kit's egress gateway to the SNI proxy" \
          positive "$(echo "$gw_stats" | sum '^cluster\.outbound\|27017\|\|sni-proxy\.local;?\.upstream_cx_tx_bytes_total$')"
        check "sni: no MongoDB bytes at Istio's egress gateway ($mongo_at_egress)" zero "$mongo_at_egress"
      fi
      check "$c: mTLS handshakes from the sidecar to the egress gateway" \
        positive "$(echo "$sidecar" | sum '^cluster\.outbound\|443\|.*egressgateway.*\.ssl\.handshake$')"
      check "$c: mTLS handshakes at the egress gateway's listener ($gw_handshakes)" positive "$gw_handshakes"
      check "$c: the gateway's certificate is istiod's, a SPIFFE identity" \
        sh -c "kubectl exec -n ${gw[0]} ${gw[1]} -c istio-proxy -- pilot-agent request GET certs 2>/dev/null | grep -q '\"uri\": \"spiffe://cluster.local/ns/'" ;;
  esac
  if [ "$c" = mtls ]; then
    # A pod without a sidecar, speaking TLS to the egress gateway as the sidecar would (SNI of MongoDB's name) but
    # without the mesh's client certificate: the gateway must refuse it.
    # Created, waited for and read by its log: `kubectl run -i` may attach after a short command ended and lose its
    # output (seen here).
    tag="$(bash "$HERE/cluster.sh" tag)"
    kubectl run -n "$NS" e2e-no-sidecar --restart=Never --image "meshbench.local/proxyv2:$tag" \
      --overrides='{"metadata":{"annotations":{"sidecar.istio.io/inject":"false"}},"spec":{"containers":[{"name":"e2e-no-sidecar","image":"meshbench.local/proxyv2:'"$tag"'","imagePullPolicy":"Never","command":["sh","-c","(sleep 3; echo) | openssl s_client -connect istio-egressgateway.istio-system:443 -servername '"$MONGO_NAME"' 2>&1; echo exit=$?"]}]}}' >/dev/null
    kubectl wait -n "$NS" pod/e2e-no-sidecar --for=jsonpath='{.status.phase}'=Succeeded --timeout=90s >/dev/null || true
    out=$(kubectl logs -n "$NS" e2e-no-sidecar 2>&1 || true)
    kubectl delete -n "$NS" pod e2e-no-sidecar --wait=false >/dev/null 2>&1 || true
    echo "$out" | grep -iE "alert|errno|exit=|handshake" | head -5 | sed 's/^/e2e:   /'
    # TLS 1.3: the gateway asks for the mesh's client certificate and, given none, answers the client's Finished with
    # alert 116. The client has finished its side by then, so it must still be reading (stdin held open for 3 s): with
    # stdin closed at once it may exit 0 before the alert arrives (seen in CI).
    check "mtls: a pod without a sidecar is refused by the egress gateway (alert: certificate required)" \
      sh -c "echo \"\$1\" | grep -q 'alert certificate required' && echo \"\$1\" | grep -q 'exit=1'" _ "$out"
  fi
  if [ "$c" = sni ]; then
    # The MongoDB connections are pooled; nginx logs each when it closes, so stop the services first.
    kubectl scale -n "$NS" deployment auth customer flight booking --replicas=0 >/dev/null
    kubectl wait -n "$NS" --for=delete pod -l 'app in (auth,customer,flight,booking)' --timeout=60s >/dev/null || true
    check "sni: nginx routed by the ClientHello's server name to $MONGO_NAME:27017" \
      sh -c "kubectl logs -n $NS deploy/meshbench-egressgateway -c sni-proxy | grep -q -- '-> $MONGO_NAME:27017 [1-9]'"
  fi
  kubectl delete namespace "$NS" --wait=true --timeout=120s >/dev/null
done

if [ "$SWITCHED" -eq 1 ]; then
  log "switched: the application deployed once in namespace $NS, every case switched in underneath it"
  classes=orchestrator/target/test-classes
  if [ ! -f "$classes/dev/meshbench/orchestrator/kubernetes/SwitchDrill.class" ]; then
    echo "e2e: FAIL switched: no $classes (build with setup.sh, or mvn -pl orchestrator -am package -DskipTests)"; failures=$((failures + 1))
  else
    # The drill prints e2e: PASS / FAIL lines of its own; it exits non-zero when a switch or a check failed.
    set +e
    java -cp "orchestrator/target/meshbench.jar:$classes" dev.meshbench.orchestrator.kubernetes.SwitchDrill "$STATE" \
      "$(cat "$STATE/services-image")" 20 2>"$WORK/switched.err" | tee "$WORK/switched.log"
    drill=${PIPESTATUS[0]}
    set -e
    drill_failures=$(grep -c '^e2e: FAIL' "$WORK/switched.log" || true)
    failures=$((failures + drill_failures))
    if [ "$drill" -ne 0 ] && [ "$drill_failures" -eq 0 ]; then
      echo "e2e: FAIL switched: the drill exited with $drill; its errors end:"; tail -n 15 "$WORK/switched.err" | sed "s/^/e2e:   /"
      failures=$((failures + 1))
    fi
  fi
fi

if [ "$failures" -gt 0 ]; then echo "e2e: $failures check(s) failed"; exit 1; fi
echo "e2e: all checks passed ($([ "$FRESH" -eq 1 ] && echo "fresh: ${CASES[*]}")$([ "$FRESH" -eq 1 ] && [ "$SWITCHED" -eq 1 ] && echo "; ")$([ "$SWITCHED" -eq 1 ] && echo "switched: all five in one namespace"))"
