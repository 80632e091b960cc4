package dev.meshbench.acmeair.local;

import dev.meshbench.acmeair.AcmeairService;
import dev.meshbench.acmeair.config.Behaviour;
import dev.meshbench.acmeair.config.MongoConfig;
import dev.meshbench.acmeair.config.ServiceConfig;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.acmeair.security.JwtKeys;
import dev.meshbench.component.DatasetDefaults;
import dev.meshbench.mongo.EmbeddedMongoConfig;
import dev.meshbench.mongo.EmbeddedTlsMongo;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Everything on one machine, in one JVM, for a person trying Acmeair: the embedded TLS MongoDB (per-run CA), a
 * per-run JWT key pair, the four services (auth 9081, customer 9082, flight 9083, booking 9084 with the default
 * base port 9080; {@code --base-port 0} picks free ports), a loaded dataset, then the URLs and an example. Runs until
 * Ctrl-C and removes its temporary directory on the way out.
 */
public final class AllInOneLauncher implements AutoCloseable {
    public static final int DEFAULT_BASE_PORT = 9080;
    /** The study's dataset ({@link DatasetDefaults}, shared with the orchestrator's {@code -Pstudy}). */
    public static final int DEFAULT_CUSTOMERS = DatasetDefaults.STUDY_CUSTOMERS;
    public static final int DEFAULT_DAYS = DatasetDefaults.FLIGHT_DAYS;

    private final Path dir;
    private final EmbeddedTlsMongo mongo;
    private final List<AcmeairService> services;
    private final JwtKeys.KeyFiles jwtKeys;

    private AllInOneLauncher(Path dir, EmbeddedTlsMongo mongo, List<AcmeairService> services, JwtKeys.KeyFiles jwtKeys) {
        this.dir = dir;
        this.mongo = mongo;
        this.services = services;
        this.jwtKeys = jwtKeys;
    }

    /**
     * The launcher's settings.
     *
     * @param basePort  services listen on base+1..base+4; 0 for free ports
     * @param customers customers to load
     * @param days      days of flights to load, from today (UTC)
     * @param behaviour flight cache and asynchronous rewards ({@code --flight-cache}, {@code --rewards-async})
     */
    public record Settings(int basePort, int customers, int days, Behaviour behaviour) {
        /** As the original Acmeair services behave. */
        public Settings(int basePort, int customers, int days) {
            this(basePort, customers, days, Behaviour.ORIGINAL);
        }

        public Settings {
            java.util.Objects.requireNonNull(behaviour, "behaviour");
            if (basePort != 0 && (basePort < 1024 || basePort > 65530)) {
                throw new IllegalArgumentException("--base-port " + basePort + " must be 0 or from 1024 to 65530");
            }
            if (customers < 1) {
                throw new IllegalArgumentException("--customers " + customers + " must be at least 1");
            }
            if (days < 1) {
                throw new IllegalArgumentException("--days " + days + " must be at least 1");
            }
        }
    }

    public static AllInOneLauncher start(Settings s) {
        Path dir;
        try {
            dir = Files.createTempDirectory("acmeair-all-");
        } catch (IOException e) {
            throw new IllegalStateException("creating a temporary directory failed: " + e.getMessage(), e);
        }
        List<AcmeairService> started = new ArrayList<>();
        EmbeddedTlsMongo mongo = null;
        JwtKeys.KeyFiles keys = null;
        try {
            System.out.println("starting the embedded TLS MongoDB and the four Acmeair services in " + dir);
            mongo = EmbeddedTlsMongo.start(new EmbeddedMongoConfig("127.0.0.1", 0, dir, EmbeddedMongoConfig.DEFAULT_SERVER_NAME));
            keys = JwtKeys.generate(dir);
            MongoConfig mc = mongoConfig(mongo);
            AcmeairService customer = startService(started, new ServiceConfig(ServiceName.CUSTOMER, "127.0.0.1", port(s, 2), mc,
                    null, null, null, keys.publicKey(), s.behaviour()));
            AcmeairService flight = startService(started, new ServiceConfig(ServiceName.FLIGHT, "127.0.0.1", port(s, 3), mc,
                    null, null, null, null, s.behaviour()));
            URI customerUrl = URI.create(customer.baseUrl());
            startService(started, new ServiceConfig(ServiceName.AUTH, "127.0.0.1", port(s, 1), null, customerUrl, null,
                    keys.privateKey(), null, s.behaviour()));
            startService(started, new ServiceConfig(ServiceName.BOOKING, "127.0.0.1", port(s, 4), mc, customerUrl,
                    URI.create(flight.baseUrl()), null, keys.publicKey(), s.behaviour()));
            AllInOneLauncher l = new AllInOneLauncher(dir, mongo, started, keys);
            l.load(s);
            return l;
        } catch (RuntimeException e) {
            new AllInOneLauncher(dir, mongo, started, keys).close();
            throw e;
        }
    }

