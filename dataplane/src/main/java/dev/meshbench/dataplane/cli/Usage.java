package dev.meshbench.dataplane.cli;

/** Help text of the command line. */
final class Usage {
    private Usage() {
    }

    static final String GENERAL = """
            usage: java -jar dataplane.jar <command> [options]   (meshbench local data plane)

            commands:
              sidecar          a service's sidecar: one TCP relay per --listener
              egress-gateway   the egress gateway: --mode sni-passthrough (plain TCP, routes by the app's SNI)
                               or --mode mtls (terminates mutual TLS from sidecars, routes by the tunnel's SNI)
              sni-proxy        routes by the server name in the app's ClientHello, wildcards allowed

            run 'java -jar dataplane.jar <command> --help' for the options of a command.
            """;

    static final String COMMON = """
            common options:
              --name NAME              component name, in logs, stats and the ready line (required)
              --admin-port PORT        admin HTTP endpoint (GET /stats, GET /ready); default 0 = any free port
              --bind-host HOST         address every port binds; default 127.0.0.1
              --io-threads N           event-loop threads; default 0 = Netty's default (2 x cores)
              --tls-provider P         TLS of mesh mTLS: boringssl (BoringSSL via netty-tcnative, linux x86_64),
                                       jdk, or auto (default): boringssl where a test handshake with it passes,
                                       else jdk
              --exit-on-stdin-eof      exit when stdin closes (the orchestrator's pipe)
              --help                   this text
            Ready line on stdout once serving (tls-provider is the resolved one, never auto):
              MESHBENCH-READY component=NAME address=HOST:ADMINPORT listener.<name>=HOST:PORT ... tls-provider=boringssl|jdk
            """;

    static final String SIDECAR = """
            usage: java -jar dataplane.jar sidecar --name NAME --listener SPEC [--listener SPEC ...]
                   [--ca-file CA.pem --cert-file WORKLOAD.crt --key-file WORKLOAD.key] [common options]

              --listener name=N,port=P,upstream=HOST:PORT[|HOST:PORT...][,upstream-name=D][,tls=T][,sni=S][,peer-id=URI]
                  name           listener name (lower case, digits, '-'), e.g. mongo, inbound, to-customer
                  port           0 = any free port (reported in the ready line as listener.<name>)
                  upstream       where every connection is relayed; several, separated by '|', are replicas
                                 of one service: each new connection goes to the next one in turn (round
                                 robin per connection, not per request; no HTTP parsing). One that refuses
                                 the connection is not replaced by another: the client's connection is closed.
                                 GET /stats counts connections per upstream. Quote the spec in a shell, e.g.
                                 --listener 'name=to-customer,port=0,upstream=127.0.0.1:8081|127.0.0.1:8082'
                  upstream-name  the upstream's role, for logs (e.g. egress-gateway); one name for all replicas,
                                 as are sni and peer-id
                  tls            none (default): plain TCP relay, the app's own TLS passes untouched
                                 mtls-originate: wrap the stream in mutual TLS to the upstream (needs sni)
                                 mtls-terminate: accept only mutual TLS from clients with a certificate of the CA
                  sni            server name sent when originating mTLS (the external host, e.g. mongo.meshbench.test)
                  peer-id        expected URI SAN of the upstream's certificate (e.g. spiffe://.../sa/egress-gateway)
              --ca-file, --cert-file, --key-file   PEM files of the mesh CA and this workload; required for mtls-*
            """;

    static final String GATEWAY = """
            usage: java -jar dataplane.jar egress-gateway --name NAME --mode sni-passthrough|mtls
                   --route PATTERN=HOST:PORT[,upstream-name=D] [--route ...] [--listen-port P]
                   [--ca-file CA.pem --cert-file WORKLOAD.crt --key-file WORKLOAD.key] [common options]

              --mode sni-passthrough   plain TCP; read the SNI from the app's ClientHello without terminating TLS
              --mode mtls              accept only mutual TLS from clients with a certificate of the CA (not
                                       expired); route by the SNI of that handshake; relay the inner stream
              --route                  PATTERN is a host name, *.domain or *; exact beats wildcard, longer beats shorter
              --listen-port            default 0; the ready line reports it as listener.egress
              --ca-file, --cert-file, --key-file   required with --mode mtls
            """;

    static final String SNI_PROXY = """
            usage: java -jar dataplane.jar sni-proxy --name NAME --route PATTERN=HOST:PORT[,upstream-name=D]
                   [--route ...] [--listen-port P] [common options]

              Reads the server name from the app's ClientHello (without terminating TLS) and relays every byte
              to the first matching route, like nginx 'ssl_preread' + 'proxy_pass'. No match, no server name,
              or a malformed ClientHello: the connection is closed, counted and logged.
              --route        PATTERN is a host name, *.domain or *; e.g. '*.meshbench.test=127.0.0.1:27017'
              --listen-port  default 0; the ready line reports it as listener.sni
            """;

    static String of(Command c) {
        return switch (c) {
            case SIDECAR -> SIDECAR;
            case EGRESS_GATEWAY -> GATEWAY;
            case SNI_PROXY -> SNI_PROXY;
        } + "\n" + COMMON;
    }
}
