package dev.meshbench.dataplane.cli;

/** Bad command-line input; the message names the option and what is wrong with it. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
