package io.streamgrid.sink;

import java.io.Serializable;

/**
 * How a connection to Cassandra proves who it is and is encrypted: a user of Cassandra's
 * {@code PasswordAuthenticator} with its password's {@link Secret}, and TLS with a trust store (the
 * CA or server certificates to trust) and its password's secret. Either part may be absent (null).
 * The secrets are read when a session is opened, on the machine that opens it.
 *
 * @param username           null: no authentication
 * @param password           where the user's password is read; required with a user
 * @param truststore         path of a JKS or PKCS12 trust store; null: no TLS
 * @param truststorePassword where the trust store's password is read; null: the store has none
 * @param hostnameValidation whether the server's certificate must name the host connected to
 */
public record CassandraSecurity(String username, Secret password, String truststore, Secret truststorePassword,
                                boolean hostnameValidation) implements Serializable {
    public CassandraSecurity {
        if (username != null && username.isBlank()) {
            username = null;
        }
        if (truststore != null && truststore.isBlank()) {
            truststore = null;
        }
        if (username != null && password == null) {
            throw new IllegalArgumentException("user " + username + " needs a password: env:NAME or file:/path");
        }
    }

    /** No authentication, no TLS. */
    public static final CassandraSecurity NONE = new CassandraSecurity(null, null, null, null, true);

    /** Logs in as {@code username} with the password read from {@code password}; no TLS. */
    public static CassandraSecurity login(final String username, final Secret password) {
        return new CassandraSecurity(username, password, null, null, true);
    }

    /** The same, encrypted with TLS, trusting the certificates in {@code truststore}. */
    public CassandraSecurity withTls(final String truststore, final Secret truststorePassword, final boolean hostnameValidation) {
        return new CassandraSecurity(username, password, truststore, truststorePassword, hostnameValidation);
    }

    public boolean authenticates() {
        return username != null;
    }

    public boolean encrypts() {
        return truststore != null;
    }
}
