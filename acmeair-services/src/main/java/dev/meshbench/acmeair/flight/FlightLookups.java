package dev.meshbench.acmeair.flight;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.bson.Document;

/**
 * The flight service's reads, with or without the original Acmeair flight service's caches
 * ({@code USE_FLIGHT_DATA_RELATED_CACHING}, on by default there and here): the segment of an airport pair, the
 * flights of a segment on a day, and a segment's reward miles, each kept after its first MongoDB read for the life
 * of the process. Like the original's, the maps are unbounded: their size is bounded by the data loaded (at most
 * 870 segments and 870 flights a day here). Absent answers are cached too, so a pair without a route costs one
 * read, not one per query. Reloading the flights ({@link #clear()}) empties them.
 *
 * <p>With the cache off every lookup is one MongoDB command, which is what the kit did before it copied the
 * original's caching; users switch it with {@code meshbench.flightCache} to see what the cache saves.
 */
public final class FlightLookups {
    private final FlightRepository repo;
    private final boolean cached;
    private final Map<String, Optional<Document>> segmentsByPair = new ConcurrentHashMap<>();
    private final Map<String, List<Document>> flightsBySegmentAndDay = new ConcurrentHashMap<>();
    private final Map<String, Optional<Long>> milesBySegment = new ConcurrentHashMap<>();

    public FlightLookups(FlightRepository repo, boolean cached) {
        this.repo = repo;
        this.cached = cached;
    }

    /** The segment flying {@code from} to {@code to}, if there is one. */
    public Optional<Document> segment(String from, String to) {
        if (!cached) {
            return repo.segment(from, to);
        }
        return segmentsByPair.computeIfAbsent(from + "-" + to, k -> repo.segment(from, to));
    }

    /** The flights of a segment leaving at {@code departure} (an unmodifiable list). */
    public List<Document> flights(String segmentId, Instant departure) {
        if (!cached) {
            return repo.flights(segmentId, departure);
        }
        return flightsBySegmentAndDay.computeIfAbsent(segmentId + "@" + departure.toEpochMilli(),
                k -> List.copyOf(repo.flights(segmentId, departure)));
    }

    /** The miles a segment earns, if the segment exists. */
    public Optional<Long> rewardMiles(String segmentId) {
        if (!cached) {
            return milesOf(segmentId);
        }
        return milesBySegment.computeIfAbsent(segmentId, this::milesOf);
    }

    private Optional<Long> milesOf(String segmentId) {
        return repo.segmentById(segmentId).map(seg -> ((Number) seg.get("miles")).longValue());
    }

    /** Forgets everything cached (after the flights are reloaded). */
    public void clear() {
        segmentsByPair.clear();
        flightsBySegmentAndDay.clear();
        milesBySegment.clear();
    }
}
