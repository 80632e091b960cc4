package dev.meshbench.charts.study;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The figures the two studies published, from the one data file {@value #RESOURCE} next to this class: the egress
 * study's throughput change per case, and the latency gist's table as published. The reports read them from here,
 * and a test holds the quotes in the READMEs and docs/ to them.
 *
 * @param about       what the file is (its {@code about} lines)
 * @param egress      the egress study's findings
 * @param latencyGist the latency gist's table
 */
public record PublishedFigures(List<String> about, EgressStudy egress, LatencyGist latencyGist) {
    /** The data file's name, next to this class. */
    public static final String RESOURCE = "published-figures.json";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    public PublishedFigures {
        about = List.copyOf(Objects.requireNonNull(about, "about"));
        Objects.requireNonNull(egress, "egress");
        Objects.requireNonNull(latencyGist, "latencyGist");
    }

    /** The figures shipped with charts. */
    public static PublishedFigures load() {
        try (InputStream in = PublishedFigures.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing next to "
                        + PublishedFigures.class.getName());
            }
            return parse(RESOURCE, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("reading resource " + RESOURCE + " failed", e);
        }
    }

    /** Parses the data file's bytes; {@code name} names it in error messages. */
    static PublishedFigures parse(String name, byte[] json) {
        try {
            return MAPPER.readValue(json, PublishedFigures.class);
        } catch (JacksonException e) {
            throw new IllegalStateException(name + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + name + " failed", e);
        } catch (RuntimeException e) {
            throw new IllegalStateException(name + ": " + e.getMessage(), e);
        }
    }

    /**
     * The egress study ("Egress Gateway Performance Investigation").
     *
     * @param title  what it is
     * @param source where it was published
     * @param method how its figures were measured, in a sentence
     * @param cases  one finding per case, in study order
     */
    public record EgressStudy(String title, String source, String method, List<CaseFinding> cases) {
        public EgressStudy {
            Objects.requireNonNull(title, "egress.title");
            Objects.requireNonNull(source, "egress.source");
            Objects.requireNonNull(method, "egress.method");
            cases = List.copyOf(Objects.requireNonNull(cases, "egress.cases"));
        }

        /** The finding for case {@code caseId}, if the study reported one. */
        public Optional<CaseFinding> finding(String caseId) {
            return cases.stream().filter(c -> c.caseId().equals(caseId)).findFirst();
        }

        /** The cases the study gave a throughput change other than 0 for, in study order. */
        public List<CaseFinding> throughputLosses() {
            return cases.stream().filter(c -> c.throughputChangePercent() != null
                    && c.throughputChangePercent().signum() != 0).toList();
        }
    }

    /**
     * One case's finding in the egress study.
     *
     * @param caseId                  meshbench's case id
     * @param throughputChangePercent the throughput change against bypass the study published, in percent, or
     *                                {@code null} when it published none (the case was "close" to bypass)
     * @param finding                 the finding in words
     */
    public record CaseFinding(String caseId, BigDecimal throughputChangePercent, String finding) {
        public CaseFinding {
            Objects.requireNonNull(caseId, "caseId");
            Objects.requireNonNull(finding, "finding");
        }
    }

    /**
     * The latency gist ("Istio Latency Analysis"), its table verbatim.
     *
     * @param title   what it is
     * @param source  where it was published
     * @param method  how its figures were measured
     * @param columns what the columns mean
     * @param rows    the table's rows in its order
     */
    public record LatencyGist(String title, String source, String method, String columns, List<GistRecord> rows) {
        public LatencyGist {
            Objects.requireNonNull(title, "latencyGist.title");
            Objects.requireNonNull(source, "latencyGist.source");
            Objects.requireNonNull(method, "latencyGist.method");
            Objects.requireNonNull(columns, "latencyGist.columns");
            rows = List.copyOf(Objects.requireNonNull(rows, "latencyGist.rows"));
        }
    }

    /**
     * One row of the gist's table as published (latencies in seconds, {@code No}/{@code Istio}).
     *
     * @param svc          the service graph, {@code single} or {@code double}
     * @param scale        replicas of every service
     * @param istioIngress {@code Istio} or {@code No}
     * @param istioSidecar {@code Istio} or {@code No}
     * @param p99Seconds   99th percentile at 75 % of MaxQPS, seconds
     * @param p50Seconds   50th percentile at 75 % of MaxQPS, seconds
     * @param maxQps       the maximum rate, requests/s
     */
    public record GistRecord(String svc, int scale, @JsonProperty("istio_ingress") String istioIngress,
            @JsonProperty("istio_sidecar") String istioSidecar, @JsonProperty("p99_s") BigDecimal p99Seconds,
            @JsonProperty("p50_s") BigDecimal p50Seconds, @JsonProperty("max_qps") BigDecimal maxQps) {
        public GistRecord {
            Objects.requireNonNull(svc, "svc");
            Objects.requireNonNull(istioIngress, "istio_ingress");
            Objects.requireNonNull(istioSidecar, "istio_sidecar");
            Objects.requireNonNull(p99Seconds, "p99_s");
            Objects.requireNonNull(p50Seconds, "p50_s");
            Objects.requireNonNull(maxQps, "max_qps");
        }
    }
}
