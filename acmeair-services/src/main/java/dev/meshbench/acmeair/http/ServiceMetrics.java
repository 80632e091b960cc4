package dev.meshbench.acmeair.http;

import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/** A Prometheus registry per service, tagged {@code service=<name>}, with JVM memory, GC, threads and CPU. */
public final class ServiceMetrics {
    private ServiceMetrics() {
    }

    /** A new registry; binders that hold resources (the GC listener) are added to {@code closeables}. */
    public static PrometheusMeterRegistry create(String service, java.util.List<AutoCloseable> closeables) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().commonTags("service", service);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        closeables.add(gc);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry); // system.cpu.usage, process.cpu.usage, process.cpu.time
        new UptimeMetrics().bindTo(registry);
        return registry;
    }
}
