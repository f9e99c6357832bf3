package io.streamgrid.node;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaSettingsTest {
    @TempDir
    Path dir;

    private NodeSettings load(final String yaml) throws IOException {
        return NodeSettings.load(Optional.of(Files.writeString(dir.resolve("c.yaml"), yaml)), NodeSettings.Overrides.none());
    }

    @Test
    void when_schemasDeclared_then_readWithEveryFieldType() throws IOException {
        final NodeSettings settings = load(String.join("\n",
                "schemas:",
                "  trade:",
                "    version: 2",
                "    key: account",
                "    event-time: ts",
                "    fields:",
                "      - {name: account, type: string, max-length: 16}",
                "      - {name: ts, type: timestamp}",
                "      - {name: price, type: double}",
                "      - {name: quantity, type: long}",
                "      - {name: venue, type: int}",
                "      - {name: aggressive, type: boolean}",
                "      - {name: side, type: enum, symbols: [BUY, SELL]}",
                "      - {name: fee, type: double, default: 0}",
                "      - {name: desk, type: string, max-length: 8, default: main}",
                "  reading:",
                "    key: machine",
                "    event-time: at",
                "    fields: [{name: machine, type: long}, {name: at, type: timestamp}]",
                ""));

        assertThat(settings.schemas()).extracting(EventSchema::name).containsExactly("trade", "reading");
        final EventSchema trade = settings.schemas().get(0);
        assertThat(trade.version()).isEqualTo(2);
        assertThat(trade.fields()).extracting(f -> f.type()).containsExactly(FieldType.STRING, FieldType.TIMESTAMP,
                FieldType.DOUBLE, FieldType.LONG, FieldType.INT, FieldType.BOOLEAN, FieldType.ENUM, FieldType.DOUBLE, FieldType.STRING);
        assertThat(trade.field("fee").defaultValue()).isEqualTo(0.0);
        assertThat(trade.field("desk").defaultValue()).isEqualTo("main");
        assertThat(settings.schemas().get(1).version()).isEqualTo(1);
    }

    @Test
    void when_schemaTakesABuiltInTypesName_then_refusedNamingIt() {
        assertThatThrownBy(() -> load("schemas:\n  request:\n    key: ip\n    event-time: ts\n"
                + "    fields: [{name: ip, type: long}, {name: ts, type: timestamp}]\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("'schemas.request': request is a built-in type's schema; give yours another name");
    }

    @Test
    void when_schemaIsWrong_then_oneMessageNamingSchemaFieldAndFix() {
        assertThatThrownBy(() -> load("schemas:\n  trade:\n    key: a\n    event-time: ts\n    fields:\n"
                + "      - {name: a, type: long}\n      - {name: ts, type: timestamp}\n      - {name: price, type: float}\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("'schemas.trade.fields[2] (price)': unknown type 'float': use one of int, long, double, boolean, "
                        + "timestamp, enum, string");
        assertThatThrownBy(() -> load("schemas:\n  trade:\n    key: a\n    event-time: ts\n    fields:\n"
                + "      - {name: a, type: long}\n      - {name: ts, type: timestamp}\n      - {name: s, type: string}\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("invalid 'schemas.trade.fields[2] (s)': string field s needs a max-length of 1 to 4096");
        assertThatThrownBy(() -> load("schemas:\n  trade:\n    key: missing\n    event-time: ts\n    fields:\n"
                + "      - {name: ts, type: timestamp}\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("key field 'missing' is not among its fields [ts]");
        assertThatThrownBy(() -> load("schemas:\n  trade:\n    keys: a\n"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("unknown key 'schemas.trade.keys'");
        assertThatThrownBy(() -> load("schemas: [trade]\n"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("'schemas' must be a mapping");
    }
}
