package dev.meshbench.acmeair.cli;

import dev.meshbench.acmeair.AcmeairService;
import dev.meshbench.acmeair.config.Behaviour;
import dev.meshbench.acmeair.config.MongoConfig;
import dev.meshbench.acmeair.config.ServiceConfig;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.component.ReadyLine;
import dev.meshbench.component.cli.Converters;
import dev.meshbench.component.cli.EnvironmentVariable;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code acmeair-services.jar auth|customer|flight|booking [options]}: one Acmeair service. Every option falls back to
 * an environment variable (for containers); the command line wins. Which options a service needs is
 * {@link ServiceConfig}'s to say.
 */
@Command(sortOptions = false, description = "One Acmeair service. Every option but --exit-on-stdin-eof falls back to the "
        + "environment variable in brackets; the command line wins.",
        footer = {"", "Ready line on stdout once listening: MESHBENCH-READY component=<service> address=HOST:PORT metrics=/metrics "
                + "ready=/<service>/ready"})
public final class ServiceCommand extends ServerCommand {
    private final ServiceName service;

    @Option(names = "--host", paramLabel = "HOST", description = "Address to bind (BIND_HOST; default ${DEFAULT-VALUE}).")
    @EnvironmentVariable("BIND_HOST")
    String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "PORT", converter = Converters.Port.class,
            description = "Port to bind, 0 (default) for a free one (PORT).")
    @EnvironmentVariable("PORT")
    int port;

    @Option(names = "--mongo-uri", paramLabel = "URI", description = "MongoDB connection string (MONGO_URI).")
    @EnvironmentVariable("MONGO_URI")
    String mongoUri;

    @Option(names = "--mongo-ca-file", paramLabel = "PEM", description = "CA to trust for MongoDB's TLS (MONGO_CA_FILE; default: the JVM's CAs).")
    @EnvironmentVariable("MONGO_CA_FILE")
    Path mongoCaFile;

    @Option(names = "--mongo-client-cert", paramLabel = "PEM", description = "Client certificate for MongoDB (MONGO_CLIENT_CERT; optional).")
    @EnvironmentVariable("MONGO_CLIENT_CERT")
    Path mongoClientCert;

    @Option(names = "--mongo-client-key", paramLabel = "PEM", description = "Its key (MONGO_CLIENT_KEY).")
    @EnvironmentVariable("MONGO_CLIENT_KEY")
    Path mongoClientKey;

    @Option(names = "--mongo-host-alias", paramLabel = "NAME=IP", split = ",",
            description = "Repeatable or comma-separated (MONGO_HOST_ALIASES): the driver reaches NAME at IP, still using NAME "
                    + "for SNI and host name verification.")
    @EnvironmentVariable("MONGO_HOST_ALIASES")
    List<String> mongoHostAliases = new ArrayList<>();

    @Option(names = "--mongo-timeout-ms", paramLabel = "MS", converter = Converters.WholeNumber.class,
            description = "Server selection timeout (MONGO_SERVER_SELECTION_TIMEOUT_MS; default 5000).")
    @EnvironmentVariable("MONGO_SERVER_SELECTION_TIMEOUT_MS")
    Integer mongoTimeoutMs;

    @Option(names = "--customer-url", paramLabel = "URL", converter = OptionConverters.BaseUrl.class,
            description = "Customer service base URL (CUSTOMER_URL).")
    @EnvironmentVariable("CUSTOMER_URL")
    URI customerUrl;

    @Option(names = "--flight-url", paramLabel = "URL", converter = OptionConverters.BaseUrl.class,
            description = "Flight service base URL (FLIGHT_URL).")
    @EnvironmentVariable("FLIGHT_URL")
    URI flightUrl;

    @Option(names = "--jwt-private-key", paramLabel = "PEM", description = "RSA key that signs tokens, auth (JWT_PRIVATE_KEY).")
    @EnvironmentVariable("JWT_PRIVATE_KEY")
    Path jwtPrivateKey;

    @Option(names = "--jwt-public-key", paramLabel = "PEM",
            description = "RSA public key or certificate that verifies tokens, customer and booking (JWT_PUBLIC_KEY).")
    @EnvironmentVariable("JWT_PUBLIC_KEY")
    Path jwtPublicKey;

    @Option(names = "--flight-cache", paramLabel = "true|false", arity = "1", converter = OptionConverters.Switch.class,
            description = "Flight caches segments, flights and miles (FLIGHT_CACHE; default true, as the original).")
    @EnvironmentVariable("FLIGHT_CACHE")
    boolean flightCache = Behaviour.ORIGINAL.flightCache();

    @Option(names = "--rewards-async", paramLabel = "true|false", arity = "1", converter = OptionConverters.Switch.class,
            description = "Booking updates miles after answering (REWARDS_ASYNC; default true, as the original).")
    @EnvironmentVariable("REWARDS_ASYNC")
    boolean rewardsAsync = Behaviour.ORIGINAL.rewardsAsync();

    @Option(names = "--added-latency-ms", paramLabel = "MS", converter = Converters.WholeNumber.class,
            description = "Wait before each API request, a deliberate slowdown (ADDED_LATENCY_MS; default 0).")
    @EnvironmentVariable("ADDED_LATENCY_MS")
    int addedLatencyMs;

    @Option(names = "--allow-mongo-switch", converter = OptionConverters.Switch.class,
            description = "For the kit: serve PUT/GET /admin/mongo on this port, which points the running service's MongoDB "
                    + "client at another address (ALLOW_MONGO_SWITCH=true|false; default off).")
    @EnvironmentVariable("ALLOW_MONGO_SWITCH")
    boolean allowMongoSwitch;

    public ServiceCommand(ServiceName service) {
        this.service = service;
    }

    /** Parses one service's command line (with {@code environment} for the fallbacks) without starting it. */
    public static ServiceCommand parse(ServiceName service, List<String> args, Map<String, String> environment) {
        ServiceCommand command = new ServiceCommand(service);
        CommandLine cli = new CommandLine(command);
        cli.setCommandName(service.id());
        AcmeairCommandLine.configure(cli, environment).parseArgs(args.toArray(String[]::new));
        return command;
    }

    /** The service's settings; bad or missing options are a {@link ParameterException} naming them. */
    public ServiceConfig config() {
        try {
            MongoConfig mongo = null;
            if (mongoUri != null) {
                Map<String, String> aliases = new LinkedHashMap<>();
                for (String spec : mongoHostAliases) {
                    Map.Entry<String, String> e = MongoConfig.parseAlias(spec.trim());
                    aliases.put(e.getKey(), e.getValue());
                }
                Duration timeout = mongoTimeoutMs == null ? MongoConfig.DEFAULT_SERVER_SELECTION_TIMEOUT : Duration.ofMillis(mongoTimeoutMs);
                mongo = new MongoConfig(mongoUri, mongoCaFile, mongoClientCert, mongoClientKey, aliases, timeout);
            } else {
                Map<String, Boolean> given = new LinkedHashMap<>();
                given.put("--mongo-ca-file", mongoCaFile != null);
                given.put("--mongo-client-cert", mongoClientCert != null);
                given.put("--mongo-client-key", mongoClientKey != null);
                given.put("--mongo-host-alias", !mongoHostAliases.isEmpty());
                given.forEach((option, isGiven) -> {
                    if (isGiven) {
                        throw new IllegalArgumentException(option + " is given but --mongo-uri (MONGO_URI) is not");
                    }
                });
            }
            return new ServiceConfig(service, host, port, mongo, customerUrl, flightUrl, jwtPrivateKey, jwtPublicKey,
                    new Behaviour(flightCache, rewardsAsync, addedLatencyMs), allowMongoSwitch);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    @Override
    public Integer call() {
        ServiceConfig config = config();
        watchStdin(service.id());
        AcmeairService started;
        try {
            started = AcmeairService.start(config);
        } catch (RuntimeException e) {
            return failed(service.id(), "starting on " + config.host() + ":" + config.port(), e);
        }
        return serving(service.id(), started,
                ReadyLine.of(service.id(), "address", started.address(), "metrics", "/metrics", "ready", service.readyPath()));
    }
}
