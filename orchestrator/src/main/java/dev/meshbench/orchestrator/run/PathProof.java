package dev.meshbench.orchestrator.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.HopKind;
import dev.meshbench.model.ListenerNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether the MongoDB path a run measured was its case's, from the mesh's own per-listener counters at the start and
 * the end of its window ({@code hops-start.json}, {@code hops.json}; the same shape for the Netty relays, Envoy and
 * nginx): every mesh hop of the case's path carried MongoDB's bytes in the window (the sidecars' {@code mongo} listeners
 * together, the egress gateway's, the SNI proxy's; nginx, which counts a session's bytes when it closes, by its open
 * sessions behind an egress gateway whose bytes grew), and no mesh hop off it did. A switched case must prove it: a
 * proxy left with the previous case's routes shows up here even if it claimed the new configuration.
 */
public final class PathProof {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PathProof() {
    }

    /** What the counters contradict of {@code c}'s MongoDB path, each said for a person; empty when they prove it. */
    public static List<String> gaps(EgressCase c, Map<String, String> start, Map<String, String> end) {
        List<String> gaps = new ArrayList<>();
        // A proxy that could not be read proves nothing either way: its silence must not count as no bytes.
        for (Map.Entry<String, Map<String, String>> edge : List.of(Map.entry("start", start), Map.entry("end", end))) {
            edge.getValue().forEach((component, stats) -> unread(stats).ifPresent(why -> gaps.add("the counters of " + component
                    + " could not be read at the window's " + edge.getKey() + ", so its part of the path is unproven: " + why)));
        }
        for (HopKind hop : List.of(HopKind.SIDECAR, HopKind.EGRESS_GATEWAY, HopKind.SNI_PROXY)) {
            String listener = ListenerNames.onMongoPath(hop);
            double bytes = 0;
            List<String> where = new ArrayList<>();
            for (String component : end.keySet()) {
                if (hop == HopKind.SIDECAR ? ComponentNames.isSidecar(component) : component.equals(ComponentNames.ofHop(hop))) {
                    bytes += bytes(end.get(component), listener) - bytes(start.get(component), listener);
                    where.add(component + "/" + listener);
                }
            }
            // nginx counts a session's bytes when it closes: a pooled MongoDB connection through it shows as an open session
            // while the egress gateway in front of it, whose only route in this case leads there, carries the bytes.
            boolean openThroughIt = hop == HopKind.SNI_PROXY && active(end.get(ComponentNames.SNI_PROXY), listener) > 0
                    && bytes(end.get(ComponentNames.EGRESS_GATEWAY), ListenerNames.EGRESS)
                            - bytes(start.get(ComponentNames.EGRESS_GATEWAY), ListenerNames.EGRESS) > 0;
            if (c.passes(hop) && !(bytes > 0) && !openThroughIt) {
                gaps.add("the MongoDB path of " + c.id() + " passes the " + hop.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                        + ", but " + (where.isEmpty() ? "no such component ran" : String.join(", ", where) + " carried no bytes")
                        + " in the window");
            } else if (!c.passes(hop) && bytes > 0) {
                gaps.add(String.format(java.util.Locale.ROOT, "the MongoDB path of %s does not pass the %s, but %s carried %.0f bytes in the window",
                        c.id(), hop.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), String.join(", ", where), bytes));
            }
        }
        return gaps;
    }

    /** Why a component's counters could not be read ({@code unread}, where the target keeps a proxy it could not ask); empty when they were. */
    static java.util.Optional<String> unread(String stats) {
        if (stats == null) {
            return java.util.Optional.empty();
        }
        try {
            JsonNode why = JSON.readTree(stats).path("unread");
            return why.isTextual() ? java.util.Optional.of(why.asText()) : java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }

    /** The connections open through {@code listener} in one component's counters; 0 where it has none. */
    static double active(String stats, String listener) {
        if (stats == null) {
            return 0;
        }
        try {
            return JSON.readTree(stats).path("listeners").path(listener).path("active").asDouble();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Both directions' bytes of {@code listener} in one component's counters; 0 where it has none. */
    static double bytes(String stats, String listener) {
        if (stats == null) {
            return 0;
        }
        try {
            JsonNode l = JSON.readTree(stats).path("listeners").path(listener);
            return l.path("bytesClientToUpstream").asDouble() + l.path("bytesUpstreamToClient").asDouble();
        } catch (IOException e) {
            return 0;
        }
    }
}
