package dev.meshbench.jmeter.workload;

import dev.meshbench.model.settings.Catalogue;

import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * The client ramp: steps run one after the other, step {@code n} with {@code clients.get(n-1)} virtual users for
 * {@code stepSeconds}. The plan has {@link #MAX_STEPS} fixed thread groups; a group whose step does not exist
 * gets 0 threads and is skipped. Client counts must be distinct because every sample is labelled with its step's
 * client count.
 *
 * @param clients     client count of each step, in order
 * @param stepSeconds length of every step
 */
public record RampSchedule(List<Integer> clients, int stepSeconds) {

    /** Thread groups in acmeair.jmx. */
    public static final int MAX_STEPS = 12;

    public RampSchedule {
        clients = List.copyOf(clients);
        String shown = join(clients);
        if (clients.isEmpty()) {
            throw new InvalidWorkloadPropertyException(WorkloadProperties.CLIENTS, "",
                    "must list at least one client count, e.g. 1,5,10,20");
        }
        if (clients.size() > MAX_STEPS) {
            throw new InvalidWorkloadPropertyException(WorkloadProperties.CLIENTS, shown,
                    "has " + clients.size() + " steps; the plan runs at most " + MAX_STEPS);
        }
        Set<Integer> seen = new HashSet<>();
        for (int c : clients) {
            if (c < 1) {
                throw new InvalidWorkloadPropertyException(WorkloadProperties.CLIENTS, shown,
                        "client counts must be positive whole numbers");
            }
            if (!seen.add(c)) {
                throw new InvalidWorkloadPropertyException(WorkloadProperties.CLIENTS, shown,
                        c + " appears twice; each step is labelled by its client count, so counts must differ");
            }
        }
        if (stepSeconds < 1) {
            throw new InvalidWorkloadPropertyException(WorkloadProperties.STEP_SECONDS, Integer.toString(stepSeconds),
                    "must be a positive number of seconds");
        }
    }

    /**
     * Reads {@code clients} ({@code 1,5,10}, spaces allowed) and {@code step.seconds} by the kit's own rules
     * ({@link WorkloadProperties#driver}): the plan accepts and refuses exactly what the kit does, naming the property.
     */
    public static RampSchedule fromProperties(Properties props) {
        return new RampSchedule(WorkloadProperties.driver(props, Catalogue.CLIENTS),
                WorkloadProperties.driver(props, Catalogue.STEP_SECONDS));
    }

    /** Clients of step {@code stepNumber} (1-based), or 0 when the ramp has fewer steps. */
    public int clientsOfStep(int stepNumber) {
        if (stepNumber < 1 || stepNumber > MAX_STEPS) {
            throw new IllegalArgumentException("step number must be 1.." + MAX_STEPS + ", got " + stepNumber);
        }
        return stepNumber <= clients.size() ? clients.get(stepNumber - 1) : 0;
    }

    /** Wall time of the whole ramp. */
    public long totalSeconds() {
        return (long) stepSeconds * clients.size();
    }

    private static String join(List<Integer> values) {
        StringBuilder sb = new StringBuilder();
        for (int v : values) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(v);
        }
        return sb.toString();
    }
}
