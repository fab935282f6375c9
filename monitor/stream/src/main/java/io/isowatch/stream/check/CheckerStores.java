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
 * @param meta each history's small state
 */
record CheckerStores(
    KeyValueStore<Bytes, byte[]> window,
    KeyValueStore<Bytes, byte[]> held,
    KeyValueStore<Bytes, byte[]> reported,
    KeyValueStore<Bytes, byte[]> evicted,
    KeyValueStore<Bytes, byte[]> meta) {}
