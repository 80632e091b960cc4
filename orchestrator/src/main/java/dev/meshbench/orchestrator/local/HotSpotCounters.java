package dev.meshbench.orchestrator.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A HotSpot JVM's own performance counters, read from the file it keeps them in ({@code hsperfdata_<user>/<pid>}
 * under the temporary folder, HotSpot's {@code -XX:+UsePerfData}, on by default): the JIT compiler's total time, the
 * figure Micrometer's {@code jvm.compilation.time} and {@code CompilationMXBean} report, for every JVM a run starts
 * (services, Netty proxies, MongoDB, JMeter) without asking anything of them.
 *
 * <p>Written here rather than taken from a library: the JDK's own reader ({@code sun.jvmstat.monitor}) is in a module
 * it does not export, so it works only under {@code --add-exports}, which Maven's JVM (where the kit often runs) does
 * not have; {@code jstat}/{@code jcmd} would start a JVM per read, seconds of CPU on a machine being measured. The
 * format is HotSpot's {@code PerfDataPrologue} and {@code PerfDataEntry} ({@code perfMemory.hpp}): a 32-byte prologue
 * (magic {@code 0xcafec0c0}, byte order, version, entry offset and count), then entries of name and value.
 */
public final class HotSpotCounters {
    private static final int MAGIC = 0xcafec0c0;
    /** Where HotSpot keeps the files on Linux and macOS: {@code /tmp}, not {@code java.io.tmpdir}. */
    private static final Path TMP = Path.of("/tmp");

    private HotSpotCounters() {
    }

    /**
     * CPU time the JIT compiler threads of the JVM {@code pid} have used, milliseconds: its {@code C1 CompilerThre*} and
     * {@code C2 CompilerThre*} threads' user + system time from {@code /proc/<pid>/task/<tid>/stat}. The JIT's own
     * compilation time ({@link #compilationMillis}) counts each compilation's elapsed time, which on a busy machine is
     * mostly waiting for a core (seen here: 600 ms of "compilation" in a 10-s window whose compiler threads used 20 ms
     * of CPU); this is the work the JIT does. Where there is no {@code /proc}, HotSpot's compilation time stands in.
     */
    public static OptionalDouble jitMillis(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (!Files.isDirectory(tasks)) {
            return compilationMillis(pid);
        }
        long ticks = 0;
        boolean jvm = false;
        try (var threads = Files.newDirectoryStream(tasks)) {
            for (Path t : threads) {
                String name;
                String stat;
                try {
                    name = Files.readString(t.resolve("comm")).strip();
                    if (!name.startsWith("C1 CompilerThre") && !name.startsWith("C2 CompilerThre")) {
                        continue;
                    }
                    stat = Files.readString(t.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                jvm = true;
                // fields after the command's closing parenthesis: state is field 3, utime 14, stime 15
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            }
        } catch (IOException | RuntimeException e) {
            return OptionalDouble.empty();
        }
        // /proc counts in USER_HZ, 100 per second on every Linux the kit runs on
        return jvm ? OptionalDouble.of(ticks * 10.0) : OptionalDouble.empty();
    }

    /** The file of the JVM with process id {@code pid} run by this user. */
    public static Path fileOf(long pid) {
        return TMP.resolve("hsperfdata_" + System.getProperty("user.name")).resolve(Long.toString(pid));
    }

    /**
     * Total JIT compilation time of the JVM {@code pid} in milliseconds ({@code java.ci.totalTime} over
     * {@code sun.os.hrt.frequency}); empty when it is not a HotSpot JVM of this user, has gone, or keeps no counters.
     */
    public static OptionalDouble compilationMillis(long pid) {
        return compilationMillis(fileOf(pid));
    }

    /** As {@link #compilationMillis(long)}, from the counters file {@code file}. */
    static OptionalDouble compilationMillis(Path file) {
        Map<String, Long> c;
        try {
            c = longs(Files.readAllBytes(file));
        } catch (IOException | RuntimeException e) {
            return OptionalDouble.empty(); // gone, not ours, or caught mid-write: the next read will tell
        }
        Long ticks = c.getOrDefault("java.ci.totalTime", c.get("sun.ci.totalTime"));
        Long frequency = c.get("sun.os.hrt.frequency");
        if (ticks == null || frequency == null || frequency <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(ticks * 1000.0 / frequency);
    }

    /** Every scalar {@code long} counter of a counters file, by name. */
    static Map<String, Long> longs(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.remaining() < 32 || b.getInt(0) != MAGIC) {
            throw new IllegalArgumentException("not a HotSpot performance counters file");
        }
        b.order(b.get(4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int entry = b.getInt(24);
        int count = b.getInt(28);
        Map<String, Long> out = new HashMap<>();
        for (int i = 0; i < count && entry + 20 <= bytes.length; i++) {
            int length = b.getInt(entry);
            if (length <= 0) {
                break;
            }
            int nameAt = entry + b.getInt(entry + 4);
            int vectorLength = b.getInt(entry + 8);
            byte type = b.get(entry + 12);
            int dataAt = entry + b.getInt(entry + 16);
            if (type == 'J' && vectorLength == 0 && dataAt + 8 <= bytes.length) {
                int end = nameAt;
                while (end < bytes.length && bytes[end] != 0) {
                    end++;
                }
                out.put(new String(bytes, nameAt, end - nameAt, StandardCharsets.US_ASCII), b.getLong(dataAt));
            }
            entry += length;
        }
        return out;
    }
}
