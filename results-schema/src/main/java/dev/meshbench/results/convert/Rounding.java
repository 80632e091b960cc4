package dev.meshbench.results.convert;

/** Rounds derived values so results.json carries meaningful digits only and stays byte-stable. */
final class Rounding {
    private Rounding() {
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        double r = Math.round(value * scale) / scale;
        return r == 0 ? 0.0 : r;
    }
}
