package dev.meshbench.acmeair.cli;

import dev.meshbench.acmeair.security.JwtKeys;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code acmeair-services.jar jwt-keys --dir DIR}: writes a JWT key pair, jwt-private.pem and jwt-public.pem. */
@Command(name = "jwt-keys", mixinStandardHelpOptions = false, description = "Write an RS256 key pair: jwt-private.pem (auth) and "
        + "jwt-public.pem (customer, booking).")
public final class JwtKeysCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where the two files go (required).")
    Path dir;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        if (dir == null) {
            throw new ParameterException(spec.commandLine(), "--dir is required");
        }
        JwtKeys.KeyFiles f = JwtKeys.generate(dir);
        PrintWriter out = spec.commandLine().getOut();
        out.println("private key (auth --jwt-private-key): " + f.privateKey());
        out.println("public key (customer, booking --jwt-public-key): " + f.publicKey());
        out.flush();
        return 0;
    }
}
