package dev.meshbench.model;

import java.util.Arrays;
import java.util.List;

/**
 * The ids of the study's egress cases as constants, for code that needs a compile-time constant (a {@code case}
 * label, an annotation): {@link EgressCase} describes each case (hops, TLS of each link, routing) and takes its id
 * from here, and {@link #ALL} is read from {@link EgressCase}, so the list of cases is the enum. The files that cannot
 * read Java (the root pom's {@code case-<id>} profiles, {@code runs/<id>/}, {@code .ci/run}, the {@code Jenkinsfile})
 * are held to it by the orchestrator's {@code CaseListConsistencyTest}.
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

    /** Every case id, in study order ({@link EgressCase#values()}). */
    public static final List<String> ALL = Arrays.stream(EgressCase.values()).map(EgressCase::id).toList();

    private CaseIds() {
    }
}
