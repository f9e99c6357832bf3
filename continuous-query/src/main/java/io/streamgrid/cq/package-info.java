/**
 * The member side of continuous queries and what clients and members share: {@link io.streamgrid.cq.Where}
 * (SQL-like predicate text, parsed once, evaluated on the members) and {@link io.streamgrid.cq.ChangeFilter}
 * (the event-journal filter that lets only relevant changes cross the network). Recovery needs
 * nothing extra on the members: the map's event journal is partitioned, sequenced and backed up.
 */
package io.streamgrid.cq;
