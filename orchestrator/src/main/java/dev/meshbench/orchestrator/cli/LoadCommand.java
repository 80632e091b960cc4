package dev.meshbench.orchestrator.cli;

import dev.meshbench.orchestrator.latency.load.LoadGenerator;
import dev.meshbench.orchestrator.latency.load.LoadResult;
import dev.meshbench.orchestrator.latency.load.LoadResultRenderer;
import dev.meshbench.orchestrator.latency.load.LoadSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code meshbench load -qps 0 -c 64 -t 30s http://host:port/}: the kit's HTTP/1.1 load generator, with fortio's
 * options: {@code -qps 0} is a closed loop (as fast as possible), any other rate an open loop whose latencies count
 * from each request's due time (no coordinated omission).
 */
@Command(name = "load", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Load HTTP/1.1 targets over keep-alive connections and print latency percentiles, rate and errors.",
            "-qps 0 runs a closed loop (every connection as fast as it can); a rate runs an open loop on one schedule, "
                    + "latency counted from each request's due time, and says whether it fell behind.",
            "Connection i goes to URL i mod the number of URLs."})
final class LoadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-qps", "--qps"}, defaultValue = "0", paramLabel = "N",
            description = "Requests per second over all connections; 0 (default): closed loop, as fast as possible.")
    double qps;

    @Option(names = {"-c", "--connections"}, paramLabel = "N",
            description = "Keep-alive connections, one thread each (default: " + LoadSpec.DEFAULT_CONNECTIONS + ").")
    int connections = LoadSpec.DEFAULT_CONNECTIONS;

    @Option(names = {"-t", "--duration"}, paramLabel = "DURATION", converter = GoDurationConverter.class,
            description = "Measured time, e.g. 30s, 1m (default: 30s).")
    Duration duration = LoadSpec.DEFAULT_DURATION;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = GoDurationConverter.class,
            description = "Per request, including a connect (default: 5s).")
    Duration timeout = LoadSpec.DEFAULT_TIMEOUT;

    @Option(names = "--warmup", paramLabel = "DURATION", converter = GoDurationConverter.class,
            description = "Load before the measured time, left out of every figure (default: none).")
    Duration warmup = Duration.ZERO;

    @Option(names = {"-X", "--method"}, paramLabel = "METHOD", description = "Request method (default: GET).")
    String method = LoadSpec.DEFAULT_METHOD;

    @Option(names = "--body-bytes", paramLabel = "N", description = "Request body size in bytes (default: 0).")
    int bodyBytes;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the result, with its histograms, as JSON.")
    Path json;

    @Parameters(arity = "1..*", paramLabel = "URL", description = "http:// targets.")
    List<URI> urls;

    @Override
    public Integer call() throws InterruptedException {
        LoadSpec load;
        try {
            if (!(qps >= 0) || Double.isInfinite(qps)) {
                throw new IllegalArgumentException("-qps (" + qps + ") must be 0 (closed loop) or a rate > 0");
            }
            load = new LoadSpec(urls, connections, duration, qps == 0 ? OptionalDouble.empty() : OptionalDouble.of(qps),
                    timeout, method, bodyBytes, warmup);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        LoadResult result = LoadGenerator.run(load, line -> {
            out.println(line);
            out.flush();
        });
        out.println();
        out.print(LoadResultRenderer.text(result));
        if (json != null) {
            try {
                Path parent = json.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                Files.writeString(json, LoadResultRenderer.json(result));
            } catch (IOException e) {
                throw new UncheckedIOException("load: cannot write the result to " + json + ": " + e.getMessage(), e);
            }
            out.println("Result written to " + json);
        }
        out.flush();
        return 0;
    }
}
