package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the SNI proxy's nginx.conf must say, without running nginx (see {@link NginxConfigTest} for that). */
class NginxConfigRendererTest {
    private final TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SNI, true);
    private final LocalAddresses addrs = EnvoyFixtures.fixedAddresses(plan);

    private String render(Path workDir, Optional<Path> module) {
        return NginxConfigRenderer.render(plan, plan.component("sni-proxy"), addrs, workDir, 3, module);
    }

    @Test
    @DisplayName("routes the wildcard to MongoDB, refuses everything else, and keeps its files in the work folder")
    void content() {
        String conf = render(Path.of("/w"), Optional.of(Path.of("/m/ngx_stream_module.so")));
        assertTrue(conf.contains("load_module /m/ngx_stream_module.so;\n"), conf);
        assertTrue(conf.contains("worker_processes 3;\n"));
        assertTrue(conf.contains("daemon off;\n"));
        assertTrue(conf.contains("pid /w/nginx.pid;\n"));
        assertTrue(conf.contains("error_log stderr info;\n"));
        assertTrue(conf.contains("*.meshbench.test " + addrs.address(new Endpoint("mongo", "mongo")) + ";\n"), conf);
        assertTrue(conf.contains("default \"\";\n"), "an unknown name maps to no upstream");
        assertTrue(conf.contains("access_log /w/sni-proxy-access.log meshbench;\n"));
        assertTrue(conf.contains("listen 127.0.0.1:" + addrs.port("sni-proxy", "sni") + ";\n"));
        assertTrue(conf.contains("ssl_preread on;\n"));
        assertTrue(conf.contains("proxy_pass $meshbench_upstream;\n"));
        assertTrue(conf.indexOf("log_format meshbench") < conf.indexOf("access_log "), "the format is declared before its use");
        assertFalse(conf.contains("http {"), "no http block, so no temporary folders");
    }

    @Test
    @DisplayName("a built-in stream module needs no load_module; paths with spaces are quoted")
    void staticModuleAndQuoting() {
        String conf = render(Path.of("/tmp/my run"), Optional.empty());
        assertFalse(conf.contains("load_module"));
        assertTrue(conf.contains("pid \"/tmp/my run/nginx.pid\";\n"), conf);
        assertThrows(IllegalArgumentException.class, () -> render(Path.of("/tmp/$x"), Optional.empty()));
    }

    @Test
    @DisplayName("nginx runs only the SNI proxy")
    void rejectsOtherComponents() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NginxConfigRenderer.render(plan,
                plan.component("egress-gateway"), addrs, Path.of("/w"), 1, Optional.empty()));
        assertTrue(e.getMessage().contains("egress-gateway"), e.getMessage());
        assertEquals(Path.of("/w/sni-proxy-access.log"), NginxConfigRenderer.accessLog(Path.of("/w")));
    }
}
