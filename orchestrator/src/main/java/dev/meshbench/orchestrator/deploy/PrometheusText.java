package dev.meshbench.orchestrator.deploy;

/** Reads sums out of Prometheus text exposition ({@code name{labels} value} lines), as the services' /metrics serve it. */
final class PrometheusText {
    private PrometheusText() {
    }

    /**
     * The sum of every sample of {@code name} (with or without labels), leaving out samples whose label
     * {@code excludeLabel} equals {@code excludeValue} (both {@code null}: none left out).
     */
    static double sum(String text, String name, String excludeLabel, String excludeValue) {
        String exclude = excludeLabel == null ? null : excludeLabel + "=\"" + excludeValue + "\"";
        return sum(text, name, labels -> exclude == null || !(labels.contains("{" + exclude) || labels.contains("," + exclude)));
    }

    /** The sum of every sample of {@code name} whose label set (the text from its brace to its closing brace) {@code keep} accepts. */
    static double sum(String text, String name, java.util.function.Predicate<String> keep) {
        double sum = 0;
        for (String line : text.split("\n")) {
            if (!(line.startsWith(name + "{") || line.startsWith(name + " "))) {
                continue;
            }
            int close = line.lastIndexOf('}');
            String labels = close < 0 ? "" : line.substring(name.length(), close + 1);
            if (!keep.test(labels)) {
                continue;
            }
            String[] rest = line.substring(close < 0 ? name.length() : close + 1).trim().split(" ");
            try {
                sum += Double.parseDouble(rest[0]);
            } catch (NumberFormatException e) {
                // not a sample line of this metric (a longer name with the same prefix is excluded above)
            }
        }
        return sum;
    }
}
