package dev.meshbench.orchestrator.deploy;

import dev.meshbench.model.EgressCase;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * For tests: a deployment that runs nothing. It holds one case, is ready at once, has no components and no samples,
 * answers at an address where nothing listens, and never fails. A test overrides what it exercises.
 */
public class IdleDeployment implements Deployment {
    private final EgressCase egressCase;

    public IdleDeployment(EgressCase egressCase) {
        this.egressCase = egressCase;
    }

    @Override
    public EgressCase egressCase() {
        return egressCase;
    }

    @Override
    public void awaitReady(Duration timeout) {
    }

    @Override
    public Endpoints endpoints() {
        return new Endpoints(Map.of("auth", URI.create("http://127.0.0.1:1")), Optional.empty());
    }

    @Override
    public AdminEndpoints serviceAdmin() {
        return new AdminEndpoints(Map.of("auth", URI.create("http://127.0.0.1:2")));
    }

    @Override
    public List<Component> components() {
        return List.of();
    }

    @Override
    public List<ResourceSample> sampleResources() {
        return List.of();
    }

    @Override
    public Optional<String> failure() {
        return Optional.empty();
    }

    @Override
    public void close() {
    }
}
