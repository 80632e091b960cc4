package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What switching a running namespace from one case's manifests to the next one's does, as {@code kubectl apply} of the
 * next case followed by deleting what only the current one has ({@code kubectl apply --prune}) would: the next case's
 * resources are all applied (unchanged ones are no-ops for the API server); the current case's resources the next
 * one lacks, by kind, namespace and name, are deleted, dependents first; and the pods that restart are those of the
 * Deployments whose pod template differs between the two (Kubernetes rolls out a Deployment exactly when its
 * template changes), plus the Deployments the next case adds.
 *
 * @param apply      the next case's resources, in its order
 * @param delete     the current case's resources the next case lacks, dependents first
 * @param restarted  Deployments in both whose pod template changes: their pods are replaced
 * @param added      Deployments only the next case has
 * @param removed    Deployments only the current case has: their pods go
 * @param kept       Deployments in both with the same pod template: their pods stay as they are
 */
record SwitchPlan(List<HasMetadata> apply, List<HasMetadata> delete, List<String> restarted, List<String> added, List<String> removed,
        List<String> kept) {
    private static final ObjectMapper JSON = new ObjectMapper();

    SwitchPlan {
        apply = List.copyOf(apply);
        delete = List.copyOf(delete);
        restarted = List.copyOf(restarted);
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        kept = List.copyOf(kept);
    }

    /** The plan from {@code current}'s resources to {@code next}'s. */
    static SwitchPlan between(List<HasMetadata> current, List<HasMetadata> next) {
        Map<String, HasMetadata> now = byKey(current);
        Map<String, HasMetadata> then = byKey(next);
        List<HasMetadata> delete = new ArrayList<>();
        List<String> restarted = new ArrayList<>();
        List<String> added = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        for (Map.Entry<String, HasMetadata> e : now.entrySet()) {
            if (!then.containsKey(e.getKey())) {
                delete.add(e.getValue());
                if (e.getValue() instanceof Deployment d) {
                    removed.add(d.getMetadata().getName());
                }
            }
        }
        for (Map.Entry<String, HasMetadata> e : then.entrySet()) {
            if (!(e.getValue() instanceof Deployment d)) {
                continue;
            }
            HasMetadata before = now.get(e.getKey());
            if (before == null) {
                added.add(d.getMetadata().getName());
            } else if (!template(before).equals(template(d))) {
                restarted.add(d.getMetadata().getName());
            } else {
                kept.add(d.getMetadata().getName());
            }
        }
        delete.sort(Comparator.comparingInt(SwitchPlan::deletionOrder));
        return new SwitchPlan(next, delete, restarted, added, removed, kept);
    }

    /** Whether the switch replaces or adds pods, so a rollout must be waited for. */
    boolean rollsOut() {
        return !restarted.isEmpty() || !added.isEmpty();
    }

    private static Map<String, HasMetadata> byKey(List<HasMetadata> resources) {
        Map<String, HasMetadata> out = new LinkedHashMap<>();
        for (HasMetadata r : resources) {
            out.put(r.getApiVersion().replaceAll("/.*", "") + "/" + r.getKind() + "/" + Objects.toString(r.getMetadata().getNamespace(), "")
                    + "/" + r.getMetadata().getName(), r);
        }
        return out;
    }

    private static JsonNode template(HasMetadata deployment) {
        return JSON.valueToTree(((Deployment) deployment).getSpec().getTemplate());
    }

    /** Dependents first, in {@link ClusterOps#KINDS}' order; kinds it does not name last. */
    private static int deletionOrder(HasMetadata r) {
        for (int i = 0; i < ClusterOps.KINDS.size(); i++) {
            if (ClusterOps.KINDS.get(i).isInstance(r)) {
                return i;
            }
        }
        return ClusterOps.KINDS.size();
    }
}
