package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * CPU during one step's measured window, per role and per component. A role is {@code null} when no component
 * of that role was sampled (for example {@code load} on Kubernetes).
 *
 * @param mesh       {@link ComponentRole#MESH}: ingress gateway + sidecars + egress gateway + SNI proxy
 * @param app        auth + customer + flight + booking
 * @param database   MongoDB
 * @param load       JMeter
 * @param attribution mesh CPU split into the MongoDB path and the parts every case shares ({@link MeshPart}); absent
 *                    when some mesh component's MongoDB share is unknown (no per-listener byte counters: runs before
 *                    they were recorded, the Kubernetes target), see {@link MeshAttribution}
 * @param components every sampled component, sorted by role (mesh, app, database, load) then name
 */
@JsonPropertyOrder({"mesh", "app", "database", "load", "attribution", "components"})
public record StepCpu(
        RoleCpu mesh,
        RoleCpu app,
        RoleCpu database,
        RoleCpu load,
        @JsonInclude(JsonInclude.Include.NON_NULL) MeshAttribution attribution,
        @JsonProperty(required = true) List<ComponentCpu> components) {

    /** Without attribution. */
    public StepCpu(RoleCpu mesh, RoleCpu app, RoleCpu database, RoleCpu load, List<ComponentCpu> components) {
        this(mesh, app, database, load, null, components);
    }

    public StepCpu {
        components = List.copyOf(Checks.present("cpu.components", components));
        if (attribution != null && components.stream().anyMatch(c -> c.role() == ComponentRole.MESH
                && c.mongoPathShare() == null)) {
            throw new IllegalArgumentException("cpu.attribution needs the mongoPathShare of every mesh component");
        }
    }

    /** The totals of {@code role}, or {@code null}. */
    public RoleCpu role(ComponentRole role) {
        return switch (role) {
            case MESH -> mesh;
            case APP -> app;
            case DATABASE -> database;
            case LOAD -> load;
        };
    }
}
