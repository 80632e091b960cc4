package dev.meshbench.results.io;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.WorkloadInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes {@code run.json} and {@code results.json}. Output is byte-for-byte stable: fixed field order,
 * two-space indentation, {@code \n} line ends, numbers in JSON's own (locale-free) notation, and always of schema
 * version {@link ResultsSchema#VERSION}. Reading is strict: an unknown schema version, a field unknown to the
 * file's version, a missing field, or an invalid value is a {@link ResultsFormatException} naming the file, the
 * field and the problem. Files of an older readable version ({@link ResultsSchema#READABLE_VERSIONS}) are upgraded
 * as they are read: a version 1 file (no {@code dataPlane}) gets {@link DataPlaneInfo#unknownNetty()}, a file
 * before version 3 (no {@code workload}) {@link WorkloadInfo#FIRST_VERSION}, a file before version 4 no
 * {@code cluster}, a file before version 5 a data plane without the ingress gateway ({@code ingress} false).
 */
public final class ResultsJson {
    private static final Pattern MISSING = Pattern.compile("Missing required creator property '([^']+)'");

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .build();

    private static final ObjectWriter WRITER;

    static {
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withObjectIndenter(indenter)
                .withArrayIndenter(indenter);
        WRITER = MAPPER.writer(printer);
    }

    private ResultsJson() {
    }

    /** Reads a run's {@code run.json}. */
    public static RunInputs readRunInputs(Path file) throws ResultsFormatException {
        return read(file, RunInputs.class);
    }

    /** Reads a run's {@code results.json}. */
    public static RunResults readResults(Path file) throws ResultsFormatException {
        return read(file, RunResults.class);
    }

    /** Reads a latency cell's {@code latency.json}. */
    public static LatencyCellResults readLatency(Path file) throws ResultsFormatException {
        return read(file, LatencyCellResults.class);
    }

    /** Writes {@code run.json} atomically (readers never see half a file), so it can be rewritten after every step. */
    public static void writeRunInputs(Path file, RunInputs inputs) throws IOException {
        write(file, inputs);
    }

    /** Writes {@code results.json} atomically. */
    public static void writeResults(Path file, RunResults results) throws IOException {
        write(file, results);
    }

    /** The exact text {@link #writeResults} or {@link #writeRunInputs} writes for {@code value}. */
    public static String toJson(Object value) {
        try {
            return WRITER.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("serializing " + value.getClass().getSimpleName() + " failed", e);
        }
    }

    /** Parses {@code json} as {@code type}; {@code origin} names the source in error messages. */
    public static <T> T fromJson(Path origin, String json, Class<T> type) throws ResultsFormatException {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ResultsFormatException(origin, describeSyntax(e), e);
        }
        if (root == null || root.isMissingNode()) {
            throw new ResultsFormatException(origin, "file is empty");
        }
        if (!root.isObject()) {
            throw new ResultsFormatException(origin, "expected a JSON object, found " + root.getNodeType()
                    .toString().toLowerCase(java.util.Locale.ROOT));
        }
        JsonNode version = root.get("schemaVersion");
        if (version == null || version.isNull()) {
            throw new ResultsFormatException(origin, "missing field 'schemaVersion' (this build reads schema "
                    + readable() + ")");
        }
        if (!version.isTextual() || !ResultsSchema.READABLE_VERSIONS.contains(version.asText())) {
            throw new ResultsFormatException(origin, "unknown schemaVersion " + version + " (this build reads schema "
                    + readable() + "; convert the run again or use a matching kit)");
        }
        String fileVersion = version.asText();
        if (!fileVersion.equals(ResultsSchema.VERSION)) {
            upgrade(origin, (ObjectNode) root, type, fileVersion);
        }
        try {
            return MAPPER.treeToValue(root, type);
        } catch (JsonProcessingException e) {
            throw new ResultsFormatException(origin, describeBinding(e, fileVersion), e);
        } catch (IllegalArgumentException e) {
            throw new ResultsFormatException(origin, e.getMessage(), e);
        }
    }

    /**
     * Turns a tree of an older readable version into one of {@link ResultsSchema#VERSION}: the schema versions (of
     * the file and, in a results file, of its inputs) become the current one, and the run's inputs get what every
     * run before each later version had:
     * <ul>
     * <li>before version 2, {@code dataPlane} becomes {@link DataPlaneInfo#unknownNetty()}: every run ran on the
     * Netty relays;</li>
     * <li>before version 3, {@code workload} becomes {@link WorkloadInfo#FIRST_VERSION}: every run ran the kit's first
     * workload (round trips, no flight cache, rewards before the answer); steps have no {@code work}, which later
     * versions allow;</li>
     * <li>before version 4, {@code cluster} stays absent, which reads as {@code null}: no cluster was recorded;</li>
     * <li>before version 5, a recorded {@code dataPlane} gets {@code ingress} {@code false}: the load went straight
     * to the sidecars (a {@code null} one stays {@code null}). A latency cell's document
     * ({@link dev.meshbench.results.LatencyCellResults}) recorded whether its cell had an ingress gateway in its own
     * {@code ingress}; its data plane gets that value.</li>
     * <li>before version 6, steps have no {@code labels} (figures per request type), which reads as none.</li>
     * </ul>
     * A field of a later version in an older file is an error, and so is a results file whose inputs say another
     * version than the file.
     */
    private static void upgrade(Path origin, ObjectNode root, Class<?> type, String fileVersion)
            throws ResultsFormatException {
        int from = Integer.parseInt(fileVersion);
        root.put("schemaVersion", ResultsSchema.VERSION);
        if (type == LatencyCellResults.class) {
            upgradeLatencyCell(origin, root, fileVersion);
            return;
        }
        InputsNode located = inputsOf(root, type);
        if (located == null) {
            return; // nothing else to upgrade; binding reports a missing or malformed 'inputs'
        }
        ObjectNode inputs = located.node();
        String prefix = located.prefix();
        if (from < 2) {
            refuseLater(origin, inputs.has("dataPlane"), prefix + "dataPlane", fileVersion, "a dataPlane", "2");
        }
        if (from < 3) {
            refuseLater(origin, inputs.has("workload"), prefix + "workload", fileVersion, "a workload", "3");
            if (type == RunResults.class && root.get("steps") instanceof ArrayNode steps) {
                for (JsonNode step : steps) {
                    refuseLater(origin, step.has("work"), "steps[].work", fileVersion, "work per transaction", "3");
                }
            }
        }
        if (from < 4) {
            refuseLater(origin, inputs.has("cluster"), prefix + "cluster", fileVersion, "a cluster", "4");
        }
        if (from < 6 && type == RunResults.class && root.get("steps") instanceof ArrayNode steps) {
            for (JsonNode step : steps) {
                refuseLater(origin, step.has("labels"), "steps[].labels", fileVersion, "figures per request type", "6");
            }
        }
        if (from < 5 && inputs.get("dataPlane") instanceof ObjectNode plane) {
            refuseLater(origin, plane.has("ingress"), prefix + "dataPlane.ingress", fileVersion, "an ingress", "5");
            plane.put("ingress", false);
        }
        if (inputs != root) {
            JsonNode nestedVersion = inputs.get("schemaVersion");
            if (nestedVersion != null && nestedVersion.isTextual()) {
                if (!nestedVersion.asText().equals(fileVersion)) {
                    throw new ResultsFormatException(origin, prefix + "schemaVersion " + nestedVersion + " differs "
                            + "from the file's schemaVersion \"" + fileVersion + "\"");
                }
                inputs.put("schemaVersion", ResultsSchema.VERSION);
            }
        }
        if (from < 2) {
            inputs.set("dataPlane", MAPPER.valueToTree(DataPlaneInfo.unknownNetty()));
        }
        if (from < 3) {
            inputs.set("workload", MAPPER.valueToTree(WorkloadInfo.FIRST_VERSION));
        }
    }

    /** A latency cell's document before version 5: its data plane gets the cell's own {@code ingress}. */
    private static void upgradeLatencyCell(Path origin, ObjectNode root, String fileVersion)
            throws ResultsFormatException {
        if (root.get("dataPlane") instanceof ObjectNode plane) {
            refuseLater(origin, plane.has("ingress"), "dataPlane.ingress", fileVersion, "an ingress", "5");
            JsonNode cellIngress = root.get("ingress");
            if (cellIngress != null && cellIngress.isBoolean()) {
                plane.put("ingress", cellIngress.booleanValue());
            } // else binding reports the cell's missing or malformed 'ingress'
        }
    }

    private static void refuseLater(Path origin, boolean present, String field, String fileVersion, String what,
            String since) throws ResultsFormatException {
        if (present) {
            throw new ResultsFormatException(origin, "unknown field '" + field + "' (not part of schema version "
                    + fileVersion + "; a file with " + what + " must say schemaVersion \"" + since + "\")");
        }
    }

    /** The run's inputs in a tree being read as {@code type}, and their path prefix; {@code null} if it has none. */
    private record InputsNode(ObjectNode node, String prefix) {
    }

    private static InputsNode inputsOf(ObjectNode root, Class<?> type) {
        if (type == RunInputs.class) {
            return new InputsNode(root, "");
        }
        if (type == RunResults.class && root.get("inputs") instanceof ObjectNode nested) {
            return new InputsNode(nested, "inputs.");
        }
        return null;
    }

    private static String readable() {
        List<String> v = ResultsSchema.READABLE_VERSIONS.stream().map(x -> "\"" + x + "\"").toList();
        if (v.size() == 1) {
            return "version " + v.get(0);
        }
        return "versions " + String.join(", ", v.subList(0, v.size() - 1)) + " and " + v.get(v.size() - 1);
    }

    private static <T> T read(Path file, Class<T> type) throws ResultsFormatException {
        String json;
        try {
            json = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ResultsFormatException(file, "file not found", e);
        } catch (IOException e) {
            throw new ResultsFormatException(file, "cannot be read: " + e.getMessage(), e);
        }
        return fromJson(file, json, type);
    }

    /**
     * Writes any value the way {@link #writeResults} writes results: atomically, with the text of {@link #toJson}
     * (used for {@code smp.json}).
     */
    public static void writeJson(Path file, Object value) throws IOException {
        write(file, value);
    }

    private static void write(Path file, Object value) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, toJson(value), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String describeSyntax(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        // the parser says JsonEOFException inside a value, and only a message between an object's entries
        String original = e.getOriginalMessage();
        if (e instanceof JsonEOFException || original != null && original.startsWith("Unexpected end-of-input")) {
            return "truncated JSON: input ends" + where + " inside an unfinished value";
        }
        return "malformed JSON" + where + ": " + firstLine(e.getOriginalMessage());
    }

    private static String describeBinding(JsonProcessingException e, String fileVersion) {
        String path = e instanceof DatabindException d ? path(((JsonMappingException) d).getPath()) : "";
        if (e instanceof UnrecognizedPropertyException) {
            return "unknown field '" + path + "' (not part of schema version " + fileVersion + ")";
        }
        String original = firstLine(e.getOriginalMessage());
        Matcher missing = MISSING.matcher(original);
        if (missing.find()) {
            String name = missing.group(1);
            String full = path.equals(name) || path.endsWith("." + name) ? path
                    : (path.isEmpty() ? "" : path + ".") + name;
            return "missing field '" + full + "'";
        }
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof IllegalArgumentException && c.getMessage() != null) {
                return (path.isEmpty() ? "" : "in '" + path + "': ") + firstLine(c.getMessage());
            }
        }
        return (path.isEmpty() ? "" : "field '" + path + "': ") + original;
    }

    private static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : refs) {
            if (r.getFieldName() != null) {
                if (b.length() > 0) {
                    b.append('.');
                }
                b.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.toString();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
