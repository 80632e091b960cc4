package dev.meshbench.dataplane.stats;

/**
 * One listener as the admin endpoint reports it.
 *
 * @param name    listener name
 * @param address bound {@code host:port}
 * @param tls     none, mtls-originate or mtls-terminate
 * @param routing where it relays (an upstream, or the route table)
 * @param stats   counters
 */
public record ListenerReport(String name, String address, String tls, String routing, HopStats stats) {
}
