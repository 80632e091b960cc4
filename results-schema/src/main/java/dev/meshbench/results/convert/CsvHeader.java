package dev.meshbench.results.convert;

import dev.meshbench.results.io.ResultsFormatException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Column positions of a CSV file, looked up by header name so column order does not matter. */
final class CsvHeader {
    private final Path file;
    private final List<String> names;
    private final Map<String, Integer> index = new HashMap<>();

    CsvHeader(Path file, List<String> names) throws ResultsFormatException {
        this.file = file;
        this.names = List.copyOf(names);
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i).strip();
            if (i == 0 && name.startsWith("\uFEFF")) {
                name = name.substring(1);
            }
            if (index.putIfAbsent(name, i) != null) {
                throw new ResultsFormatException(file, "column '" + name + "' appears twice in the header");
            }
        }
    }

    /** Position of a column the file must have. */
    int require(String name) throws ResultsFormatException {
        Integer i = index.get(name);
        if (i == null) {
            throw new ResultsFormatException(file, "missing column '" + name + "' in the header (found: "
                    + String.join(",", names) + ")");
        }
        return i;
    }

    /** Position of an optional column, or -1. */
    int optional(String name) {
        return index.getOrDefault(name, -1);
    }

    int size() {
        return names.size();
    }
}
