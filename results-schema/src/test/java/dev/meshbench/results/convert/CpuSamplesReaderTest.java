package dev.meshbench.results.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.meshbench.results.io.ResultsFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuSamplesReaderTest {
    static final String HEADER = "epochMs,component,role,pid,cpuMillis,rssBytes\n";

    @TempDir
    Path tmp;

    @Test
    @DisplayName("interpolates cumulative CPU linearly between the samples bracketing the window")
    void interpolates() throws IOException {
        CpuTimeline t = single(HEADER + "0,s,mesh,1,0,10\n1000,s,mesh,1,100,30\n3000,s,mesh,1,500,20\n");
        CpuTimeline.Window w = t.window(500, 2000);
        assertEquals(50 + 200, w.cpuMillis(), 1e-9, "50 ms in [500,1000), 200 ms in [1000,2000)");
        assertEquals(1.0, w.coverage());
        assertEquals(1, w.processes());
        assertEquals(30L, w.maxRssBytes(), "largest rss sampled inside the window");
    }

    @Test
    @DisplayName("starts a new process when the same pid's counter goes down")
    void counterResetIsRestart() throws IOException {
        CpuTimeline t = single(HEADER + "0,s,mesh,1,0,\n1000,s,mesh,1,100,\n2000,s,mesh,1,10,\n3000,s,mesh,1,60,\n");
        CpuTimeline.Window w = t.window(0, 3000);
        assertEquals(150, w.cpuMillis(), 1e-9, "100 from the first process, 50 from the second");
        assertEquals(2, w.processes());
        assertEquals(2.0 / 3, w.coverage(), 1e-9, "the second between 1000 and 2000 is not covered");
    }

    @Test
    @DisplayName("treats an empty or negative rssBytes as unknown")
    void unknownRss() throws IOException {
        CpuTimeline t = single(HEADER + "0,s,mesh,1,0,-1\n1000,s,mesh,1,100,\n");
        assertEquals(null, t.window(0, 1000).maxRssBytes());
    }

    @Test
    @DisplayName("reads rows of several components in any order")
    void unorderedRows() throws IOException {
        List<CpuTimeline> ts = new CpuSamplesReader(write(HEADER + "1000,b,app,2,50,\n0,a,mesh,1,0,\n"
                + "0,b,app,2,0,\n1000,a,mesh,1,20,\n")).read(new ArrayList<>());
        assertEquals(List.of("a", "b"), ts.stream().map(CpuTimeline::component).toList());
        assertEquals(50, ts.get(1).window(0, 1000).cpuMillis(), 1e-9);
    }

    @Test
    @DisplayName("refuses a component whose role changes, naming the line")
    void roleConflict() throws IOException {
        Path f = write(HEADER + "0,a,mesh,1,0,\n1000,a,app,1,20,\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class,
                () -> new CpuSamplesReader(f).read(new ArrayList<>()));
        assertEquals(f + ": line 3: component 'a' has role app but earlier rows say mesh", e.getMessage());
    }

    @Test
    @DisplayName("refuses an unknown role, listing the allowed ones")
    void unknownRole() throws IOException {
        Path f = write(HEADER + "0,a,proxy,1,0,\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class,
                () -> new CpuSamplesReader(f).read(new ArrayList<>()));
        assertEquals(f + ": line 2, column role: role \"proxy\" is not one of mesh|app|database|load", e.getMessage());
    }

    @Test
    @DisplayName("refuses a decimal comma in cpuMillis")
    void decimalComma() throws IOException {
        Path f = write(HEADER + "0,a,mesh,1,\"12,5\",\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class,
                () -> new CpuSamplesReader(f).read(new ArrayList<>()));
        assertEquals(f + ": line 2, column cpuMillis: \"12,5\" is not a number >= 0 (use a decimal point)",
                e.getMessage());
    }

    @Test
    @DisplayName("names the file and column when cpuMillis is missing")
    void missingColumn() throws IOException {
        Path f = write("epochMs,component,role,pid\n0,a,mesh,1\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class,
                () -> new CpuSamplesReader(f).read(new ArrayList<>()));
        assertEquals(f + ": missing column 'cpuMillis' in the header (found: epochMs,component,role,pid)",
                e.getMessage());
    }

    private CpuTimeline single(String content) throws IOException {
        List<CpuTimeline> ts = new CpuSamplesReader(write(content)).read(new ArrayList<>());
        assertEquals(1, ts.size());
        return ts.get(0);
    }

    private Path write(String content) throws IOException {
        Path f = tmp.resolve("cpu-samples.csv");
        Files.writeString(f, content);
        return f;
    }
}
