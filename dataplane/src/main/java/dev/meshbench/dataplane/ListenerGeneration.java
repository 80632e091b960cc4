package dev.meshbench.dataplane;

import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.http.UpstreamPools;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;

/**
 * One configuration of one listener and the client connections accepted under it. When a new configuration replaces
 * it (or removes the listener) it is retired after the drain time: its connections are closed (each relay then closes
 * its upstream side after flushing) and its upstream pools too.
 */
final class ListenerGeneration {
    private final ListenerConfig config;
    private final ChannelInitializer<SocketChannel> pipeline;
    private final UpstreamPools pools;
    private final ChannelGroup connections;
    private boolean retired;

    /**
     * @param config   the listener configuration
     * @param pipeline builds an accepted connection's pipeline under it
     * @param pools    the HTTP listener's upstream pools, null for a TCP relay
     */
    ListenerGeneration(ListenerConfig config, ChannelInitializer<SocketChannel> pipeline, UpstreamPools pools) {
        this.config = config;
        this.pipeline = pipeline;
        this.pools = pools;
        this.connections = new DefaultChannelGroup(config.name(), GlobalEventExecutor.INSTANCE);
    }

    ListenerConfig config() {
        return config;
    }

    ChannelInitializer<SocketChannel> pipeline() {
        return pipeline;
    }

    /** Takes a newly accepted connection; false once retired (the connection then belongs to the next generation). */
    synchronized boolean admit(Channel ch) {
        if (retired) {
            return false;
        }
        connections.add(ch); // removed again when it closes
        return true;
    }

    /** Client connections open under this configuration. */
    int openConnections() {
        return connections.size();
    }

    /** Closes every connection accepted under this configuration, and its upstream pools; safe to call twice. */
    void retire() {
        synchronized (this) {
            if (retired) {
                return;
            }
            retired = true;
        }
        connections.close();
        if (pools != null) {
            pools.close();
        }
    }
}
