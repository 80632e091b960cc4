package dev.meshbench.dataplane.admin;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** HTTP/1.1 pipeline of the admin endpoint. */
public final class AdminInitializer extends ChannelInitializer<SocketChannel> {
    /** Largest {@code PUT /config} body: a command's arguments, a few KiB even for an ingress gateway's routes; larger is 413. */
    static final int MAX_BODY_BYTES = 256 * 1024;

    private final String component;
    private final Supplier<String> statsJson;
    private final BooleanSupplier ready;
    private final ConfigEndpoint config;

    public AdminInitializer(String component, Supplier<String> statsJson, BooleanSupplier ready, ConfigEndpoint config) {
        this.component = component;
        this.statsJson = statsJson;
        this.ready = ready;
        this.config = config;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ch.pipeline().addLast("http", new HttpServerCodec(4096, 8192, 8192));
        ch.pipeline().addLast("aggregate", new HttpObjectAggregator(MAX_BODY_BYTES));
        ch.pipeline().addLast("admin", new AdminHandler(component, statsJson, ready, config));
    }
}
