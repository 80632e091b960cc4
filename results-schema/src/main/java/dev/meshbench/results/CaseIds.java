package dev.meshbench.results;

import java.util.List;

/**
 * The ids of the study's egress cases, in the order the study presents them: the one place Java spells them.
 * The orchestrator's {@code EgressCase} describes each case (hops, TLS of each link, routing) and takes its id from
 * here; charts colour and order by them; the JMH benchmarks' {@code @Param}s name them through these constants.
 * The files that cannot read Java (the root pom's {@code case-<id>} profiles, {@code runs/<id>/}, {@code .ci/run},
 * the {@code Jenkinsfile}) are held to this list by the orchestrator's {@code CaseListConsistencyTest}.
 *
 * <p>Results may carry other ids (an older or a newer kit): readers accept them and sort them after these.
 */
public final class CaseIds {
    /** 1. The MongoDB connection bypasses the sidecar: the baseline of every comparison. */
    public static final String BYPASS = "bypass";
    /** 2. Through the sidecar. */
    public static final String SIDECAR = "sidecar";
    /** 3. Through the sidecar and the egress gateway (TLS passthrough, routed by SNI). */
    public static final String GATEWAY = "gateway";
    /** 4. As {@link #GATEWAY}, with mTLS between sidecar and egress gateway. */
    public static final String MTLS = "mtls";
    /** 5. As {@link #MTLS}, then an SNI proxy routing wildcard hosts. */
    public static final String SNI = "sni";

    /** Every case id, in study order. */
    public static final List<String> ALL = List.of(BYPASS, SIDECAR, GATEWAY, MTLS, SNI);

    private CaseIds() {
    }
}
