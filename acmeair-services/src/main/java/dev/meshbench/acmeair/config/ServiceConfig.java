package dev.meshbench.acmeair.config;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything one service needs to start. The constructor checks that the options this service uses are present and
 * well formed, and names the missing ones.
 *
 * @param service       which service
 * @param host          address to bind (127.0.0.1 locally, 0.0.0.0 in a container)
 * @param port          port to bind, 0 for a free one
 * @param mongo         MongoDB connection (required except for auth, where it only feeds readiness)
 * @param customerUrl   base URL of the customer service (auth and booking call it)
 * @param flightUrl     base URL of the flight service (booking calls it)
 * @param jwtPrivateKey RSA key that signs tokens (auth)
 * @param jwtPublicKey  RSA public key (or certificate) that verifies tokens (customer, booking)
 * @param behaviour     flight cache and asynchronous rewards, as the original services ({@link Behaviour#ORIGINAL}) or not
 * @param allowMongoSwitch serve {@code PUT /admin/mongo}, which points the running service's MongoDB client at another
 *                      address ({@code --allow-mongo-switch}, env {@code ALLOW_MONGO_SWITCH}; off by default): for the
 *                      kit, which switches the egress cases under one warm deployment; needs {@code mongo}
 */
public record ServiceConfig(ServiceName service, String host, int port, MongoConfig mongo, URI customerUrl, URI flightUrl,
        Path jwtPrivateKey, Path jwtPublicKey, Behaviour behaviour, boolean allowMongoSwitch) {

    /** A service that behaves as the original Acmeair services ({@link Behaviour#ORIGINAL}). */
    public ServiceConfig(ServiceName service, String host, int port, MongoConfig mongo, URI customerUrl, URI flightUrl,
            Path jwtPrivateKey, Path jwtPublicKey) {
        this(service, host, port, mongo, customerUrl, flightUrl, jwtPrivateKey, jwtPublicKey, Behaviour.ORIGINAL);
    }

    /** A service without the MongoDB switch. */
    public ServiceConfig(ServiceName service, String host, int port, MongoConfig mongo, URI customerUrl, URI flightUrl,
            Path jwtPrivateKey, Path jwtPublicKey, Behaviour behaviour) {
        this(service, host, port, mongo, customerUrl, flightUrl, jwtPrivateKey, jwtPublicKey, behaviour, false);
    }

    /** The same service with the MongoDB switch on or off. */
    public ServiceConfig withMongoSwitch(boolean allow) {
        return new ServiceConfig(service, host, port, mongo, customerUrl, flightUrl, jwtPrivateKey, jwtPublicKey, behaviour, allow);
    }

    public ServiceConfig {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(behaviour, "behaviour");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(service.id() + ": --port " + port + " must be between 0 and 65535");
        }
        List<String> missing = new ArrayList<>();
        switch (service) {
            case AUTH -> {
                need(missing, customerUrl, "--customer-url (CUSTOMER_URL)");
                need(missing, jwtPrivateKey, "--jwt-private-key (JWT_PRIVATE_KEY)");
            }
            case CUSTOMER -> {
                need(missing, mongo, "--mongo-uri (MONGO_URI)");
                need(missing, jwtPublicKey, "--jwt-public-key (JWT_PUBLIC_KEY)");
            }
            case FLIGHT -> need(missing, mongo, "--mongo-uri (MONGO_URI)");
            case BOOKING -> {
                need(missing, mongo, "--mongo-uri (MONGO_URI)");
                need(missing, jwtPublicKey, "--jwt-public-key (JWT_PUBLIC_KEY)");
                need(missing, customerUrl, "--customer-url (CUSTOMER_URL)");
                need(missing, flightUrl, "--flight-url (FLIGHT_URL)");
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("the " + service.id() + " service needs " + String.join(", ", missing));
        }
        if (allowMongoSwitch && mongo == null) {
            throw new IllegalArgumentException("--allow-mongo-switch (ALLOW_MONGO_SWITCH) needs --mongo-uri (MONGO_URI): the "
                    + service.id() + " service has no MongoDB client to switch");
        }
        checkBaseUrl(customerUrl, "--customer-url");
        checkBaseUrl(flightUrl, "--flight-url");
        checkFile(jwtPrivateKey, "--jwt-private-key");
        checkFile(jwtPublicKey, "--jwt-public-key");
    }

    private static void need(List<String> missing, Object value, String option) {
        if (value == null) {
            missing.add(option);
        }
    }

    private static void checkBaseUrl(URI url, String option) {
        if (url == null) {
            return;
        }
        if (!("http".equals(url.getScheme()) || "https".equals(url.getScheme())) || url.getHost() == null) {
            throw new IllegalArgumentException(option + " '" + url + "' must be an http(s) URL with a host, e.g. http://127.0.0.1:9082");
        }
    }

    private static void checkFile(Path p, String option) {
        if (p != null && !Files.isReadable(p)) {
            throw new IllegalArgumentException(option + " " + p + " does not exist or is not readable");
        }
    }
}
