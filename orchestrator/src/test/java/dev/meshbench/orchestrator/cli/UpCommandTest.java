package dev.meshbench.orchestrator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.settings.Catalogue;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code meshbench up}: {@code --help} shows the settings catalogue's defaults; bad values are refused. Nothing is started here. */
class UpCommandTest {
    private static String help() {
        return new CommandLine(new UpCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
    }

    @Test
    @DisplayName("--help shows the catalogue's defaults of customers, flight days, data plane, sidecar mTLS and proxy workers")
    void helpShowsTheCataloguesDefaults() {
        String help = help();
        assertTrue(help.contains("Customers to load (default: " + Catalogue.CUSTOMERS.defaultValue().orElseThrow() + ")."), help);
        assertTrue(help.contains("Days of flights to load (default: " + Catalogue.FLIGHT_DAYS.defaultValue().orElseThrow() + ")."), help);
        assertTrue(help.contains("nginx SNI proxy) (default: " + Catalogue.DATAPLANE.defaultValue().orElseThrow() + ")."), help);
        assertTrue(help.contains("true or false (default: " + Catalogue.SIDECAR_MTLS.defaultValue().orElseThrow() + ")."), help);
        assertTrue(help.contains("Worker threads of every proxy (default: " + Catalogue.PROXY_WORKERS.defaultValue().orElseThrow()), help);
    }

    @Test
    @DisplayName("more customers or flight days than the loaders generate are refused before anything is deployed, naming the option")
    void loaderLimitsBeforeDeploy(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cli = new CommandLine(new UpCommand()).setErr(new java.io.PrintWriter(err));
        int exit = cli.execute("--case", "sni", "--project-root", tmp.toString(), "--log-dir", tmp.resolve("logs").toString(),
                "--customers", "1000001");
        assertEquals(2, exit, err.toString());
        assertTrue(err.toString().startsWith("--customers=1000001: must be between 1 and 1000000 customers (the most the customer "
                + "service's loader generates)"), err.toString());
        assertTrue(!java.nio.file.Files.exists(tmp.resolve("logs")), "nothing deployed");

        java.io.StringWriter err2 = new java.io.StringWriter();
        int exit2 = new CommandLine(new UpCommand()).setErr(new java.io.PrintWriter(err2)).execute("--case", "sni", "--project-root",
                tmp.toString(), "--flight-days", "400");
        assertEquals(2, exit2, err2.toString());
        assertTrue(err2.toString().startsWith("--flight-days=400: must be between 2 and 366 days"), err2.toString());
    }
}
