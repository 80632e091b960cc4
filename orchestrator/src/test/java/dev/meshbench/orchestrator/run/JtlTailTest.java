package dev.meshbench.orchestrator.run;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JtlTailTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"step\"\n";

    @TempDir
    Path dir;

    @Test
    @DisplayName("follows a growing JTL, waits for half-written lines, and handles quoted commas")
    void followsGrowingFile() throws Exception {
        Path jtl = dir.resolve("samples.jtl");
        JtlTail tail = new JtlTail(jtl);
        assertEquals(0, tail.poll(), "no file yet");
        Files.writeString(jtl, HEADER
                + "1000,10,login,200,OK,step 1-1,text,true,,600,100,1,1,http://x/auth/login,9,0,1,1\n"
                + "1020,30,queryFlights,500,\"Server, Error\",step 1-1,text,false,\"oops, \"\"bad\"\"\",10,100,1,1,http://x/f,9,0,1,1\n"
                + "2000,5,login,200,OK,step 5-1,text,true,,600,100,5,5,http://x/auth/login,4,0,1,5\n"
                + "2010,5,log");
        assertEquals(3, tail.poll());
        Files.writeString(jtl, "in,200,OK,step 5-2,text,true,,600,100,5,5,http://x/auth/login,4,0,1,5\n", StandardOpenOption.APPEND);
        assertEquals(1, tail.poll());
        assertEquals(0, tail.poll());
        Map<Integer, JtlTail.StepCounts> steps = tail.steps();
        assertEquals(2, steps.get(1).samples());
        assertEquals(1, steps.get(1).errors());
        assertEquals(1000, steps.get(1).firstStartMs());
        assertEquals(1050, steps.get(1).lastEndMs());
        assertEquals(2, steps.get(5).samples());
        assertEquals(0, steps.get(5).errors());
        assertEquals(2015, steps.get(5).lastEndMs());
        assertEquals(5, tail.latestStep(), "the newest sample's step is the current one");
        assertEquals(1000, tail.firstStartMs().orElseThrow());
    }

    @Test
    @DisplayName("a quoted failure message spanning lines is one sample, counted once its closing quote has arrived")
    void quotedMultiLineRow() throws Exception {
        Path jtl = dir.resolve("samples.jtl");
        JtlTail tail = new JtlTail(jtl);
        Files.writeString(jtl, HEADER
                + "1000,10,login,500,Error,step 1-1,text,false,\"line one\nline two, with a comma\n");
        assertEquals(0, tail.poll(), "the row's quoted message is still open");
        Files.writeString(jtl, "and three\",600,100,1,1,http://x/auth/login,9,0,1,1\n"
                + "1100,10,login,200,OK,step 1-1,text,true,,600,100,1,1,http://x/auth/login,9,0,1,1\n",
                StandardOpenOption.APPEND);
        assertEquals(2, tail.poll());
        assertEquals(2, tail.steps().get(1).samples());
        assertEquals(1, tail.steps().get(1).errors(), "the multi-line row is the failed sample, not lost");
    }

    @Test
    @DisplayName("a UTF-8 character cut between two reads is decoded whole")
    void characterCutBetweenReads() throws Exception {
        Path jtl = dir.resolve("samples.jtl");
        JtlTail tail = new JtlTail(jtl);
        byte[] row = ("1000,10,réservation,500,Erreur ü,step 1-1,text,false,échec,600,100,1,1,http://x/a,9,0,1,1\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int cut = "1000,10,r".length() + 1; // inside the two bytes of 'é'
        Files.write(jtl, HEADER.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Files.write(jtl, java.util.Arrays.copyOfRange(row, 0, cut), StandardOpenOption.APPEND);
        assertEquals(0, tail.poll());
        Files.write(jtl, java.util.Arrays.copyOfRange(row, cut, row.length), StandardOpenOption.APPEND);
        assertEquals(1, tail.poll());
        assertEquals(1, tail.steps().get(1).errors());
    }

    @Test
    @DisplayName("a row it cannot read is skipped, and the rows after it still count")
    void unreadableRowSkipped() throws Exception {
        Path jtl = dir.resolve("samples.jtl");
        JtlTail tail = new JtlTail(jtl);
        Files.writeString(jtl, HEADER
                + "1000,10,login,200,\"O\"K,step 1-1,text,true,,600,100,1,1,http://x/auth/login,9,0,1,1\n"
                + "1100,10,login,200,OK,step 1-1,text,true,,600,100,1,1,http://x/auth/login,9,0,1,1\n");
        assertEquals(1, tail.poll(), "text after a closing quote: not a JMeter row");
        Files.writeString(jtl, "1200,10,login,200,OK,step 1-1,text,true,,600,100,1,1,http://x/auth/login,9,0,1,1\r\n",
                StandardOpenOption.APPEND);
        assertEquals(1, tail.poll(), "the next poll resumes after the rows already read");
        assertEquals(2, tail.steps().get(1).samples());
    }

    @Test
    @DisplayName("a file replaced by a shorter one is read again from its start")
    void replacedFile() throws Exception {
        Path jtl = dir.resolve("samples.jtl");
        JtlTail tail = new JtlTail(jtl);
        String row = "1000,10,login,200,OK,step 1-1,text,true,,600,100,1,1,http://x/auth/login,9,0,1,1\n";
        Files.writeString(jtl, HEADER + row + row);
        assertEquals(2, tail.poll());
        Files.writeString(jtl, HEADER + row.replace(",1\n", ",5\n"));
        assertEquals(1, tail.poll());
        assertEquals(1, tail.steps().get(5).samples());
        assertNull(tail.steps().get(1), "the old file's counts are gone");
    }

    @Test
    @DisplayName("complete records end at the last line break outside quotes")
    void completeRecords() {
        assertEquals(0, JtlTail.completeRecords("a,b".getBytes(UTF_8)));
        assertEquals(4, JtlTail.completeRecords("a,b\nc,\"d\n".getBytes(UTF_8)));
        assertEquals(11, JtlTail.completeRecords("a,\"\"\"x\n\"\"\"\nc,d".getBytes(UTF_8)));
    }

    @Test
    @DisplayName("a progress line's rate is read on the samples' own clock: 500/s held reads 500/s, whatever is not yet written")
    void progressRateOnTheSamplesClock() throws Exception {
        Path jtl = dir.resolve("rate.jtl");
        JtlTail tail = new JtlTail(jtl);
        // 1000 samples, one every 2 ms (500/s), each answered in 1 ms; only the first 800 written when the line is printed
        StringBuilder first = new StringBuilder(HEADER);
        StringBuilder rest = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            (i < 800 ? first : rest).append(10_000 + 2L * i).append(",1,login,200,OK,t 1-1,text,true,,600,100,20,20,http://x/auth/login,1,0,0,20\n");
        }
        Files.writeString(jtl, first);
        tail.poll();
        JtlTail.StepCounts c = tail.steps().get(20);
        // 800 samples from the first start (10 000) to the last end (10 000 + 2 x 799 + 1 = 11 599): 800 / 1.599 s
        assertEquals(500.3, CaseRun.rateOnSamplesClock(c.samples(), c.firstStartMs(), c.lastEndMs()), 0.05);
        long before = c.samples();
        long lastEnd = c.lastEndMs();
        Files.writeString(jtl, rest, StandardOpenOption.APPEND);
        tail.poll();
        c = tail.steps().get(20);
        // the next line: 200 more from 11 599 to 11 999
        assertEquals(500.0, CaseRun.rateOnSamplesClock(c.samples() - before, lastEnd, c.lastEndMs()), 0.05);
        assertEquals(0, CaseRun.rateOnSamplesClock(0, lastEnd, lastEnd), "no time between: no rate");
    }
}
