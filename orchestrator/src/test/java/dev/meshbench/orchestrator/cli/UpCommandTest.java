package dev.meshbench.orchestrator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.run.RunSettings;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code meshbench up}: its defaults are RunSettings's, and {@code --help} shows them. Nothing is started here. */
class UpCommandTest {
    private static String help() {
        return new CommandLine(new UpCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
    }

    @Test
    @DisplayName("--help shows RunSettings's defaults of customers, flight days, data plane, sidecar mTLS and proxy workers")
    void helpShowsRunConfigDefaults() {
        String help = help();
        assertTrue(help.contains("Customers to load (default: " + RunSettings.DEFAULTS.get(RunSettings.P_CUSTOMERS) + ")."), help);
        assertTrue(help.contains("Days of flights to load (default: " + RunSettings.DEFAULTS.get(RunSettings.P_FLIGHT_DAYS) + ")."), help);
        assertTrue(help.contains("nginx SNI proxy) (default: " + RunSettings.DEFAULTS.get(RunSettings.P_DATAPLANE) + ")."), help);
        assertTrue(help.contains("true or false (default: " + RunSettings.DEFAULTS.get(RunSettings.P_SIDECAR_MTLS) + ")."), help);
        assertTrue(help.contains("Worker threads of every proxy (default: " + RunSettings.DEFAULTS.get(RunSettings.P_PROXY_WORKERS)), help);
    }

    @Test
    @DisplayName("without options, the parsed values are RunSettings's defaults")
    void parsedDefaultsAreRunConfigs() {
        UpCommand up = new UpCommand();
        new CommandLine(up).parseArgs("--case", "sni");
        assertEquals(RunSettings.DEFAULTS.get(RunSettings.P_CUSTOMERS), Integer.toString(up.customers));
        assertEquals(RunSettings.DEFAULTS.get(RunSettings.P_FLIGHT_DAYS), Integer.toString(up.flightDays));
        assertEquals(RunSettings.DEFAULTS.get(RunSettings.P_DATAPLANE), up.dataPlane);
        assertEquals(RunSettings.DEFAULTS.get(RunSettings.P_SIDECAR_MTLS), up.sidecarMtls);
        assertEquals(RunSettings.DEFAULTS.get(RunSettings.P_PROXY_WORKERS), Integer.toString(up.proxyWorkers));
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
        assertTrue(err2.toString().startsWith("--flight-days=400: must be between 1 and 366 days"), err2.toString());
    }
}
