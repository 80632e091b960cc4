package dev.meshbench.dataplane;

import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.ConfigVersion;
import dev.meshbench.dataplane.config.ListenerConfig;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A component's configuration with its version: what it starts with, and what {@code PUT /config} or
 * {@link DataplaneBootstrap#apply} switches it to.
 *
 * @param version the configuration's version ({@code --config-version}, or the {@code ?version=} of {@code PUT /config})
 * @param config  the component; a later revision may differ from the running one in its listeners only
 * @param specs   listener name to the text that defined it, for {@code GET /config} (a sidecar's {@code --listener}
 *                value as given; the listener options of the other commands); a listener without one is described by
 *                {@link ListenerConfig#describe()}
 */
public record ConfigRevision(ConfigVersion version, ComponentConfig config, Map<String, String> specs) {
    public ConfigRevision {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(config, "config");
        Map<String, String> given = specs == null ? Map.of() : specs;
        Set<String> names = new HashSet<>();
        Map<String, String> all = new LinkedHashMap<>();
        for (ListenerConfig l : config.listeners()) {
            names.add(l.name());
            String spec = given.get(l.name());
            all.put(l.name(), spec == null ? l.describe() : spec);
        }
        for (String name : given.keySet()) {
            if (!names.contains(name)) {
                throw new IllegalArgumentException("a spec is given for listener " + name + ", which " + config.name() + " does not have");
            }
        }
        specs = Collections.unmodifiableMap(all);
    }

    /** {@code config} as version {@link ConfigVersion#INITIAL}, each listener described by {@link ListenerConfig#describe()}. */
    public static ConfigRevision initial(ComponentConfig config) {
        return new ConfigRevision(ConfigVersion.INITIAL, config, Map.of());
    }
}
