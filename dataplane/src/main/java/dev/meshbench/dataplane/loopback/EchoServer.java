package dev.meshbench.dataplane.loopback;

import dev.meshbench.pki.IssuedCertificate;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;

/**
 * A TLS server standing in for MongoDB in tests and benchmarks (real TLS with a certificate for the Mongo host
 * name, on loopback, port 0). {@link Mode#ECHO} returns every byte; {@link Mode#ACK_SINK} reads frames of an
 * 8-byte big-endian length plus that many bytes and answers each with the 8-byte length, for one-way bulk
 * transfer. Not a component process: a tool for measuring and testing the relays.
 */
public final class EchoServer implements AutoCloseable {
    /** What the server does with the bytes it reads. */
    public enum Mode { ECHO, ACK_SINK }

    private final EventLoopGroup group;
    private final Channel server;
    private final AtomicLong accepted = new AtomicLong();

    private EchoServer(IssuedCertificate certificate, Mode mode, int threads) throws SSLException, InterruptedException {
        SslContext tls = certificate == null ? null
                : SslContextBuilder.forServer(certificate.privateKey(), certificate.chain()).sslProvider(SslProvider.JDK)
                        .protocols("TLSv1.3", "TLSv1.2").build();
        group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("echo-server"), NioIoHandler.newFactory());
        try {
            server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.AUTO_READ, false)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            accepted.incrementAndGet();
                            if (tls != null) {
                                ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                            }
                            ch.pipeline().addLast(mode == Mode.ECHO ? new EchoHandler() : new AckSinkHandler());
                        }
                    })
                    .bind("127.0.0.1", 0).sync().channel();
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** A TLS echo server presenting {@code certificate} (null: plain TCP). */
    public static EchoServer start(IssuedCertificate certificate, Mode mode) {
        return start(certificate, mode, 1);
    }

    public static EchoServer start(IssuedCertificate certificate, Mode mode, int threads) {
        try {
            return new EchoServer(certificate, mode, threads);
        } catch (SSLException e) {
            throw new IllegalStateException("echo server: building the TLS context failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("echo server: interrupted while binding", e);
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /** TCP connections accepted so far. */
    public long accepted() {
        return accepted.get();
    }

    @Override
    public void close() {
        server.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    private static final class EchoHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.read();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    ctx.read();
                } else {
                    ctx.close();
                }
            });
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    private static final class AckSinkHandler extends ChannelInboundHandlerAdapter {
        private final byte[] header = new byte[8];
        private int headerBytes;
        private long remaining = -1;
        private long frameLength;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.read();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                while (in.isReadable()) {
                    if (remaining < 0) {
                        int take = Math.min(8 - headerBytes, in.readableBytes());
                        in.readBytes(header, headerBytes, take);
                        headerBytes += take;
                        if (headerBytes == 8) {
                            frameLength = java.nio.ByteBuffer.wrap(header).getLong();
                            remaining = frameLength;
                            headerBytes = 0;
                        }
                    }
                    if (remaining >= 0) {
                        int take = (int) Math.min(remaining, in.readableBytes());
                        in.skipBytes(take);
                        remaining -= take;
                        if (remaining == 0) {
                            ctx.write(ctx.alloc().buffer(8).writeLong(frameLength));
                            remaining = -1;
                        }
                    }
                }
            } finally {
                in.release();
            }
            ctx.flush();
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.read();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
