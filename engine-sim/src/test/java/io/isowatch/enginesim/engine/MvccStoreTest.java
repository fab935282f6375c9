package io.isowatch.enginesim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import it.unimi.dsi.fastutil.ints.Int2LongLinkedOpenHashMap;
import org.junit.jupiter.api.Test;

class MvccStoreTest {

  @Test
  void installAppendsOneVersionPerKeyAndLatestIsTheNewest() {
    MvccStore store = new MvccStore();
    Int2LongLinkedOpenHashMap first = new Int2LongLinkedOpenHashMap();
    first.put(2, 10);
    first.put(0, 20);
    Int2LongLinkedOpenHashMap second = new Int2LongLinkedOpenHashMap();
    second.put(2, 11);

    store.install(first);
    store.install(second);

    assertThat(store.versions(2)).containsExactly(10L, 11L);
    assertThat(store.versions(0)).containsExactly(20L);
    assertThat(store.versions(1)).isEmpty();
    assertThat(store.versions(5)).isEmpty();
    assertThat(store.latest(2)).isEqualTo(11L);
    assertThat(store.latest(1)).isEqualTo(History.NIL);
    assertThat(store.latest(9)).isEqualTo(History.NIL);
  }
}
