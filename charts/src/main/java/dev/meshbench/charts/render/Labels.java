package dev.meshbench.charts.render;

import dev.meshbench.charts.model.CaseSummary;
import dev.meshbench.charts.model.ReportModel;

/** Text shared by charts and the HTML page. */
final class Labels {
    private Labels() {
    }

    /** "bypass · netty (3 runs)", "sni · envoy (1 run)". */
    static String caseWithRuns(CaseSummary c) {
        int n = c.runs().size();
        return c.key() + " (" + n + (n == 1 ? " run)" : " runs)");
    }

    /** A chart subtitle: what the values are, and how repeats are shown when there are any. */
    static String spreadNote(ReportModel model, String what) {
        boolean repeats = model.cases().stream().anyMatch(c -> c.runs().size() > 1);
        return repeats ? what + "; mean over the runs of each case and data plane, bars: lowest to highest run"
                : what;
    }

    /** The position of {@code c}'s data plane among the report's, for its color, line and shape. */
    static int dataPlaneIndex(ReportModel model, CaseSummary c) {
        return model.dataPlanes().indexOf(c.dataPlane());
    }

    /** The color of a case and data plane in every chart and table. */
    static java.awt.Color color(ReportModel model, CaseSummary c) {
        return ChartStyle.seriesColor(c.caseId(), dataPlaneIndex(model, c));
    }
}
