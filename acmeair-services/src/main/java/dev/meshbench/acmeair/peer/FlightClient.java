package dev.meshbench.acmeair.peer;

import java.util.Map;

/** What booking asks of the flight service. */
public final class FlightClient {
    private final PeerClient peer;

    public FlightClient(PeerClient peer) {
        this.peer = peer;
    }

    /** {@code POST /flight/getrewardmiles}: the miles a flight segment earns; 404 when the segment is unknown. */
    public long rewardMiles(String flightSegmentId) {
        return peer.postForm("/flight/getrewardmiles", "/flight/getrewardmiles", Map.of("flightSegment", flightSegmentId))
                .path("miles").asLong();
    }
}
