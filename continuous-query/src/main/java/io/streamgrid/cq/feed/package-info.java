/**
 * Change feeds: the members push each subscription the matching changes of a map's event journal,
 * read once per map and member for all its subscriptions. This is the protocol between StreamGrid
 * clients and members, not an application API: applications use {@code StreamGridClient.subscribe}.
 *
 * <p>A feed is an accelerator, never the truth. Every batch and mark names the journal sequences it
 * covers; a client that sees a gap (a lost batch, a member that died, a partition that moved) reads
 * the missing sequences from the journal itself, and one that hears nothing of a partition for a
 * while polls it. So a lost message, a dead member or a member without feeds delays deliveries but
 * loses none.
 */
package io.streamgrid.cq.feed;
