package dev.meshbench.mongo;

import dev.meshbench.component.ComponentMain;
import dev.meshbench.component.ReadyLine;
import java.nio.file.Path;

/**
 * The embedded TLS MongoDB as its own process:
 *
 * <pre>
 * java -jar embedded-mongo.jar --host 127.0.0.1 --port 0 --dir DIR --server-name mongo.meshbench.test [--exit-on-stdin-eof]
 * </pre>
 *
 * Prints {@code MESHBENCH-READY component=mongo address=127.0.0.1:<port> ca=<abs path> server-name=<name>} once it
 * serves, then runs until SIGINT/SIGTERM (or stdin EOF with {@code --exit-on-stdin-eof}). Bad arguments or a
 * failed bind: one line on stderr, exit code 2.
 */
public final class EmbeddedMongoMain {
    static final String COMPONENT = "mongo";
    static final String USAGE = "usage: EmbeddedMongoMain --dir DIR [--host 127.0.0.1] [--port 0] "
            + "[--server-name " + EmbeddedMongoConfig.DEFAULT_SERVER_NAME + "] [--exit-on-stdin-eof]";

    private EmbeddedMongoMain() {
    }

    public static void main(String[] args) {
        // one INFO line per client connection is noise for a load test; warnings stay
        if (System.getProperty("org.slf4j.simpleLogger.log.de.bwaldvogel.mongo") == null) {
            System.setProperty("org.slf4j.simpleLogger.log.de.bwaldvogel.mongo", "warn");
        }
        EmbeddedMongoConfig config;
        try {
            config = parse(args);
        } catch (IllegalArgumentException e) {
            ComponentMain.fail(COMPONENT, "reading arguments", new IllegalArgumentException(e.getMessage() + "; " + USAGE));
            return;
        }
        if (ComponentMain.wantsStdinWatch(args)) {
            ComponentMain.exitWhenStdinCloses(COMPONENT);
        }
        EmbeddedTlsMongo mongo;
        try {
            mongo = EmbeddedTlsMongo.start(config);
        } catch (RuntimeException e) {
            ComponentMain.fail(COMPONENT, "starting on " + config.host() + ":" + config.port(), e);
            return;
        }
        ReadyLine.of(COMPONENT, "address", mongo.hostAndPort(), "ca", mongo.caFile().toString(),
                "server-name", mongo.serverName()).print();
        ComponentMain.awaitShutdown(COMPONENT, mongo::close);
    }

    /** Parses the command line; throws naming the offending option. */
    static EmbeddedMongoConfig parse(String[] args) {
        String host = "127.0.0.1";
        int port = 0;
        Path dir = null;
        String serverName = EmbeddedMongoConfig.DEFAULT_SERVER_NAME;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--exit-on-stdin-eof" -> {
                    // handled by ComponentMain.wantsStdinWatch
                }
                case "--host" -> host = value(args, ++i, a);
                case "--port" -> {
                    String v = value(args, ++i, a);
                    try {
                        port = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--port '" + v + "' is not a number");
                    }
                }
                case "--dir" -> dir = Path.of(value(args, ++i, a));
                case "--server-name" -> serverName = value(args, ++i, a);
                default -> throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        if (dir == null) {
            throw new IllegalArgumentException("--dir is required (where mongo-ca.pem is written)");
        }
        return new EmbeddedMongoConfig(host, port, dir, serverName);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
