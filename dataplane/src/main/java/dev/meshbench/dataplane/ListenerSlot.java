package dev.meshbench.dataplane;

import dev.meshbench.dataplane.config.ListenerConfig;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;

/**
 * A bound listener port and the configuration its new connections get. The server channel stays bound across
 * configurations (no gap in which a client is refused); each accepted connection is built by the generation in force
 * when it is initialized, and belongs to it until it closes or that generation is retired.
 */
final class ListenerSlot extends ChannelInitializer<SocketChannel> {
    private volatile ListenerGeneration current;
    private Channel serverChannel;

    ListenerSlot(ListenerGeneration first) {
        this.current = first;
    }

    void bound(Channel server) {
        this.serverChannel = server;
    }

    Channel serverChannel() {
        return serverChannel;
    }

    InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    ListenerGeneration current() {
        return current;
    }

    ListenerConfig config() {
        return current.config();
    }

    /** New connections get {@code next} from now on; @return the generation it replaces */
    ListenerGeneration swap(ListenerGeneration next) {
        ListenerGeneration old = current;
        current = next;
        return old;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        while (true) {
            ListenerGeneration g = current;
            if (g.admit(ch)) {
                // A ChannelInitializer added to a registered channel runs at once: the generation's pipeline follows this one.
                ch.pipeline().addLast(g.pipeline());
                return;
            }
            if (g == current) { // retired with nothing after it: the listener is being closed
                ch.close();
                return;
            }
        }
    }
}
