package dev.meshbench.component.cli;

import dev.meshbench.component.ComponentMain;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.OverwrittenOptionException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The command line of a component process (MongoDB, the services, graph nodes, the Netty proxies), on picocli as the
 * orchestrator's is: options fall back to environment variables ({@link EnvironmentVariable}), and bad input prints
 * exactly one line on stderr naming the option and exits {@value ComponentMain#EXIT_START_FAILED} (picocli's own
 * usage error code), because the orchestrator shows a component's last stderr line when it does not start.
 *
 * <p>The line is {@code <start> <option> <what is wrong>}: a type converter's {@link TypeConversionException} says
 * what is wrong with the value, without the option ({@code "'x' is not a whole number"}), and gets the option (and the
 * variable, if the value came from one) put in front; checks in a command's {@code call()} throw a
 * {@link ParameterException} whose message already names the option.
 */
public final class ComponentCommandLine {
    /** Formats a command's one error line from the message, e.g. {@code booking: reading options failed: <message>}. */
    @FunctionalInterface
    public interface ErrorLine {
        String format(CommandLine failed, String message);
    }

    private ComponentCommandLine() {
    }

    /**
     * Sets up {@code cli} and its subcommands (add them first): defaults from {@code environment}, bad input as one
     * line on {@code cli}'s error writer and exit code 2.
     */
    public static CommandLine configure(CommandLine cli, Map<String, String> environment, ErrorLine errorLine) {
        cli.setDefaultValueProvider(new EnvironmentDefaults(environment));
        cli.setParameterExceptionHandler((e, args) -> {
            CommandLine failed = e.getCommandLine();
            failed.getErr().println(errorLine.format(failed, describe(e)));
            failed.getErr().flush();
            return ComponentMain.EXIT_START_FAILED;
        });
        return cli;
    }

    /** One line naming the option and what is wrong, for any of picocli's parameter exceptions. */
    public static String describe(ParameterException e) {
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String arg = u.getUnmatched().get(0);
            Map<String, CommandLine> commands = u.getCommandLine().getSubcommands();
            if (arg.startsWith("-")) {
                int eq = arg.indexOf('=');
                return "unknown option '" + (eq > 0 ? arg.substring(0, eq) : arg) + "'";
            }
            if (!commands.isEmpty()) {
                return "unknown command '" + arg + "' (use " + String.join(", ", commandNames(u.getCommandLine())) + ")";
            }
            return "unexpected argument '" + arg + "'";
        }
        if (e instanceof OverwrittenOptionException o && o.getOverwritten() instanceof OptionSpec option) {
            return option.longestName() + " is given twice";
        }
        if (e instanceof MissingParameterException m && m.getMissing() != null && m.getMissing().size() == 1
                && m.getMissing().get(0) instanceof OptionSpec option && e.getMessage().contains("parameter for option")) {
            return option.longestName() + " needs a value";
        }
        if (e.getCause() instanceof TypeConversionException t && e.getArgSpec() instanceof OptionSpec option) {
            return name(e.getCommandLine(), option) + " " + t.getMessage();
        }
        return e.getMessage();
    }

    /**
     * {@code --port}, or {@code --port (PORT)} when the value came from the variable: whoever reads the error sees
     * where the bad value was.
     */
    private static String name(CommandLine cli, ArgSpec option) {
        String name = ((OptionSpec) option).longestName();
        if (cli.getCommandSpec().defaultValueProvider() instanceof EnvironmentDefaults env && env.supplied(option)) {
            return name + " (" + EnvironmentDefaults.variableOf(option).orElseThrow() + ")";
        }
        return name;
    }

    /** A command's subcommands, without {@code help}. */
    private static List<String> commandNames(CommandLine cli) {
        return cli.getSubcommands().keySet().stream().filter(n -> !n.equals("help")).toList();
    }
}
