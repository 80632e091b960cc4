package dev.meshbench.microbenchmarks;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fortio-style closed-loop HTTP/1.1 load client: {@code connections} keep-alive connections, each sending its
 * next {@code GET} as soon as the previous response arrived (no rate limit: the maximum req/s), for a warm-up and
 * then a measured interval. Counts only responses that complete inside the measured interval; a non-200 answer, a
 * failed connect or a dropped connection counts as an error (a dropped connection is reopened).
 */
final class HttpLoadClient {
    /** What one measured interval gave. */
    record Result(long requests, double seconds, long errors, long[] sortedLatencyNanos) {
        double requestsPerSecond() {
            return requests / seconds;
        }

        /** The latency at quantile {@code q} (0..1), in milliseconds; NaN without samples. */
        double quantileMillis(double q) {
            if (sortedLatencyNanos.length == 0) {
                return Double.NaN;
            }
            int i = (int) Math.ceil(q * sortedLatencyNanos.length) - 1;
            return sortedLatencyNanos[Math.max(0, Math.min(i, sortedLatencyNanos.length - 1))] / 1e6;
        }
    }

    private final int connections;
    private final int threads;

    HttpLoadClient(int connections, int threads) {
        if (connections < 1) {
            throw new IllegalArgumentException("connections (" + connections + ") must be at least 1");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("client threads (" + threads + ") must be at least 1");
        }
        this.connections = connections;
        this.threads = threads;
    }

    /** Runs against {@code target}: {@code warmupMillis} unrecorded, then {@code measureMillis} recorded. */
    Result run(InetSocketAddress target, long warmupMillis, long measureMillis) throws InterruptedException {
        Recorder rec = new Recorder();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("load-client"), NioIoHandler.newFactory());
        List<Conn> conns = new ArrayList<>();
        try {
            Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5000);
            for (int i = 0; i < connections; i++) {
                Conn c = new Conn(b, target, rec);
                conns.add(c);
                c.connect();
            }
            Thread.sleep(warmupMillis);
            long start = System.nanoTime();
            rec.windowStart = start;
            rec.windowEnd = start + TimeUnit.MILLISECONDS.toNanos(measureMillis);
            rec.errorsAtStart = rec.errors.get();
            Thread.sleep(measureMillis);
            rec.stopped = true;
            long errors = rec.errors.get() - rec.errorsAtStart;
            for (Conn c : conns) {
                c.close();
            }
            long[] lat = rec.snapshot();
            Arrays.sort(lat);
            return new Result(lat.length, measureMillis / 1000.0, errors, lat);
        } finally {
            rec.stopped = true;
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    /** Latencies of the responses completed in the measured window; shared by the client's event loops. */
    private static final class Recorder {
        final AtomicLong errors = new AtomicLong();
        volatile long errorsAtStart;
        volatile long windowStart = Long.MAX_VALUE;
        volatile long windowEnd = Long.MAX_VALUE;
        volatile boolean stopped;
        private long[] samples = new long[1 << 16];
        private int size;

        synchronized void record(long now, long latency) {
            if (now < windowStart || now >= windowEnd) {
                return;
            }
            if (size == samples.length) {
                samples = Arrays.copyOf(samples, size * 2);
            }
            samples[size++] = latency;
        }

        synchronized long[] snapshot() {
            return Arrays.copyOf(samples, size);
        }
    }

    /** One keep-alive connection in a closed loop. */
    private static final class Conn extends SimpleChannelInboundHandler<FullHttpResponse> {
        private final Bootstrap bootstrap;
        private final InetSocketAddress target;
        private final Recorder rec;
        private final String host;
        private volatile Channel channel;
        private long sentAt;

        Conn(Bootstrap bootstrap, InetSocketAddress target, Recorder rec) {
            this.bootstrap = bootstrap;
            this.target = target;
            this.rec = rec;
            this.host = target.getHostString() + ":" + target.getPort();
        }

        void connect() {
            if (rec.stopped) {
                return;
            }
            Conn self = this;
            ChannelFuture f = bootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1 << 20), self);
                }
            }).connect(target);
            channel = f.channel();
            f.addListener(done -> {
                if (!done.isSuccess() && !rec.stopped) {
                    rec.errors.incrementAndGet();
                    f.channel().eventLoop().schedule(this::connect, 100, TimeUnit.MILLISECONDS);
                }
            });
        }

        void close() {
            Channel ch = channel;
            if (ch != null) {
                ch.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            }
        }

        @Override
        public boolean isSharable() {
            return true; // one handler per connection, re-added to the new channel after a reconnect
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            send(ctx);
        }

        private void send(ChannelHandlerContext ctx) {
            if (rec.stopped) {
                return;
            }
            FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/echo");
            req.headers().set(HttpHeaderNames.HOST, host);
            req.headers().set(HttpHeaderNames.CONTENT_LENGTH, 0);
            sentAt = System.nanoTime();
            ctx.writeAndFlush(req);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse res) {
            long now = System.nanoTime();
            if (res.status().equals(HttpResponseStatus.OK) && res.decoderResult().isSuccess()) {
                rec.record(now, now - sentAt);
            } else {
                rec.errors.incrementAndGet();
            }
            send(ctx);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!rec.stopped) {
                rec.errors.incrementAndGet();
                ctx.channel().eventLoop().schedule(this::connect, 10, TimeUnit.MILLISECONDS);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
