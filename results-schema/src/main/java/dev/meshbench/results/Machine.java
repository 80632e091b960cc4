package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.lang.management.ManagementFactory;

/**
 * The machine that ran the load and (for the local target) every component.
 *
 * @param cores       logical processors available to the JVM
 * @param memoryBytes physical memory in bytes
 * @param os          operating system name, version and architecture
 */
@JsonPropertyOrder({"cores", "memoryBytes", "os"})
public record Machine(
        @JsonProperty(required = true) int cores,
        @JsonProperty(required = true) long memoryBytes,
        @JsonProperty(required = true) String os) {

    public Machine {
        Checks.positive("machine.cores", cores);
        Checks.positive("machine.memoryBytes", memoryBytes);
        Checks.text("machine.os", os);
    }

    /** Describes the machine this JVM runs on. */
    public static Machine ofThisHost() {
        long memory = Runtime.getRuntime().maxMemory();
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            memory = os.getTotalMemorySize();
        }
        String os = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch");
        return new Machine(Runtime.getRuntime().availableProcessors(), memory, os);
    }
}
