package dev.meshbench.results.smp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The JSON schema of {@code smp.json} ({@code src/test/resources/smp/smp-v0.6.1.schema.json}), written by us from the
 * SMP protos because SMP publishes none: {@code protos/service_mesh_performance.proto},
 * {@code protos/service_mesh.proto} and {@code protos/metadata.proto} of
 * github.com/service-mesh-performance/service-mesh-performance at release v0.6.1, commit
 * 25a6a9601b4da8576214d0f27ce17d444243d2f7 (unchanged at 6ecbce7985dddb5577509f25a1ab67959da8ca68). Validated with
 * networknt's json-schema-validator (draft 2020-12).
 */
final class SmpSchema {
    static final Path FILE = Path.of("src/test/resources/smp/smp-v0.6.1.schema.json");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchema SCHEMA = load();

    private SmpSchema() {
    }

    /** What is wrong with {@code json} against the schema, one line each; empty when it is valid. */
    static List<String> problems(String json) {
        try {
            return problems(JSON.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> problems(JsonNode json) {
        return SCHEMA.validate(json).stream().map(ValidationMessage::getMessage).sorted().toList();
    }

    private static JsonSchema load() {
        try (InputStream in = Files.newInputStream(FILE)) {
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
