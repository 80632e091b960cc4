package dev.meshbench.results.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.results.StepWindow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JtlStepWindowsTest {
    @TempDir
    Path dir;

    @Test
    @DisplayName("a step's window runs from its first sample's start to its last sample's end, multi-line messages included")
    void windowsFromSamples() throws Exception {
        Path jtl = Files.writeString(dir.resolve("samples.jtl"),
                "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,"
                        + "bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"step\"\n"
                        + "1000,10,login,200,OK,t 1-1,text,true,,9,100,1,1,http://x,9,0,0,1\n"
                        + "1500,40,cancelBooking,404,Not Found,t 1-1,text,false,\"line one,\nline two\",9,100,1,1,http://x,9,0,0,1\n"
                        + "3000,5,login,200,OK,t 5-1,text,true,,9,100,5,5,http://x,4,0,0,5\n"
                        + "2990,30,login,200,OK,t 5-2,text,true,,9,100,5,5,http://x,4,0,0,5\n");
        Map<Integer, StepWindow> w = JtlStepWindows.read(jtl);
        assertEquals(Map.of(1, new StepWindow(1, 1000L, 1540L), 5, new StepWindow(5, 2990L, 3020L)), w);
    }
}
