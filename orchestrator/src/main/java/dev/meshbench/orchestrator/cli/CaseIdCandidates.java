package dev.meshbench.orchestrator.cli;

import dev.meshbench.model.EgressCase;
import java.util.Arrays;
import java.util.Iterator;

/** The ids {@code --case} accepts, for picocli's {@code ${COMPLETION-CANDIDATES}} in help and completion. */
final class CaseIdCandidates implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
        return Arrays.stream(EgressCase.values()).map(EgressCase::id).iterator();
    }
}
