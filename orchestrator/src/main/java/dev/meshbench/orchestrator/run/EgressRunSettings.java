package dev.meshbench.orchestrator.run;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.kubernetes.KubernetesSettings;
import dev.meshbench.orchestrator.local.CpuLimits;
import dev.meshbench.orchestrator.local.CpuSets;
import dev.meshbench.orchestrator.local.LocalDataPlane;
import dev.meshbench.orchestrator.local.LocalDeployment;
import dev.meshbench.orchestrator.local.ProxyLaunch;
import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.TargetKind;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything an egress run needs, read from the {@code meshbench.*} properties once and validated before anything
 * starts, so that nothing downstream reads a raw property: every bad value, and every combination the target
 * cannot run, is refused here naming the property, the value and the rule.
 *
 * @param run            the ramp, dataset, mesh and workload
 * @param target         where the cases run
 * @param repeats        runs of each case, interleaved
 * @param driver         the driver's JMeter properties, JMeter name to value, each checked by its catalogue setting
 *                       ({@link Catalogue#driverProperties}): passed to JMeter as they are, except the ramp
 *                       ({@code clients}, {@code step.seconds}), which each run sets ({@link JMeterLoad#properties})
 * @param measurement    the rules steps are judged by, the rate and the warm-up (without the repeat, set per run)
 * @param cpuSets        CPU sets of the local target's process groups ({@link CpuSets#NONE} on a cluster)
 * @param cpuLimits      CPU limits of the local target's components ({@link CpuLimits#NONE} on a cluster); whether
 *                       this machine can apply them is checked with the target, before anything starts
 * @param binaries       the local data plane's binaries as given
 * @param kubernetes     the cluster's settings when the target is Kubernetes
 * @param jmeterHeapMb   heap of the JMeter JVM, MB; the clients of a step fit in it ({@link RunSettings.LoadCapacity})
 * @param progressSeconds seconds between live progress lines
 * @param recorded       the settings {@code run.json} records: every {@code meshbench.*} property in effect, defaults
 *                       included, less anything that may hold a secret, plus the JVM heaps of JMeter, the services,
 *                       MongoDB and the Netty proxies
 * @param calibrate      the calibration that chooses the sitting's rate ({@code meshbench.load=calibrated} and no
 *                       {@code meshbench.rate}); empty for a rate given by hand or a closed loop
 * @param switched       {@code meshbench.method=switched}: the application deployed and warmed once, the cases switched in
 *                       underneath it; else a fresh deployment per run
 */
public record EgressRunSettings(RunSettings run, TargetKind target, int repeats, Map<String, String> driver, MeasurementInfo measurement,
        CpuSets cpuSets, CpuLimits cpuLimits, LocalDataPlane.Binaries binaries, Optional<KubernetesSettings> kubernetes, int jmeterHeapMb,
        int progressSeconds, Map<String, String> recorded, Optional<Calibration> calibrate, boolean switched) {

    /** A calibration to run first: {@code meshbench.rateFraction}, and the shortfall a step may have from the rate it sets. */
    public record Calibration(double fraction, double shortfallPercent) {
    }

    public EgressRunSettings {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(target, Catalogue.TARGET.name());
        Objects.requireNonNull(measurement, "measurement");
        Objects.requireNonNull(cpuSets, "cpuSets");
        Objects.requireNonNull(cpuLimits, "cpuLimits");
        Objects.requireNonNull(binaries, "binaries");
        Objects.requireNonNull(kubernetes, "kubernetes");
        driver = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(driver));
        recorded = java.util.Collections.unmodifiableMap(new TreeMap<>(recorded));
        if (kubernetes.isPresent() != (target == TargetKind.KUBERNETES)) {
            throw new IllegalArgumentException("the Kubernetes settings are for " + Catalogue.TARGET.name() + "=kubernetes, and needed there");
        }
    }

    /** What this machine offers a run: its CPUs, its open-files limit, and the PATH the kit looks up binaries on. */
    public record Host(int cpus, long openFiles, String path) {
        public static Host current() {
            return new Host(Runtime.getRuntime().availableProcessors(), RunSettings.LoadCapacity.openFilesLimit(), System.getenv("PATH"));
        }
    }

    /** An egress run's settings on this machine: see {@link #fromProperties(Map, Path, Host)}. */
    public static EgressRunSettings fromProperties(Map<String, String> props, Path defaultResultsDir) {
        return fromProperties(props, defaultResultsDir, Host.current());
    }

    /**
     * An egress run's settings: {@code meshbench.study=true} layers the study's values under the explicit ones;
     * absent properties take the catalogue's defaults; results go to {@code defaultResultsDir} unless
     * {@code meshbench.resultsDir} says otherwise. The ramp's largest step must fit {@code host} (cores, open files,
     * JMeter's heap), CPU sets its CPUs; a slowed service and CPU sets are for the local target only.
     */
    public static EgressRunSettings fromProperties(Map<String, String> props, Path defaultResultsDir, Host host) {
        boolean study = Catalogue.STUDY.value(props);
        RunSettings run = RunSettings.fromProperties(props, study, defaultResultsDir);
        TargetKind target = RunSettings.target(props);
        boolean local = target == TargetKind.LOCAL;
        if (!local && !run.workload().addedLatencyMs().isEmpty()) {
            throw Catalogue.SLOW_SERVICE.invalid(props.get(Catalogue.SLOW_SERVICE.name()).trim(),
                    "only the local target can slow a service down");
        }
        CpuSets cpuSets = CpuSets.fromProperties(props, host.cpus(), host.path());
        if (!local && !cpuSets.lists().isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", cpuSets.asProperties().keySet())
                    + ": CPU sets are for the local target (on a cluster, use the pods' resources)");
        }
        CpuLimits cpuLimits = CpuLimits.fromProperties(props);
        if (!local && !cpuLimits.isEmpty()) {
            throw Catalogue.CPU_LIMITS.invalid(cpuLimits.text(), "CPU limits are for the local target (on a cluster, set the pods' "
                    + "resources.limits.cpu)");
        }
        int heap = Catalogue.JMETER_HEAP_MB.value(props);
        new RunSettings.LoadCapacity(host.cpus(), host.openFiles(), heap).check(run.clients());
        Optional<KubernetesSettings> kubernetes = local ? Optional.empty() : Optional.of(KubernetesSettings.fromProperties(props));
        MeasurementInfo measurement = RunSettings.measurement(props, run.clients());
        boolean closed = Catalogue.LOAD.value(props, study).equals("closed");
        if (closed && Catalogue.LOAD.isSet(props) && !measurement.targetRatePerSecond().isEmpty()) {
            throw Catalogue.LOAD.invalid(props.get(Catalogue.LOAD.name()).trim(), "a closed loop has no rate, but "
                    + Catalogue.RATE.name() + "=" + props.get(Catalogue.RATE.name()).trim() + " is given; drop one of them");
        }
        Optional<Calibration> calibrate = closed || !measurement.targetRatePerSecond().isEmpty() ? Optional.empty()
                : Optional.of(new Calibration(Catalogue.RATE_FRACTION.value(props), Catalogue.RATE_SHORTFALL_PERCENT.value(props)));
        boolean switched = Catalogue.METHOD.value(props, study).equals(Catalogue.METHOD_SWITCHED);
        if (switched && run.clients().size() > 1) {
            throw Catalogue.CLIENTS.invalid(props.getOrDefault(Catalogue.CLIENTS.name(), "").trim(), Catalogue.METHOD.name() + "="
                    + Catalogue.METHOD_SWITCHED + " measures every case at one client count, one step per case and round; give one "
                    + "count, or " + Catalogue.METHOD.name() + "=" + Catalogue.METHOD_FRESH + " for a ramp of several");
        }
        return new EgressRunSettings(run, target, Catalogue.REPEATS.value(props, study), Catalogue.driverProperties(props, study),
                measurement, cpuSets, cpuLimits, LocalDataPlane.Binaries.fromProperties(props),
                kubernetes, heap, Catalogue.PROGRESS_SECONDS.value(props), recorded(props, study, local, cpuSets, cpuLimits, heap),
                calibrate, switched);
    }

    /**
     * The settings in effect as {@code run.json} records them: defaults, the study's values, the settings given. Only
     * the catalogue's settings, and on the local target none of the cluster's, so that Maven's other {@code meshbench.*}
     * POM properties (the image build's) do not make a Maven run's record differ from {@code meshbench run}'s.
     */
    private static Map<String, String> recorded(Map<String, String> props, boolean study, boolean local, CpuSets cpuSets,
            CpuLimits cpuLimits, int jmeterHeapMb) {
        Map<String, String> s = new TreeMap<>(RunSettings.DEFAULTS);
        if (study) {
            s.putAll(RunSettings.STUDY);
        }
        Map<String, dev.meshbench.model.settings.Setting<?>> known = new TreeMap<>();
        Catalogue.ALL.forEach(setting -> known.put(setting.name(), setting));
        props.forEach((k, v) -> {
            var setting = known.get(k);
            if (setting == null || local && setting.target() == dev.meshbench.model.settings.TargetScope.KUBERNETES) {
                return;
            }
            String key = k.toLowerCase(Locale.ROOT);
            if (key.contains("token") || key.contains("password") || key.contains("secret") || key.contains("kubeconfig")
                    || key.equals("meshbench.projectroot") || key.equals(Catalogue.JMETER_HOME_NAME.toLowerCase(Locale.ROOT))) {
                return;
            }
            s.put(k, key.contains("uri") ? v.replaceAll("//[^/@]*@", "//***@") : v);
        });
        s.putAll(cpuSets.asProperties());
        s.putAll(cpuLimits.asProperties());
        s.put("jvm.jmeter", String.join(" ", JMeterLoad.heap(jmeterHeapMb)));
        s.put("jvm.services", String.join(" ", LocalDeployment.APP_JVM));
        s.put("jvm.mongo", String.join(" ", LocalDeployment.MONGO_JVM));
        s.put("jvm.nettyProxies", String.join(" ", ProxyLaunch.NETTY_JVM));
        return s;
    }
}
