package io.isowatch.stream.check;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The checker stage's stores, all keyed by {@link StoreKeys} under the historyId.
 *
 * @param window the live window's fed transactions, by feed position
 * @param held transactions waiting for a writer, by arrival position
 * @param reported ids of violations reported (published or counted), with their last feed position
 * @param evicted the evicted-write memory, by slot
 * @param lastWrites per key hash, the fingerprint of the latest evicted write
 * @param lists per list key, the longest list read fed with every element known
 * @param meta each history's small state
 * @param sources per history, each events partition's watermark ({@link SourceClock})
 */
record CheckerStores(
    KeyValueStore<Bytes, byte[]> window,
    KeyValueStore<Bytes, byte[]> held,
    KeyValueStore<Bytes, byte[]> reported,
    KeyValueStore<Bytes, byte[]> evicted,
    KeyValueStore<Bytes, byte[]> lastWrites,
    KeyValueStore<Bytes, byte[]> lists,
    KeyValueStore<Bytes, byte[]> meta,
    KeyValueStore<Bytes, byte[]> sources) {}
