package dev.meshbench.dataplane.admin;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** HTTP/1.1 pipeline of the admin endpoint. */
public final class AdminInitializer extends ChannelInitializer<SocketChannel> {
    private final String component;
    private final Supplier<String> statsJson;
    private final BooleanSupplier ready;

    public AdminInitializer(String component, Supplier<String> statsJson, BooleanSupplier ready) {
        this.component = component;
        this.statsJson = statsJson;
        this.ready = ready;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ch.pipeline().addLast("http", new HttpServerCodec(4096, 8192, 8192));
        ch.pipeline().addLast("aggregate", new HttpObjectAggregator(8192));
        ch.pipeline().addLast("admin", new AdminHandler(component, statsJson, ready));
    }
}
