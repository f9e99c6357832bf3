package io.streamgrid.node.impl;

import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.usecase.MachineHealthJob;
import io.streamgrid.jobs.usecase.UserClicksHourlyJob;
import io.streamgrid.jobs.usecase.UserSessionsJob;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import io.streamgrid.node.ConfigException;
import io.streamgrid.sink.CassandraSecurity;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.Secret;

import java.nio.file.Path;
import java.util.List;

/** The named jobs, built from the {@code jobs} and {@code ingest} sections of the configuration. */
public final class JobCatalog {
    public static final List<String> NAMES = List.of(IpTrafficJob.NAME, UserClicksHourlyJob.NAME,
            UserSessionsJob.NAME, MachineHealthJob.NAME);

    private JobCatalog() {
    }

    /**
     * The job called {@code name} with its configured settings.
     *
     * @throws ConfigException for an unknown name or invalid settings, naming them
     */
    public static WindowedJob<?> job(final String name, final ConfigTree config) {
        final String at = "jobs." + name + ".";
        try {
            return switch (name) {
                case IpTrafficJob.NAME -> new IpTrafficJob(policy(config, at, WindowDefinition.tumbling(config.wholeNumber(at + "window-ms"))),
                        config.decimal(at + "alert-factor"), config.wholeNumber(at + "alert-floor"), config.integer(at + "baseline-min-windows"),
                        config.wholeNumber(at + "baseline-expiry-ms"));
                case UserClicksHourlyJob.NAME -> UserClicksHourlyJob.of(policy(config, at, sliding(config, at)));
                case UserSessionsJob.NAME -> UserSessionsJob.of(policy(config, at, WindowDefinition.session(config.wholeNumber(at + "gap-ms"))));
                case MachineHealthJob.NAME -> MachineHealthJob.of(policy(config, at, sliding(config, at)));
                default -> throw new ConfigException("unknown job '" + name + "': choose one of " + String.join(", ", NAMES));
            };
        } catch (final IllegalArgumentException e) {
            throw new ConfigException("invalid settings under '" + at.substring(0, at.length() - 1) + "': " + e.getMessage(), e);
        }
    }

    /** How jobs run: the ingest directory, snapshot interval and parallelism from the configuration. */
    public static JobOptions options(final ConfigTree config) {
        try {
            return new JobOptions(ingestDir(config), config.wholeNumber("jobs.snapshot-interval-ms"),
                    config.integer("jobs.local-parallelism")).withKafka(kafkaLogs(config));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException("invalid settings under 'jobs': " + e.getMessage(), e);
        }
    }

    /** The Cassandra cluster of the {@code cassandra} section, with its login and TLS. */
    public static CassandraTarget cassandraTarget(final ConfigTree config) {
        try {
            return new CassandraTarget(config.list("cassandra.contact-points").stream().map(String::valueOf).toList(),
                    config.string("cassandra.local-datacenter"), config.string("cassandra.keyspace"),
                    config.string("cassandra.replication"), config.string("cassandra.consistency-level"), cassandraSecurity(config));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException("invalid settings under 'cassandra': " + e.getMessage(), e);
        }
    }

    private static CassandraSecurity cassandraSecurity(final ConfigTree config) {
        final String username = config.string("cassandra.username");
        final String password = config.string("cassandra.password");
        if (username.isEmpty() && !password.isEmpty()) {
            throw new IllegalArgumentException("cassandra.password is set but cassandra.username is not");
        }
        CassandraSecurity security = username.isEmpty() ? CassandraSecurity.NONE
                : CassandraSecurity.login(username, password.isEmpty() ? null : secret("cassandra.password", password));
        if (config.bool("cassandra.tls.enabled")) {
            final String truststore = config.string("cassandra.tls.truststore");
            if (truststore.isEmpty()) {
                throw new IllegalArgumentException("cassandra.tls.enabled needs cassandra.tls.truststore (a JKS or PKCS12 file)");
            }
            final String storePassword = config.string("cassandra.tls.truststore-password");
            security = security.withTls(truststore, storePassword.isEmpty() ? null : secret("cassandra.tls.truststore-password",
                    storePassword), config.bool("cassandra.tls.hostname-validation"));
        }
        return security;
    }

    /** A secret setting: where the secret is read; the message of a refusal names the key, never the value. */
    private static Secret secret(final String key, final String source) {
        try {
            return new Secret(source);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " must say where the secret is read — env:NAME or file:/path — not hold it");
        }
    }

    /**
     * The Kafka topics of {@code ingest.kafka} when {@code ingest.kind} is kafka, else null (Chronicle logs).
     *
     * @throws ConfigException naming the key when the kind is unknown or the Kafka settings are incomplete
     */
    public static KafkaLogs kafkaLogs(final ConfigTree config) {
        final String kind = config.string("ingest.kind");
        if ("chronicle".equals(kind)) {
            return null;
        }
        if (!"kafka".equals(kind)) {
            throw new ConfigException("ingest.kind is '" + kind + "': choose chronicle (one host) or kafka (several hosts)");
        }
        final String servers = config.string("ingest.kafka.bootstrap-servers");
        if (servers.isBlank()) {
            throw new ConfigException("ingest.kind is kafka but ingest.kafka.bootstrap-servers is empty: give host:port of a broker");
        }
        final int replication = config.integer("ingest.kafka.replication-factor");
        if (replication < 1 || replication > Short.MAX_VALUE) {
            throw new ConfigException("ingest.kafka.replication-factor is " + replication + ": give 1 or more");
        }
        return new KafkaLogs(servers, config.string("ingest.kafka.topic-prefix"), (short) replication);
    }

    public static Path ingestDir(final ConfigTree config) {
        return Path.of(config.string("ingest.dir")).toAbsolutePath();
    }

    private static WindowDefinition sliding(final ConfigTree config, final String at) {
        return WindowDefinition.sliding(config.wholeNumber(at + "window-ms"), config.wholeNumber(at + "slide-ms"));
    }

    private static WindowPolicy policy(final ConfigTree config, final String at, final WindowDefinition window) {
        return new WindowPolicy(window, config.wholeNumber(at + "allowed-disorder-ms"), config.wholeNumber(at + "allowed-lateness-ms"),
                config.wholeNumber(at + "max-future-ms"), config.wholeNumber(at + "idle-timeout-ms"));
    }
}
