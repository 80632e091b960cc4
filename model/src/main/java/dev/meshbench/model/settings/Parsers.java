package dev.meshbench.model.settings;

import dev.meshbench.model.ComponentNames;
import java.math.BigDecimal;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** The parsers the catalogue's settings use; each one's {@link Parser#rule()} is what the reference prints. */
public final class Parsers {
    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern CPU_LIST = Pattern.compile("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");

    private Parsers() {
    }

    /** Any text (trimmed); the empty text too. */
    public static Parser<String> text() {
        return new Parser<>("text", v -> v);
    }

    /** A path or a name of something; not empty. */
    public static Parser<String> nonEmpty(String what) {
        return new Parser<>(what, v -> {
            if (v.isEmpty()) {
                throw new Parser.Invalid("is empty: give " + what);
            }
            return v;
        });
    }

    /** {@code true} or {@code false}, nothing else (a typo must not silently mean false). */
    public static Parser<Boolean> bool() {
        return new Parser<>("`true` or `false`", v -> switch (v.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new Parser.Invalid("must be true or false");
        });
    }

    /** A whole number from {@code min} to {@code max}, of {@code unit} (e.g. "seconds"). */
    public static Parser<Integer> wholeNumber(int min, int max, String unit) {
        String range = max == Integer.MAX_VALUE ? min + " or more" : min + " to " + max;
        String plainUnit = unit.contains(" (") ? unit.substring(0, unit.indexOf(" (")) : unit;
        return new Parser<>(max == Integer.MAX_VALUE ? "a whole number of " + unit + ", " + range : range + " " + unit, v -> {
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new Parser.Invalid("must be a whole number of " + plainUnit);
            }
            if (n < min || n > max) {
                throw new Parser.Invalid(max == Integer.MAX_VALUE ? "must be " + range + " " + unit
                        : "must be between " + min + " and " + max + " " + unit);
            }
            return n;
        });
    }

    /**
     * A decimal number in a range: above or at least {@code min}, below or at most {@code max}.
     *
     * @param example a value to suggest, e.g. "a percent such as 5"
     */
    public static Parser<Double> number(double min, boolean minIncluded, double max, boolean maxIncluded, String example) {
        String from = (minIncluded ? "at least " : "above ") + plain(min);
        String range = max == Double.MAX_VALUE ? from
                : minIncluded && maxIncluded ? "between " + plain(min) + " and " + plain(max)
                : from + " and " + (maxIncluded ? "at most " : "below ") + plain(max);
        return new Parser<>("a number " + range, v -> {
            double d;
            try {
                d = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new Parser.Invalid("not a number; give " + example);
            }
            boolean low = minIncluded ? d >= min : d > min;
            boolean high = maxIncluded ? d <= max : d < max;
            if (!low || !high || Double.isNaN(d)) {
                throw new Parser.Invalid("must be " + range + "; give " + example);
            }
            return d;
        });
    }

    private static final Pattern PERCENT = Pattern.compile("[0-9]+(\\.[0-9]+)?");

    /**
     * A percent of {@code what} from 0 to 100, digits with an optional decimal point ({@code 5}, {@code 2.5}), the
     * form JMeter's Throughput Controller reads a percent in. Nothing else: that controller runs its child every time
     * when it cannot parse its percent ({@code ten}, {@code 10%}), and {@code Float.parseFloat} would take
     * {@code 1e1} or {@code NaN}.
     */
    public static Parser<Double> percent(String what) {
        return new Parser<>("a percent of " + what + " from 0 to 100, decimals allowed (`2.5`)", v -> {
            if (v.isEmpty()) {
                throw new Parser.Invalid("is empty: give a percent of " + what + " from 0 to 100 such as 5 or 2.5 (0 = never)");
            }
            if (!PERCENT.matcher(v).matches()) {
                throw new Parser.Invalid("is not a percent; give a number from 0 to 100 such as 5 or 2.5 (0 = never)");
            }
            double d = Double.parseDouble(v);
            if (d > 100) {
                throw new Parser.Invalid("must be from 0 to 100 percent of " + what);
            }
            return d;
        });
    }

    /** One of {@code allowed} (case-insensitive), as written in {@code allowed}; {@code meaning} explains them. */
    public static Parser<String> oneOf(List<String> allowed, String meaning) {
        String list = String.join(", ", allowed);
        return new Parser<>("one of " + String.join(", ", allowed.stream().map(a -> "`" + a + "`").toList()), v -> {
            for (String a : allowed) {
                if (a.equalsIgnoreCase(v)) {
                    return a;
                }
            }
            throw new Parser.Invalid("must be one of " + list + (meaning.isEmpty() ? "" : " " + meaning));
        });
    }

    /**
     * Client counts of a ramp's steps, comma-separated: positive whole numbers, distinct, at most {@code maxSteps}.
     * Refuses what the JMeter plan could not run, with the plan's reason.
     */
    public static Parser<List<Integer>> clientCounts(int maxSteps) {
        return new Parser<>("up to " + maxSteps + " distinct positive whole numbers, comma-separated", v -> {
            if (v.isEmpty()) {
                throw new Parser.Invalid("must list at least one client count, e.g. 1,5,10,20");
            }
            List<Integer> out = new ArrayList<>();
            for (String part : v.split(",", -1)) {
                String p = part.trim();
                try {
                    out.add(Integer.parseInt(p));
                } catch (NumberFormatException e) {
                    throw new Parser.Invalid("'" + p + "' is not a whole number; give positive client counts like 1,5,10,20");
                }
            }
            for (int c : out) {
                if (c < 1) {
                    throw new Parser.Invalid("client counts must be positive whole numbers");
                }
            }
            if (out.size() > maxSteps) {
                throw new Parser.Invalid("at most " + maxSteps + " steps (the JMeter plan has " + maxSteps + " step groups)");
            }
            if (out.stream().distinct().count() != out.size()) {
                throw new Parser.Invalid("client counts must be distinct (each one names its step in the results)");
            }
            return List.copyOf(out);
        });
    }

    /** Requests per second, comma-separated, each above 0; how many must match is the reader's rule. */
    public static Parser<List<Double>> rates() {
        return new Parser<>("requests per second above 0: one for every step, or one per step, comma-separated", v -> {
            List<Double> rates = new ArrayList<>();
            for (String part : v.split(",", -1)) {
                String p = part.trim();
                double r;
                try {
                    r = Double.parseDouble(p);
                } catch (NumberFormatException e) {
                    throw new Parser.Invalid("'" + p + "' is not a number; give requests per second, e.g. 300, or one per step like 100,200");
                }
                if (!(r > 0) || Double.isInfinite(r)) {
                    throw new Parser.Invalid("rates must be above 0 requests per second");
                }
                rates.add(r);
            }
            return List.copyOf(rates);
        });
    }

    /**
     * {@code rates} (of {@link #rates()}) for a ramp of {@code steps} steps: one rate for every step, or exactly one
     * per step; else {@link Parser.Invalid}. The kit ({@code meshbench.rate}) and the plan ({@code rate}) both apply it.
     */
    public static List<Double> perStep(List<Double> rates, int steps) {
        if (rates.size() == 1) {
            return java.util.Collections.nCopies(steps, rates.get(0));
        }
        if (!rates.isEmpty() && rates.size() != steps) {
            throw new Parser.Invalid("has " + rates.size() + " rates for " + steps + " steps; give one rate, or one per step");
        }
        return List.copyOf(rates);
    }

    /** Names separated by commas, none empty, none twice ({@code what} says what they name). */
    public static Parser<List<String>> names(String what) {
        return new Parser<>(what + ", comma-separated", v -> {
            List<String> out = new ArrayList<>();
            for (String part : v.split(",", -1)) {
                String t = part.trim();
                if (t.isEmpty()) {
                    throw new Parser.Invalid("has an empty entry; give " + what + " separated by commas");
                }
                if (out.contains(t)) {
                    throw new Parser.Invalid("names " + t + " twice");
                }
                out.add(t);
            }
            return List.copyOf(out);
        });
    }

    /** The warm-up before a ramp: {@code stable}, {@code none} (or {@code 0}), or 1 to 3600 seconds; normalized. */
    public static Parser<String> warmup(String stable, String none) {
        return new Parser<>("`" + stable + "`, a number of seconds from 0 to 3600, or `" + none + "`", v -> {
            String w = v.toLowerCase(Locale.ROOT);
            if (w.equals(stable)) {
                return stable;
            }
            if (w.equals("0") || w.equals(none)) {
                return none;
            }
            int seconds;
            try {
                seconds = Integer.parseInt(w);
            } catch (NumberFormatException e) {
                throw new Parser.Invalid("give " + stable + " (until throughput is stable), a number of seconds, or 0 (none)");
            }
            if (seconds < 0 || seconds > 3600) {
                throw new Parser.Invalid("seconds must be 0 to 3600");
            }
            return Integer.toString(seconds);
        });
    }

    /** {@code <name>:<milliseconds>}, 1 to 60000 ms; which names exist is the reader's rule. */
    public static Parser<java.util.Map.Entry<String, Integer>> nameAndMillis(String example) {
        return new Parser<>("`<service>:<milliseconds>`, 1 to 60000 ms, e.g. `" + example + "`", v -> {
            String[] parts = v.split(":");
            if (parts.length != 2 || parts[0].isBlank()) {
                throw new Parser.Invalid("give <service>:<milliseconds>, e.g. " + example);
            }
            int ms;
            try {
                ms = Integer.parseInt(parts[1].trim());
            } catch (NumberFormatException e) {
                throw new Parser.Invalid("'" + parts[1].trim() + "' is not a whole number of milliseconds");
            }
            if (ms < 1 || ms > 60_000) {
                throw new Parser.Invalid("the milliseconds must be 1 to 60000");
            }
            return java.util.Map.entry(parts[0].trim(), ms);
        });
    }

    /** CPUs as taskset lists them ({@code 0}, {@code 2-3}, {@code 0,2-3}), ranges forwards; spaces dropped. */
    public static Parser<String> cpuList() {
        return new Parser<>("CPUs as `taskset -c` takes them: `0`, `2-3`, `0,2-3`", v -> {
            String list = v.replace(" ", "");
            if (!CPU_LIST.matcher(list).matches()) {
                throw new Parser.Invalid("give CPUs as taskset does, e.g. 0, 2-3 or 0,2-3");
            }
            for (String part : list.split(",")) {
                String[] r = part.split("-");
                if (r.length == 2 && Integer.parseInt(r[0]) > Integer.parseInt(r[1])) {
                    throw new Parser.Invalid("range " + part + " runs backwards");
                }
            }
            return list;
        });
    }

    /** The least CPU limit a CFS quota enforces: 1 ms of CPU per 100-ms period. */
    public static final double MIN_CPU_LIMIT_CORES = 0.01;

    /**
     * CPU limits per component kind, {@code <kind>=<cores>} comma-separated, cores as a pod's
     * {@code resources.limits.cpu} takes them ({@code 0.5} or {@code 500m}), at least
     * {@value #MIN_CPU_LIMIT_CORES}. A kind is {@code sidecar} (every service's sidecar), another mesh component,
     * {@code mongo} or a service ({@link ComponentNames}); each at most once.
     */
    public static Parser<java.util.Map<String, Double>> cpuLimits() {
        List<String> kinds = new ArrayList<>(List.of(ComponentNames.SIDECAR, ComponentNames.INGRESS_GATEWAY,
                ComponentNames.EGRESS_GATEWAY, ComponentNames.SNI_PROXY, ComponentNames.MONGO));
        kinds.addAll(ComponentNames.SERVICES);
        String example = "e.g. sidecar=0.5,egress-gateway=1";
        return new Parser<>("`<kind>=<cores>` comma-separated, e.g. `sidecar=0.5,egress-gateway=1`; kinds: "
                + String.join(", ", kinds.stream().map(k -> "`" + k + "`").toList()) + "; cores as in a pod's "
                + "`resources.limits.cpu` (`0.5`, `500m`), at least " + plain(MIN_CPU_LIMIT_CORES), v -> {
                    java.util.Map<String, Double> out = new java.util.TreeMap<>();
                    for (String part : v.split(",", -1)) {
                        String p = part.trim();
                        int eq = p.indexOf('=');
                        if (eq < 0) {
                            throw new Parser.Invalid("'" + p + "' has no '=': give <kind>=<cores>, " + example);
                        }
                        String kind = p.substring(0, eq).trim();
                        if (!kinds.contains(kind)) {
                            throw new Parser.Invalid("'" + kind + "' is not a component kind; give one of " + String.join(", ", kinds));
                        }
                        double cores = cores(kind, p.substring(eq + 1).trim());
                        if (out.put(kind, cores) != null) {
                            throw new Parser.Invalid("limits " + kind + " twice");
                        }
                    }
                    return java.util.Collections.unmodifiableMap(out);
                });
    }

    /** {@code 0.5} or {@code 500m} as cores, for {@link #cpuLimits()}. */
    private static double cores(String kind, String text) {
        boolean milli = text.endsWith("m");
        double cores;
        try {
            cores = Double.parseDouble(milli ? text.substring(0, text.length() - 1) : text) / (milli ? 1000 : 1);
        } catch (NumberFormatException e) {
            throw new Parser.Invalid("'" + text + "' (" + kind + ") is not a number of cores; give e.g. 0.5 or 500m");
        }
        if (!(cores >= MIN_CPU_LIMIT_CORES) || Double.isInfinite(cores)) {
            throw new Parser.Invalid(kind + "=" + text + ": a limit must be at least " + plain(MIN_CPU_LIMIT_CORES)
                    + " cores (10m), the least a CFS quota enforces");
        }
        return cores;
    }

    /** A Kubernetes namespace name. */
    public static Parser<String> namespace() {
        return new Parser<>("a namespace name (lower-case letters, digits and '-', at most 63)", v -> {
            if (!NAMESPACE.matcher(v).matches()) {
                throw new Parser.Invalid("not a valid namespace name (lower-case letters, digits and '-', at most 63)");
            }
            return v;
        });
    }

    /** {@code namespace/name} of a Kubernetes object. */
    public static Parser<String> namespacedName() {
        return new Parser<>("`<namespace>/<name>`", v -> {
            if (!v.matches("[a-z0-9-]+/[a-z0-9-]+")) {
                throw new Parser.Invalid("must be namespace/name");
            }
            return v;
        });
    }

    /** An absolute http or https URL. */
    public static Parser<URI> httpUrl() {
        return new Parser<>("an `http://` or `https://` URL", v -> {
            URI u;
            try {
                u = new URI(v);
            } catch (java.net.URISyntaxException e) {
                throw new Parser.Invalid("not a URL: " + e.getMessage());
            }
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
                throw new Parser.Invalid("must be an http:// or https:// URL with a host");
            }
            return u;
        });
    }

    /** {@code 10} for 10.0, {@code 0.75} for 0.75: a number as a user types it. */
    public static String plain(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
