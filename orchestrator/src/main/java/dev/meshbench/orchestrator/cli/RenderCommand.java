package dev.meshbench.orchestrator.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.kubernetes.CaseManifests;
import dev.meshbench.orchestrator.kubernetes.KubectlKustomize;
import dev.meshbench.orchestrator.kubernetes.KubernetesSettings;
import dev.meshbench.orchestrator.plan.TopologyPlanText;
import dev.meshbench.orchestrator.plan.TopologyPlanner;
import dev.meshbench.orchestrator.run.RunSettings;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.WorkloadInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code meshbench render --case sni --target kubernetes}: prints the exact manifests the Kubernetes target would
 * apply (keys generated per run are shown redacted), or, for the local target, the case's topology plan.
 */
@Command(name = "render", mixinStandardHelpOptions = true,
        description = "Print what a case deploys: the Kubernetes manifests the orchestrator applies (target kubernetes), "
                + "or the local target's topology plan.")
final class RenderCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--case", required = true, completionCandidates = CaseIdCandidates.class,
            description = "Case id: ${COMPLETION-CANDIDATES}.")
    String caseId;

    @Option(names = "--target", defaultValue = "kubernetes", description = "kubernetes (default) or local.")
    String target;

    @Option(names = "-D", mapFallbackValue = "", description = "Run properties as for Maven, e.g. "
            + "-Dmeshbench.namespace=perf -Dmeshbench.mongo.uri=mongodb://db.example.com:27017/?tls=true "
            + "-Dmeshbench.mongo.ca=ca.pem -Dmeshbench.images.services=registry/acmeair-services:1.0. Without "
            + "meshbench.mongo.uri the files' own MongoDB parameters are printed.")
    Map<String, String> properties = new HashMap<>();

    @Override
    public Integer call() {
        EgressCase c = EgressCase.byId(caseId);
        Map<String, String> props = new HashMap<>(properties);
        props.put(RunSettings.P_TARGET, target);
        props.put(RunSettings.P_CASES, c.id());
        TargetKind kind = RunSettings.target(props);
        String text = switch (kind) {
            case LOCAL -> TopologyPlanText.describe(TopologyPlanner.plan(c,
                    RunSettings.fromProperties(props, false, java.nio.file.Path.of("results")).mesh())) + "\n";
            case KUBERNETES -> kubernetes(c, props);
        };
        spec.commandLine().getOut().print(text);
        spec.commandLine().getOut().flush();
        return 0;
    }

    private static String kubernetes(EgressCase c, Map<String, String> props) {
        RunSettings config = RunSettings.fromProperties(props, false, java.nio.file.Path.of("results"));
        WorkloadInfo workload = config.workload();
        List<ObjectNode> docs;
        String source;
        if (props.containsKey(KubernetesSettings.P_MONGO_URI)) {
            docs = CaseManifests.render(c, KubernetesSettings.fromProperties(props), workload, null);
            source = "with the given MongoDB";
        } else {
            // No MongoDB given: the files' own parameters, with the run's namespace, images and workload.
            Map<String, String> images = new HashMap<>();
            if (props.containsKey(KubernetesSettings.P_IMAGE_SERVICES)) {
                images.put(KubernetesSettings.SERVICES_IMAGE, props.get(KubernetesSettings.P_IMAGE_SERVICES));
            }
            if (props.containsKey(KubernetesSettings.P_IMAGE_SNI_PROXY)) {
                images.put(KubernetesSettings.SNI_PROXY_IMAGE, props.get(KubernetesSettings.P_IMAGE_SNI_PROXY));
            }
            docs = CaseManifests.render(KubectlKustomize.find(Catalogue.KUBECTL_BINARY.read(props)), c, props.getOrDefault(KubernetesSettings.P_NAMESPACE, TopologyPlanner.APP_NAMESPACE),
                    images, java.util.Optional.empty(), workload, null);
            source = "with istio-config's own MongoDB parameters (set -D" + KubernetesSettings.P_MONGO_URI + " and -D"
                    + KubernetesSettings.P_MONGO_CA + " for yours)";
        }
        return "# meshbench: case " + c.id() + " (" + c.studyName() + "), istio-config/" + c.istioConfigDir() + ", "
                + docs.size() + " resources " + source + "; the JWT key pair is generated per run and not shown\n"
                + KubectlKustomize.toYaml(docs);
    }
}
