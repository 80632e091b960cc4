package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.model.Service;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a sampled process is, for adding up CPU: a role's CPU figures (the report's "mesh CPU", "app CPU") are the
 * sum over every component of that role, and {@link #definition()} says in words which components those are, for
 * the report's text and the README glossary to quote.
 */
public enum ComponentRole {
    /** Mesh data plane: the ingress gateway, the sidecars, the egress gateway, the SNI proxy. */
    MESH("mesh", List.of(ComponentNames.INGRESS_GATEWAY, ComponentNames.SIDECAR, ComponentNames.EGRESS_GATEWAY,
            ComponentNames.SNI_PROXY)),
    /** The application: the Acmeair services. */
    APP("app", Service.ids()),
    /** The external MongoDB. */
    DATABASE("database", List.of(ComponentNames.MONGO)),
    /** The load generator (JMeter). */
    LOAD("load", List.of("JMeter"));

    private final String id;
    private final List<String> kinds;

    ComponentRole(String id, List<String> kinds) {
        this.id = id;
        this.kinds = kinds;
    }

    /**
     * The kinds of component whose CPU this role adds up, in traffic order: component names as
     * {@link ComponentNames} spells them, {@link ComponentNames#SIDECAR} standing for every service's sidecar.
     */
    public List<String> kinds() {
        return kinds;
    }

    /** The kind of a sampled component: its name, or {@link ComponentNames#SIDECAR} for any service's sidecar. */
    public static String kindOf(String component) {
        return ComponentNames.isSidecar(component) ? ComponentNames.SIDECAR : component;
    }

    /**
     * What the role's sum covers, in words, e.g. {@code ingress gateway + sidecars + egress gateway + SNI proxy} for
     * {@link #MESH}: the one definition the report's method text, its CPU figure and the README glossary use.
     */
    public String definition() {
        return kinds.stream().map(ComponentRole::words).collect(Collectors.joining(" + "));
    }

    private static String words(String kind) {
        String w = kind.replace('-', ' ').replace("sni", "SNI");
        return kind.equals(ComponentNames.SIDECAR) ? w + "s" : w;
    }

    /** The id used in JSON and in {@code cpu-samples.csv}. */
    @JsonValue
    public String id() {
        return id;
    }

    /** Parses an id, naming the allowed values when it is unknown. */
    @JsonCreator
    public static ComponentRole fromId(String id) {
        return Arrays.stream(values()).filter(r -> r.id.equals(id)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("role \"" + id + "\" is not one of " + allowed()));
    }

    /** The allowed ids joined with {@code |}. */
    public static String allowed() {
        return Arrays.stream(values()).map(ComponentRole::id).collect(Collectors.joining("|"));
    }
}
