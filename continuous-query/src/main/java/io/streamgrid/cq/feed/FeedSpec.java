package io.streamgrid.cq.feed;

import io.streamgrid.cq.Where;

import java.io.Serializable;

/** What a subscription follows: the map and its predicate. The value of its registry entry. */
public record FeedSpec(String map, Where where) implements Serializable {
}
