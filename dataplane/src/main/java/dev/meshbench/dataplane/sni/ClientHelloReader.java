package dev.meshbench.dataplane.sni;

import dev.meshbench.dataplane.config.DnsNames;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Reads the server name (RFC 6066 {@code server_name}) from a TLS ClientHello without consuming or decrypting
 * anything. The bytes may arrive in any number of TCP reads, and the ClientHello may span several TLS records:
 * call {@link #read} again with all bytes received so far until the answer is not {@link ClientHelloResult.NeedMore}.
 * Anything that is not a TLS handshake record, a malformed message or a ClientHello longer than the limit is
 * {@link ClientHelloResult.Invalid}, as early as the bytes allow.
 */
public final class ClientHelloReader {
    /** Default ceiling for the ClientHello message: generous for post-quantum key shares, small for a buffer. */
    public static final int DEFAULT_MAX_CLIENT_HELLO = 16 * 1024;

    private static final int RECORD_HEADER = 5;
    private static final int CONTENT_HANDSHAKE = 22;
    private static final int HANDSHAKE_CLIENT_HELLO = 1;
    private static final int MAX_RECORD_PAYLOAD = 16 * 1024;
    private static final int EXTENSION_SERVER_NAME = 0;
    private static final int NAME_TYPE_HOST = 0;

    private final int maxClientHello;

    public ClientHelloReader() {
        this(DEFAULT_MAX_CLIENT_HELLO);
    }

    /** @param maxClientHello largest ClientHello message accepted, in bytes (at least 64) */
    public ClientHelloReader(int maxClientHello) {
        if (maxClientHello < 64) {
            throw new IllegalArgumentException("max ClientHello length must be at least 64 bytes (got " + maxClientHello + ")");
        }
        this.maxClientHello = maxClientHello;
    }

    /** Looks at {@code in} from its reader index to its writer index; does not change either. */
    public ClientHelloResult read(ByteBuf in) {
        int pos = in.readerIndex();
        int end = in.writerIndex();
        // Handshake bytes gathered from the records seen so far, allocated once the length is known.
        byte[] handshake = null;
        int gathered = 0;
        byte[] header = new byte[4];
        int headerGathered = 0;
        boolean firstRecord = true;
        while (true) {
            int available = end - pos;
            if (available < 1) {
                return ClientHelloResult.NEED_MORE;
            }
            int type = in.getUnsignedByte(pos);
            if (type != CONTENT_HANDSHAKE) {
                return new ClientHelloResult.Invalid(firstRecord
                        ? String.format("not a TLS handshake (first byte 0x%02x)", type)
                        : String.format("record of type %d inside the ClientHello", type));
            }
            if (available >= 2 && in.getUnsignedByte(pos + 1) != 3) {
                return new ClientHelloResult.Invalid(String.format("unsupported record version %d.x", in.getUnsignedByte(pos + 1)));
            }
            if (available < RECORD_HEADER) {
                return ClientHelloResult.NEED_MORE;
            }
            int recordLength = in.getUnsignedShort(pos + 3);
            if (recordLength == 0 || recordLength > MAX_RECORD_PAYLOAD) {
                return new ClientHelloResult.Invalid("TLS record length " + recordLength + " is out of range 1-" + MAX_RECORD_PAYLOAD);
            }
            int payload = pos + RECORD_HEADER;
            int payloadEnd = payload + recordLength;
            // Use what has arrived of this record; the header check below can refuse before the record completes.
            int usableEnd = Math.min(payloadEnd, end);
            for (int i = payload; i < usableEnd; i++) {
                if (headerGathered < 4) {
                    header[headerGathered++] = in.getByte(i);
                    if (headerGathered == 4) {
                        if ((header[0] & 0xff) != HANDSHAKE_CLIENT_HELLO) {
                            return new ClientHelloResult.Invalid("first handshake message is type " + (header[0] & 0xff) + ", not ClientHello");
                        }
                        int length = ((header[1] & 0xff) << 16) | ((header[2] & 0xff) << 8) | (header[3] & 0xff);
                        if (length > maxClientHello) {
                            return new ClientHelloResult.Invalid("ClientHello of " + length + " bytes exceeds the limit of " + maxClientHello);
                        }
                        if (length < 38) {
                            return new ClientHelloResult.Invalid("ClientHello of " + length + " bytes is too short");
                        }
                        handshake = new byte[length];
                    }
                } else {
                    int take = Math.min(usableEnd - i, handshake.length - gathered);
                    in.getBytes(i, handshake, gathered, take);
                    gathered += take;
                    if (gathered == handshake.length) {
                        return parseBody(handshake);
                    }
                    break;
                }
            }
            if (usableEnd < payloadEnd) {
                return ClientHelloResult.NEED_MORE;
            }
            pos = payloadEnd;
            firstRecord = false;
        }
    }

    private static ClientHelloResult parseBody(byte[] body) {
        Cursor c = new Cursor(body);
        try {
            int legacyVersion = c.u16("client version");
            if ((legacyVersion >> 8) != 3) {
                return new ClientHelloResult.Invalid(String.format("unsupported client version 0x%04x", legacyVersion));
            }
            c.skip(32, "random");
            int sessionId = c.u8("session id length");
            if (sessionId > 32) {
                return new ClientHelloResult.Invalid("session id of " + sessionId + " bytes is longer than 32");
            }
            c.skip(sessionId, "session id");
            int suites = c.u16("cipher suites length");
            if (suites < 2 || suites % 2 != 0) {
                return new ClientHelloResult.Invalid("cipher suites length " + suites + " is not a positive even number");
            }
            c.skip(suites, "cipher suites");
            int compressions = c.u8("compression methods length");
            if (compressions < 1) {
                return new ClientHelloResult.Invalid("no compression methods");
            }
            c.skip(compressions, "compression methods");
            if (c.remaining() == 0) {
                return ClientHelloResult.NO_SERVER_NAME;
            }
            int extensionsLength = c.u16("extensions length");
            if (extensionsLength != c.remaining()) {
                return new ClientHelloResult.Invalid("extensions length " + extensionsLength + " does not match the "
                        + c.remaining() + " bytes left");
            }
            String serverName = null;
            while (c.remaining() > 0) {
                int type = c.u16("extension type");
                int length = c.u16("extension length");
                if (length > c.remaining()) {
                    return new ClientHelloResult.Invalid("extension " + type + " claims " + length + " bytes, " + c.remaining() + " left");
                }
                if (type == EXTENSION_SERVER_NAME) {
                    if (serverName != null) {
                        return new ClientHelloResult.Invalid("server_name extension appears twice");
                    }
                    ClientHelloResult r = parseServerNames(new Cursor(c.take(length, "server_name")));
                    if (!(r instanceof ClientHelloResult.ServerName sn)) {
                        return r;
                    }
                    serverName = sn.name();
                } else {
                    c.skip(length, "extension " + type);
                }
            }
            return serverName == null ? ClientHelloResult.NO_SERVER_NAME : new ClientHelloResult.ServerName(serverName);
        } catch (Truncated e) {
            return new ClientHelloResult.Invalid("ClientHello ends inside the " + e.getMessage());
        }
    }

    private static ClientHelloResult parseServerNames(Cursor c) {
        int listLength = c.u16("server name list length");
        if (listLength != c.remaining() || listLength == 0) {
            return new ClientHelloResult.Invalid("server name list length " + listLength + " does not match its extension");
        }
        String host = null;
        while (c.remaining() > 0) {
            int nameType = c.u8("server name type");
            int length = c.u16("server name length");
            byte[] name = c.take(length, "server name");
            if (nameType == NAME_TYPE_HOST) {
                if (host != null) {
                    return new ClientHelloResult.Invalid("two host names in server_name");
                }
                String text = new String(name, StandardCharsets.ISO_8859_1);
                String normalized = DnsNames.normalize(text);
                if (!DnsNames.isHostName(normalized)) {
                    return new ClientHelloResult.Invalid("server name of " + length + " bytes is not a valid DNS host name");
                }
                host = normalized;
            }
        }
        return host == null ? ClientHelloResult.NO_SERVER_NAME : new ClientHelloResult.ServerName(host);
    }

    /** Bounds-checked reading of a byte array. */
    private static final class Cursor {
        private final byte[] b;
        private int pos;

        Cursor(byte[] b) {
            this.b = b;
        }

        int remaining() {
            return b.length - pos;
        }

        int u8(String what) {
            need(1, what);
            return b[pos++] & 0xff;
        }

        int u16(String what) {
            need(2, what);
            int v = ((b[pos] & 0xff) << 8) | (b[pos + 1] & 0xff);
            pos += 2;
            return v;
        }

        void skip(int n, String what) {
            need(n, what);
            pos += n;
        }

        byte[] take(int n, String what) {
            need(n, what);
            byte[] out = new byte[n];
            System.arraycopy(b, pos, out, 0, n);
            pos += n;
            return out;
        }

        private void need(int n, String what) {
            if (n > remaining()) {
                throw new Truncated(what);
            }
        }
    }

    private static final class Truncated extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Truncated(String what) {
            super(what, null, false, false);
        }
    }
}
