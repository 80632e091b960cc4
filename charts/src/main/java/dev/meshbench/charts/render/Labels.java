package dev.meshbench.charts.render;

import dev.meshbench.charts.model.CaseSummary;
import dev.meshbench.charts.model.ReportModel;

/** Text shared by charts and the HTML page. */
final class Labels {
    private Labels() {
    }

    /** "bypass (3 runs)", "sidecar (1 run)". */
    static String caseWithRuns(CaseSummary c) {
        int n = c.runs().size();
        return c.caseId() + " (" + n + (n == 1 ? " run)" : " runs)");
    }

    /** A chart subtitle: what the values are, and how repeats are shown when there are any. */
    static String spreadNote(ReportModel model, String what) {
        boolean repeats = model.cases().stream().anyMatch(c -> c.runs().size() > 1);
        return repeats ? what + "; mean over the runs of each case, bars: lowest to highest run" : what;
    }
}
