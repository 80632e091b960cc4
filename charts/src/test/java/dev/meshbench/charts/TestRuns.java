package dev.meshbench.charts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * The committed sample results and small test helpers: on netty every case (bypass and sni three times each), on
 * envoy bypass once and sni twice, and one results.json of schema version 1 ({@code mtls-v1}, reported as netty
 * without sidecar mTLS and without the ingress). The others are of schema version 5 and say the load came through the
 * ingress gateway; they have no {@code ingress-gateway} component (they predate it: the component table's row is
 * checked on a run of {@code SampleRunGenerator} in {@code ComponentOrderTest}).
 */
final class TestRuns {
    static final Path RESULTS = Path.of("src/test/resources/results");
    static final Path GOLDEN = Path.of("src/test/resources/golden");

    private TestRuns() {
    }

    /** Copies the sample results into {@code dir} so a test can add broken runs beside them. */
    static Path copyTo(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(RESULTS)) {
            files.forEach(f -> {
                try {
                    Path target = dir.resolve(RESULTS.relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(f, target);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return dir;
    }

    /**
     * A report page with every run of white space as one space: the templates wrap their prose where they like, and a
     * test looks for a phrase, not for where its lines break.
     */
    static String page(Path html) throws IOException {
        return Files.readString(html).replaceAll("\\s+", " ");
    }

    /** Runs {@code body} with another default locale, restoring the previous one. */
    static <T> T withLocale(Locale locale, Callable<T> body) throws Exception {
        Locale before = Locale.getDefault();
        Locale.setDefault(locale);
        try {
            return body.call();
        } finally {
            Locale.setDefault(before);
        }
    }
}
