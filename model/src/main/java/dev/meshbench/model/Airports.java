package dev.meshbench.model;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The airports of the Acmeair workload and the lists that order them, read from the one data file
 * {@code dev/meshbench/model/airports.tsv}: the kit's 30-airport network (which the services load and the JMeter plan
 * draws from), the original Acmeair flight network, and the original driver's two airport lists. The services and the
 * JMeter plugin (which shades this class and the file into its jar) both read them here. Each list keeps its order:
 * seeded random draws and the original driver's cursors depend on it.
 */
public final class Airports {
    /** The data file, beside this class. */
    static final String RESOURCE = "airports.tsv";
    private static final List<String> COLUMNS = List.of("code", "city", "latitude", "longitude", "kit", "original",
            "originalOrigin", "driverFrom", "driverTo");

    /** One airport: IATA code, city, position in degrees (rounded to 0.01). */
    public record Airport(String code, String city, double latitude, double longitude) {
    }

    private record Row(Airport airport, int kit, int original, int originalOrigin, int driverFrom, int driverTo) {
    }

    private static final List<Row> ROWS = read();

    private Airports() {
    }

    /** The kit's network of 30 airports, in its order (the first {@link #KIT_HUBS} are its hubs). */
    public static List<Airport> kit() {
        return list(Row::kit);
    }

    /** How many of {@link #kit()}'s first airports are hubs. */
    public static final int KIT_HUBS = 8;

    /**
     * The original Acmeair flight network's 15 airports: the 14 columns of its {@code mileage.csv} (the network's
     * destinations) first, then Amsterdam.
     */
    public static List<Airport> original() {
        return list(Row::original);
    }

    /** How many of {@link #original()}'s first airports are destinations ({@code mileage.csv}'s columns). */
    public static final int ORIGINAL_DESTINATIONS = 14;

    /** The original network's origins: the rows of {@code mileage.csv}, in order. */
    public static List<Airport> originalOrigins() {
        return list(Row::originalOrigin);
    }

    /** The original driver's origins, in the order of its {@code Airports2.csv}. */
    public static List<Airport> driverFrom() {
        return list(Row::driverFrom);
    }

    /** The original driver's destinations, in the order of its {@code Airports.csv}. */
    public static List<Airport> driverTo() {
        return list(Row::driverTo);
    }

    /** The codes of {@code airports}, in order. */
    public static List<String> codes(List<Airport> airports) {
        return airports.stream().map(Airport::code).toList();
    }

    private static List<Airport> list(Function<Row, Integer> rank) {
        Map<Integer, Airport> byRank = new TreeMap<>();
        for (Row r : ROWS) {
            int n = rank.apply(r);
            if (n > 0 && byRank.put(n, r.airport()) != null) {
                throw new IllegalStateException(RESOURCE + ": two airports share place " + n + " of a list");
            }
        }
        List<Airport> out = new ArrayList<>(byRank.values());
        if (!byRank.isEmpty() && byRank.keySet().stream().max(Comparator.naturalOrder()).orElseThrow() != out.size()) {
            throw new IllegalStateException(RESOURCE + ": a list's places are not 1.." + out.size() + ": " + byRank.keySet());
        }
        return List.copyOf(out);
    }

    private static List<Row> read() {
        try (InputStream in = Airports.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("no " + RESOURCE + " beside " + Airports.class.getName() + " on the class path");
            }
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList());
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + RESOURCE, e);
        }
    }

    static List<Row> parse(List<String> lines) {
        List<Row> rows = new ArrayList<>();
        boolean header = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            List<String> f = List.of(line.split("\t", -1));
            String where = RESOURCE + " line " + (i + 1);
            if (!header) {
                if (!f.equals(COLUMNS)) {
                    throw new IllegalStateException(where + ": the header must be " + String.join(" ", COLUMNS) + ", got " + line);
                }
                header = true;
                continue;
            }
            if (f.size() != COLUMNS.size() || !f.get(0).matches("[A-Z]{3}")) {
                throw new IllegalStateException(where + ": want " + COLUMNS.size() + " tab-separated fields starting with a "
                        + "3-letter code, got " + line);
            }
            try {
                rows.add(new Row(new Airport(f.get(0), f.get(1), Double.parseDouble(f.get(2)), Double.parseDouble(f.get(3))),
                        rank(f.get(4)), rank(f.get(5)), rank(f.get(6)), rank(f.get(7)), rank(f.get(8))));
            } catch (NumberFormatException e) {
                throw new IllegalStateException(where + ": " + e.getMessage() + " in " + line, e);
            }
        }
        return rows;
    }

    private static int rank(String field) {
        return field.equals("-") ? 0 : Integer.parseInt(field);
    }
}
