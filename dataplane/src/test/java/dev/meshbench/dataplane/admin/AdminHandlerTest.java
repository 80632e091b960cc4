package dev.meshbench.dataplane.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.meshbench.dataplane.config.ConfigRefusedException;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the admin endpoint's /config")
class AdminHandlerTest {
    /** Records each PUT and answers it when the test completes the future. */
    private static final class RecordingConfig implements ConfigEndpoint {
        final List<String> puts = new ArrayList<>();
        final CompletableFuture<String> answer = new CompletableFuture<>();

        @Override
        public String configJson() {
            return "{\"version\":\"v1\",\"listeners\":[]}";
        }

        @Override
        public CompletableFuture<String> putConfig(String version, String body) {
            puts.add(version + "|" + body);
            return answer;
        }
    }

    private final RecordingConfig config = new RecordingConfig();
    private final EmbeddedChannel channel = new EmbeddedChannel(new AdminHandler("sidecar-booking", () -> "{}", () -> true, config));

    private static FullHttpRequest request(HttpMethod method, String uri, String body) {
        FullHttpRequest r = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri, Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
        return r;
    }

    private String answer() {
        channel.runPendingTasks();
        FullHttpResponse res = channel.readOutbound();
        if (res == null) {
            return null;
        }
        try {
            return res.status().code() + " " + res.content().toString(StandardCharsets.UTF_8);
        } finally {
            res.release();
        }
    }

    @Test
    @DisplayName("answers a PUT only once the configuration is applied, and stops reading the connection until then")
    void putAnsweredWhenApplied() {
        channel.writeInbound(request(HttpMethod.PUT, "/config?version=v2", "--listener\nname=mongo,port=0,upstream=127.0.0.1:1\n"));
        assertEquals(List.of("v2|--listener\nname=mongo,port=0,upstream=127.0.0.1:1\n"), config.puts);
        assertNull(answer(), "not answered before it is applied");
        assertEquals(false, channel.config().isAutoRead());
        config.answer.complete("{\"version\":\"v2\",\"listeners\":[]}");
        assertEquals("200 {\"version\":\"v2\",\"listeners\":[]}\n", answer());
        assertEquals(true, channel.config().isAutoRead());
    }

    @Test
    @DisplayName("answers a refused PUT with the refusal's status and message")
    void putRefused() {
        channel.writeInbound(request(HttpMethod.PUT, "/config?version=v2", "--io-threads\n3\n"));
        config.answer.completeExceptionally(ConfigRefusedException.conflict("sidecar: --io-threads cannot change"));
        assertEquals("409 sidecar: --io-threads cannot change\n", answer());
    }

    @Test
    @DisplayName("hands on no version when ?version= is missing or given twice (the endpoint refuses it)")
    void versionMissingOrTwice() {
        channel.writeInbound(request(HttpMethod.PUT, "/config", "x"));
        channel.writeInbound(request(HttpMethod.PUT, "/config?version=a&version=b", "y"));
        assertEquals(List.of("null|x", "null|y"), config.puts);
    }

    @Test
    @DisplayName("serves GET /config, and answers 405 naming GET, HEAD and PUT for another method")
    void getAndOtherMethods() {
        channel.writeInbound(request(HttpMethod.GET, "/config", ""));
        assertEquals("200 {\"version\":\"v1\",\"listeners\":[]}\n", answer());
        channel.writeInbound(request(HttpMethod.POST, "/config", "x"));
        channel.runPendingTasks();
        FullHttpResponse res = channel.readOutbound();
        assertEquals(405, res.status().code());
        assertEquals("GET, HEAD, PUT", res.headers().get(HttpHeaderNames.ALLOW));
        res.release();
        channel.writeInbound(request(HttpMethod.PUT, "/stats", "x"));
        assertEquals("405 only GET is served\n", answer());
        assertEquals(List.of(), config.puts);
    }
}
