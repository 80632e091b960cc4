package dev.meshbench.orchestrator.lifetime;

/** A child process's exit status, said for a person: the JDK reports an exit by signal as 128 + the signal's number. */
public final class ExitStatus {
    private ExitStatus() {
    }

    /**
     * {@code exited with code 1}, or for an exit by signal {@code was killed by SIGKILL (exit status 137: ...)} with
     * what usually sends that signal.
     */
    public static String describe(int code) {
        if (code <= 128 || code > 128 + 64) {
            return "exited with code " + code;
        }
        int signal = code - 128;
        String name = switch (signal) {
            case 1 -> "SIGHUP";
            case 2 -> "SIGINT";
            case 3 -> "SIGQUIT";
            case 4 -> "SIGILL";
            case 6 -> "SIGABRT";
            case 7 -> "SIGBUS";
            case 8 -> "SIGFPE";
            case 9 -> "SIGKILL";
            case 11 -> "SIGSEGV";
            case 13 -> "SIGPIPE";
            case 14 -> "SIGALRM";
            case 15 -> "SIGTERM";
            default -> "signal " + signal;
        };
        String why = switch (signal) {
            case 9 -> ": sent from outside the kit, e.g. kill -9 or the kernel's out-of-memory killer";
            case 15, 1, 2, 3 -> ": asked to stop from outside the kit";
            case 4, 6, 7, 8, 11 -> ": it crashed";
            default -> "";
        };
        return "was killed by " + name + " (exit status " + code + why + ")";
    }
}
