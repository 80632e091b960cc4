package dev.meshbench.component.testing;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClosedPortTest {
    @Test
    @DisplayName("a connect to a held closed port is refused, and no listener can bind it meanwhile")
    void refusesAndCannotBeTaken() throws Exception {
        try (ClosedPort closed = new ClosedPort()) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), closed.port());
            try (Socket client = new Socket()) {
                assertThrows(ConnectException.class, () -> client.connect(address, 10_000));
            }
            try (ServerSocket other = new ServerSocket()) {
                other.setReuseAddress(false);
                assertThrows(BindException.class, () -> other.bind(address));
            }
        }
    }
}
