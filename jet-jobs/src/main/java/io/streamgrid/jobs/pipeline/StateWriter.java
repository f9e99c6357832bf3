package io.streamgrid.jobs.pipeline;

/** Where a job's results go: named IMaps, written after the fact by the job's sink. */
public interface StateWriter {
    /** Sets {@code key} to {@code value} in map {@code map}; a later write to the same key wins. */
    void put(String map, Object key, Object value);

    /** Removes {@code key} from map {@code map}. */
    void remove(String map, Object key);
}
