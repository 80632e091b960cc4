package dev.meshbench.microbenchmarks;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A loopback HTTP/1.1 keep-alive echo server for {@link SideBySide}: every request is answered 200 with its own
 * body, or, without one, a fixed 16-byte body; it never closes a keep-alive connection. Plain TCP, in this JVM.
 */
final class HttpEchoServer implements AutoCloseable {
    static final byte[] DEFAULT_BODY = "meshbench echo\r\n".getBytes(StandardCharsets.US_ASCII);

    private final EventLoopGroup group;
    private final Channel server;

    HttpEchoServer(int threads) throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("http-echo"), NioIoHandler.newFactory());
        try {
            server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new EchoHandler());
                        }
                    })
                    .bind("127.0.0.1", 0).sync().channel();
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public void close() {
        server.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    private static final class EchoHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            ByteBuf body = req.content().isReadable() ? req.content().retainedDuplicate() : Unpooled.wrappedBuffer(DEFAULT_BODY);
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
            res.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN);
            HttpUtil.setContentLength(res, body.readableBytes());
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            HttpUtil.setKeepAlive(res, keepAlive);
            if (keepAlive) {
                ctx.writeAndFlush(res);
            } else {
                ctx.writeAndFlush(res).addListener(f -> ctx.close());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
