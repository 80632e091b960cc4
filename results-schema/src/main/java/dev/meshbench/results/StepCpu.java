package dev.meshbench.results;

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
 * @param components every sampled component, sorted by role (mesh, app, database, load) then name
 */
@JsonPropertyOrder({"mesh", "app", "database", "load", "components"})
public record StepCpu(
        RoleCpu mesh,
        RoleCpu app,
        RoleCpu database,
        RoleCpu load,
        @JsonProperty(required = true) List<ComponentCpu> components) {

    public StepCpu {
        components = List.copyOf(Checks.present("cpu.components", components));
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
