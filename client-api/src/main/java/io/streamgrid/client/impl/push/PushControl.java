package io.streamgrid.client.impl.push;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;
import io.streamgrid.cq.ChangeFilter;

import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * A client feed's request to one member, run there on Hazelcast's executor: push the changes of
 * {@code attach} partitions of {@code map} that {@code filter} passes, each from its position on
 * (its changes before that the feed has), stamped with its generation; stop pushing
 * {@code detach} partitions (each with the feed's generation for it, so that a request overtaken by
 * a newer one on the way changes nothing: {@link MapPush#control}). Every request also renews the feed's lease on the member: a feed not
 * heard from for {@link MemberPush#LEASE_MS} is dropped (its client died or left). Answers true.
 */
public final class PushControl implements Callable<Boolean>, HazelcastInstanceAware, DataSerializable {
    private String topic;
    private String map;
    private ChangeFilter filter;
    private int[] attach;
    private int[] generations;
    private long[] positions;
    private int[] detach;
    private int[] detachGenerations;
    private transient HazelcastInstance member;

    /** For Hazelcast's deserialization only. */
    public PushControl() {
    }

    public PushControl(final String topic, final String map, final ChangeFilter filter, final int[] attach, final int[] generations,
                       final long[] positions, final int[] detach, final int[] detachGenerations) {
        if (attach.length != generations.length || attach.length != positions.length || detach.length != detachGenerations.length) {
            throw new IllegalArgumentException("bug: " + attach.length + " partitions, " + generations.length + " generations, "
                    + positions.length + " positions; " + detach.length + " detached, " + detachGenerations.length + " generations");
        }
        this.topic = topic;
        this.map = map;
        this.filter = filter;
        this.attach = attach;
        this.generations = generations;
        this.positions = positions;
        this.detach = detach;
        this.detachGenerations = detachGenerations;
    }

    @Override
    public void setHazelcastInstance(final HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    @Override
    public Boolean call() {
        MemberPush.of(member).control(topic, map, filter, attach, generations, positions, detach, detachGenerations);
        return Boolean.TRUE;
    }

    @Override
    public void writeData(final ObjectDataOutput out) throws IOException {
        out.writeString(topic);
        out.writeString(map);
        out.writeObject(filter);
        out.writeIntArray(attach);
        out.writeIntArray(generations);
        out.writeLongArray(positions);
        out.writeIntArray(detach);
        out.writeIntArray(detachGenerations);
    }

    @Override
    public void readData(final ObjectDataInput in) throws IOException {
        topic = in.readString();
        map = in.readString();
        filter = in.readObject();
        attach = in.readIntArray();
        generations = in.readIntArray();
        positions = in.readLongArray();
        detach = in.readIntArray();
        detachGenerations = in.readIntArray();
    }
}
