package dev.meshbench.graph;

/**
 * A service graph file that cannot be used: {@link #getMessage()} is {@code <file>:<line>: <reason>}, as compilers
 * print it, so editors and people can jump to the line.
 */
public final class GraphException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final String reason;

    /**
     * @param file   the file (or source name) read
     * @param line   1-based line of the offending node
     * @param reason what is wrong, and what would be right
     */
    public GraphException(String file, int line, String reason) {
        super(file + ":" + line + ": " + reason);
        this.file = file;
        this.line = line;
        this.reason = reason;
    }

    public String file() {
        return file;
    }

    /** 1-based. */
    public int line() {
        return line;
    }

    public String reason() {
        return reason;
    }
}
