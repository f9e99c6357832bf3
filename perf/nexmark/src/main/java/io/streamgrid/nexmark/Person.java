package io.streamgrid.nexmark;

/**
 * A person who joined the auction site: NEXMark's {@code Person}. Ids count up from
 * {@link NexmarkGenerator#FIRST_PERSON_ID} in the order people join.
 *
 * @param dateTime event time, epoch milliseconds
 */
public record Person(long id, String name, String emailAddress, String creditCard, String city, String state, long dateTime,
                     String extra) implements java.io.Serializable {
}