    private static MongoConfig mongoConfig(EmbeddedTlsMongo mongo) {
        return new MongoConfig(mongo.connectionString(), mongo.caFile()).withHostAlias(mongo.serverName(), "127.0.0.1");
    }

    private static AcmeairService startService(List<AcmeairService> started, ServiceConfig c) {
        AcmeairService s = AcmeairService.start(c);
        started.add(s);
        return s;
    }

    private static int port(Settings s, int offset) {
        return s.basePort() == 0 ? 0 : s.basePort() + offset;
    }

    public AcmeairService service(ServiceName name) {
        return services.stream().filter(s -> s.name() == name).findFirst().orElseThrow();
    }

    public EmbeddedTlsMongo mongo() {
        return mongo;
    }

    /** The per-run JWT key files (private for auth, public for customer and booking). */
    public JwtKeys.KeyFiles jwtKeys() {
        return jwtKeys;
    }

    /** The MongoDB settings the services use: the embedded server by name, aliased to loopback, trusting its CA. */
    public MongoConfig mongoConfig() {
        return mongoConfig(mongo);
    }

    private void load(Settings s) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        get(http, service(ServiceName.CUSTOMER).baseUrl() + "/customer/loader/load?numCustomers=" + s.customers());
        get(http, service(ServiceName.FLIGHT).baseUrl() + "/flight/loader/load?numDays=" + s.days());
    }

    private static void get(HttpClient http, String url) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("loading data with GET " + url + " failed: HTTP " + r.statusCode() + " " + r.body());
            }
            System.out.println("loaded: GET " + url + " -> " + r.body());
        } catch (IOException e) {
            throw new IllegalStateException("loading data with GET " + url + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("loading data with GET " + url + " was interrupted", e);
        }
    }

    /** The URLs and a few curl commands to try, on stdout. */
    public void printWelcome() {
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        String auth = service(ServiceName.AUTH).baseUrl();
        String customer = service(ServiceName.CUSTOMER).baseUrl();
        String flight = service(ServiceName.FLIGHT).baseUrl();
        String booking = service(ServiceName.BOOKING).baseUrl();
        StringBuilder b = new StringBuilder("\nAcmeair is running (Ctrl-C stops everything):\n");
        b.append("  mongo     ").append(mongo.connectionString()).append("  (TLS, ").append(mongo.serverName()).append(" -> ")
                .append(mongo.hostAndPort()).append(", CA ").append(mongo.caFile()).append(")\n");
        for (AcmeairService s : services) {
            b.append(String.format("  %-9s %s   ready: %s   metrics: %s/metrics%n", s.name().id(), s.baseUrl(),
                    s.baseUrl() + s.name().readyPath(), s.baseUrl()));
        }
        b.append("\nTry:\n");
        b.append("  curl -s -c /tmp/acmeair.cookies -d login=uid0@email.com -d password=password ").append(auth).append("/auth/login\n");
        b.append("  curl -s -b /tmp/acmeair.cookies ").append(customer).append("/customer/byid/uid0@email.com\n");
        b.append("  curl -s -d fromAirport=JFK -d toAirport=LHR -d fromDate=").append(today).append(" -d oneWay=true ")
                .append(flight).append("/flight/queryflights\n");
        b.append("  curl -s -b /tmp/acmeair.cookies -d userid=uid0@email.com -d toFlightId=<_id from the query> -d toFlightSegId=<flightSegmentId> -d oneWayFlight=true ")
                .append(booking).append("/booking/bookflights\n");
        System.out.println(b);
        System.out.flush();
    }

    @Override
    public void close() {
        for (int i = services.size() - 1; i >= 0; i--) {
            services.get(i).close();
        }
        if (mongo != null) {
            mongo.close();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("all: removing " + dir + " failed: " + e.getMessage());
        }
    }
}
