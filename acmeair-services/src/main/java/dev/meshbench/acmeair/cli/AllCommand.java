package dev.meshbench.acmeair.cli;

import dev.meshbench.acmeair.config.Behaviour;
import dev.meshbench.acmeair.local.AllInOneLauncher;
import dev.meshbench.component.cli.Converters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code acmeair-services.jar all}: MongoDB and the four services in one JVM, loaded, for a person ({@link AllInOneLauncher}). */
@Command(name = "all", sortOptions = false,
        description = "The embedded TLS MongoDB and the four services in one JVM, with a loaded dataset, until Ctrl-C.")
public final class AllCommand extends ServerCommand {
    @Option(names = "--base-port", paramLabel = "PORT", converter = Converters.WholeNumber.class,
            description = "auth, customer, flight, booking listen on base+1..base+4; 0 for free ports (default: ${DEFAULT-VALUE}).")
    int basePort = AllInOneLauncher.DEFAULT_BASE_PORT;

    @Option(names = "--customers", paramLabel = "N", converter = Converters.WholeNumber.class,
            description = "Customers to load (default: ${DEFAULT-VALUE}).")
    int customers = AllInOneLauncher.DEFAULT_CUSTOMERS;

    @Option(names = "--days", paramLabel = "N", converter = Converters.WholeNumber.class,
            description = "Days of flights to load, from today, UTC (default: ${DEFAULT-VALUE}).")
    int days = AllInOneLauncher.DEFAULT_DAYS;

    @Option(names = "--flight-cache", paramLabel = "true|false", arity = "1", converter = OptionConverters.Switch.class,
            description = "Flight caches segments, flights and miles (default: ${DEFAULT-VALUE}, as the original).")
    boolean flightCache = Behaviour.ORIGINAL.flightCache();

    @Option(names = "--rewards-async", paramLabel = "true|false", arity = "1", converter = OptionConverters.Switch.class,
            description = "Booking updates miles after answering (default: ${DEFAULT-VALUE}, as the original).")
    boolean rewardsAsync = Behaviour.ORIGINAL.rewardsAsync();

    AllInOneLauncher.Settings settings() {
        try {
            return new AllInOneLauncher.Settings(basePort, customers, days, new Behaviour(flightCache, rewardsAsync));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    @Override
    public Integer call() {
        AllInOneLauncher.Settings settings = settings();
        watchStdin("all");
        AllInOneLauncher launcher;
        try {
            launcher = AllInOneLauncher.start(settings);
        } catch (RuntimeException e) {
            return failed("all", "starting", e);
        }
        launcher.printWelcome();
        return serving("all", launcher, null);
    }
}
