package dev.meshbench.orchestrator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.run.RunConfig;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code meshbench up}: its defaults are RunConfig's, and {@code --help} shows them. Nothing is started here. */
class UpCommandTest {
    private static String help() {
        return new CommandLine(new UpCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
    }

    @Test
    @DisplayName("--help shows RunConfig's defaults of customers, flight days, data plane, sidecar mTLS and proxy workers")
    void helpShowsRunConfigDefaults() {
        String help = help();
        assertTrue(help.contains("Customers to load (default: " + RunConfig.DEFAULTS.get(RunConfig.P_CUSTOMERS) + ")."), help);
        assertTrue(help.contains("Days of flights to load (default: " + RunConfig.DEFAULTS.get(RunConfig.P_FLIGHT_DAYS) + ")."), help);
        assertTrue(help.contains("nginx SNI proxy) (default: " + RunConfig.DEFAULTS.get(RunConfig.P_DATAPLANE) + ")."), help);
        assertTrue(help.contains("true or false (default: " + RunConfig.DEFAULTS.get(RunConfig.P_SIDECAR_MTLS) + ")."), help);
        assertTrue(help.contains("Worker threads of every proxy (default: " + RunConfig.DEFAULTS.get(RunConfig.P_PROXY_WORKERS)), help);
    }

    @Test
    @DisplayName("the README's copy of 'up --help' is the real one")
    void readmeShowsTheRealHelp() throws java.io.IOException {
        java.nio.file.Path readme = java.nio.file.Path.of(System.getProperty("basedir", ".")).resolve("../README.md").normalize();
        String text = java.nio.file.Files.readString(readme, java.nio.charset.StandardCharsets.UTF_8);
        String prompt = "$ java -jar orchestrator/target/meshbench.jar up --help\n";
        int start = text.indexOf(prompt);
        assertTrue(start >= 0, readme + " shows no '" + prompt.trim() + "'");
        String shown = text.substring(start + prompt.length(), text.indexOf("```", start));
        CommandLine cli = new CommandLine(MeshbenchMain.class).getSubcommands().get("up");
        assertEquals(cli.getUsageMessage(CommandLine.Help.Ansi.OFF), shown);
    }

    @Test
    @DisplayName("without options, the parsed values are RunConfig's defaults")
    void parsedDefaultsAreRunConfigs() {
        UpCommand up = new UpCommand();
        new CommandLine(up).parseArgs("--case", "sni");
        assertEquals(RunConfig.DEFAULTS.get(RunConfig.P_CUSTOMERS), Integer.toString(up.customers));
        assertEquals(RunConfig.DEFAULTS.get(RunConfig.P_FLIGHT_DAYS), Integer.toString(up.flightDays));
        assertEquals(RunConfig.DEFAULTS.get(RunConfig.P_DATAPLANE), up.dataPlane);
        assertEquals(RunConfig.DEFAULTS.get(RunConfig.P_SIDECAR_MTLS), up.sidecarMtls);
        assertEquals(RunConfig.DEFAULTS.get(RunConfig.P_PROXY_WORKERS), Integer.toString(up.proxyWorkers));
    }
}
