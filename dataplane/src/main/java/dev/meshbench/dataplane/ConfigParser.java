package dev.meshbench.dataplane;

import dev.meshbench.dataplane.config.ConfigRefusedException;
import dev.meshbench.dataplane.config.ConfigVersion;

/**
 * Reads the body of {@code PUT /config} into a configuration of the running component: its command's arguments, one
 * per line, parsed and checked as its command line is ({@code cli.ConfigBodyParser}).
 */
@FunctionalInterface
public interface ConfigParser {
    /**
     * @param version the request's {@code ?version=}
     * @param body    the request body
     * @return the configuration to apply
     * @throws ConfigRefusedException {@code BAD_INPUT} when the body is not a configuration of this command, {@code CONFLICT}
     *                                when it changes what the running process cannot; the message names the option
     */
    ConfigRevision parse(ConfigVersion version, String body) throws ConfigRefusedException;
}
