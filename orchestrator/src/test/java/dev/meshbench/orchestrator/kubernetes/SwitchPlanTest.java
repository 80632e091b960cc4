package dev.meshbench.orchestrator.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.results.WorkloadInfo;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What a switch between two cases' real manifests (istio-config rendered by kubectl kustomize) deletes, applies, restarts. */
class SwitchPlanTest {
    private static final Map<EgressCase, List<HasMetadata>> CASES = new EnumMap<>(EgressCase.class);
    private static final List<String> SERVICES = List.of("auth", "booking", "customer", "flight");

    @BeforeAll
    static void render() {
        KubernetesSettings s = KubernetesFixtures.settings(Duration.ofSeconds(2));
        Map<String, String> jwt = Map.of("private.pem", "p", "public.pem", "q");
        for (EgressCase c : EgressCase.values()) {
            CASES.put(c, CaseManifests.typed(CaseManifests.render(c, s, WorkloadInfo.ORIGINAL, jwt), new KubernetesSerialization()));
        }
    }

    private static List<String> names(List<HasMetadata> resources) {
        return resources.stream().map(CaseManifests::describe).toList();
    }

    private static List<String> sorted(List<String> names) {
        return names.stream().sorted().toList();
    }

    @Test
    @DisplayName("bypass to sidecar restarts the four services (their pod template loses the excluded CIDR) and deletes nothing")
    void bypassToSidecarRestartsTheServices() {
        SwitchPlan p = SwitchPlan.between(CASES.get(EgressCase.BYPASS), CASES.get(EgressCase.SIDECAR));
        assertEquals(SERVICES, sorted(p.restarted()));
        assertEquals(List.of(), p.kept());
        assertEquals(List.of(), p.delete());
        assertEquals(CASES.get(EgressCase.SIDECAR), p.apply());
        assertTrue(p.rollsOut());
    }

    @Test
    @DisplayName("sidecar to gateway keeps every pod: the ServiceEntry changes in place, the Gateway, DestinationRule and VirtualService are added")
    void sidecarToGatewayKeepsThePods() {
        SwitchPlan p = SwitchPlan.between(CASES.get(EgressCase.SIDECAR), CASES.get(EgressCase.GATEWAY));
        assertEquals(List.of(), p.restarted());
        assertEquals(SERVICES, sorted(p.kept()));
        assertEquals(List.of(), p.delete(), "ServiceEntry mongo is in both: applied over, not deleted and made again");
        assertFalse(p.rollsOut());
    }

    @Test
    @DisplayName("gateway to mtls changes Istio resources only, in place")
    void gatewayToMtlsChangesInPlace() {
        SwitchPlan p = SwitchPlan.between(CASES.get(EgressCase.GATEWAY), CASES.get(EgressCase.MTLS));
        assertEquals(List.of(), p.delete());
        assertEquals(List.of(), p.restarted());
        assertEquals(List.of(), p.added());
    }

    @Test
    @DisplayName("mtls to sni adds the kit's egress gateway and deletes what only mtls has: its Gateway, VirtualService and ServiceEntry")
    void mtlsToSniAddsTheKitsGateway() {
        SwitchPlan p = SwitchPlan.between(CASES.get(EgressCase.MTLS), CASES.get(EgressCase.SNI));
        assertEquals(List.of("meshbench-egressgateway"), p.added());
        assertEquals(List.of(), p.restarted());
        assertEquals(List.of("VirtualService meshbench-test/mongo-through-egress-gateway", "Gateway meshbench-test/istio-egressgateway",
                "ServiceEntry meshbench-test/mongo"), names(p.delete()), "dependents first");
        assertTrue(p.rollsOut());
    }

    @Test
    @DisplayName("sni to bypass restarts the services and deletes everything sni added, the kit's gateway Deployment among it")
    void sniToBypassDeletesTheKitsGateway() {
        SwitchPlan p = SwitchPlan.between(CASES.get(EgressCase.SNI), CASES.get(EgressCase.BYPASS));
        assertEquals(SERVICES, sorted(p.restarted()));
        assertEquals(List.of("meshbench-egressgateway"), p.removed());
        List<String> deleted = names(p.delete());
        assertEquals(CASES.get(EgressCase.SNI).stream().filter(r -> "sni".equals(r.getMetadata().getLabels().get(CaseManifests.CASE_LABEL)))
                .count(), deleted.size(), deleted.toString());
        assertTrue(deleted.indexOf("VirtualService meshbench-test/mongo-through-sni-proxy") < deleted.indexOf("Deployment meshbench-test/meshbench-egressgateway"));
        assertTrue(deleted.indexOf("Deployment meshbench-test/meshbench-egressgateway") < deleted.indexOf("ConfigMap meshbench-test/meshbench-sni-proxy"));
        assertFalse(deleted.stream().anyMatch(n -> n.contains("meshbench-jwt") || n.contains("acmeair-ingress")), "base stays");
    }

    @Test
    @DisplayName("a switch to the same case changes nothing")
    void sameCaseChangesNothing() {
        SwitchPlan p = SwitchPlan.between(CASES.get(EgressCase.MTLS), CASES.get(EgressCase.MTLS));
        assertEquals(List.of(), p.delete());
        assertEquals(List.of(), p.restarted());
        assertFalse(p.rollsOut());
    }
}
