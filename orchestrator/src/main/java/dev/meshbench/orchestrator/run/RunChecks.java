package dev.meshbench.orchestrator.run;

import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.results.ComponentCpu;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** What a finished run must hold to count as a measurement: every step measured, every component's CPU. */
final class RunChecks {
    private RunChecks() {
    }

    /** The gaps, each said for a person; empty when the run is complete. */
    static List<String> gaps(RunResults results, List<Component> components, Path runDir) {
        List<String> gaps = new ArrayList<>();
        for (Integer clients : results.inputs().clientSteps()) {
            StepResult step = results.steps().stream().filter(s -> s.clients() == clients).findFirst().orElse(null);
            if (step == null || step.transactions() == 0) {
                gaps.add("step " + clients + " clients has no successful sample");
            } else if (step.cpu() != null) {
                Set<String> sampled = step.cpu().components().stream().map(ComponentCpu::component).collect(Collectors.toSet());
                List<String> missing = components.stream().map(Component::name).filter(n -> !sampled.contains(n)).toList();
                if (!missing.isEmpty()) {
                    gaps.add("step " + clients + " clients has no CPU samples of " + String.join(", ", missing));
                }
            } else {
                gaps.add("step " + clients + " clients has no CPU samples");
            }
        }
        for (String f : List.of(CaseRun.RUN_JSON, CaseRun.JTL, ResourceRecorder.FILE_NAME, "results.json")) {
            if (!Files.isRegularFile(runDir.resolve(f))) {
                gaps.add(f + " is missing");
            }
        }
        return gaps;
    }
}
