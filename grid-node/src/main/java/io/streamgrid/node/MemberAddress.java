package io.streamgrid.node;

import java.util.Objects;

/**
 * A member's TCP address, {@code host:port}.
 *
 * @param host a host name or IPv4 address, not blank
 * @param port 1 to 65535
 */
public record MemberAddress(String host, int port) {

    public MemberAddress {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new ConfigException("member host is blank: give an address such as 127.0.0.1:5701");
        }
        checkPort(port, "port of member " + host);
    }

    /**
     * Parses {@code host:port}.
     *
     * @throws ConfigException naming the text when it is not of that form or the port is invalid
     */
    public static MemberAddress parse(final String text) {
        final String trimmed = text.trim();
        final int colon = trimmed.lastIndexOf(':');
        if (colon <= 0 || colon == trimmed.length() - 1) {
            throw new ConfigException("bad member address '" + text + "': expected host:port, e.g. 127.0.0.1:5701");
        }
        final int port;
        try {
            port = Integer.parseInt(trimmed.substring(colon + 1));
        } catch (final NumberFormatException e) {
            throw new ConfigException("bad member address '" + text + "': port is not a number; expected host:port, e.g. 127.0.0.1:5701");
        }
        return new MemberAddress(trimmed.substring(0, colon), port);
    }

    /** Throws a {@link ConfigException} naming {@code what} unless {@code port} is 1 to 65535. */
    public static void checkPort(final int port, final String what) {
        if (port < 1 || port > 65535) {
            throw new ConfigException(what + " " + port + " is out of range: use a free TCP port from 1 to 65535, e.g. 5701");
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
