package io.isowatch.enginesim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.history.History;
import io.isowatch.enginesim.engine.MvccStore.Version;
import org.junit.jupiter.api.Test;

class MvccStoreTest {

  @Test
  void versionsAreKeptInInstallOrderAndReadAsOfATimestamp() {
    MvccStore store = new MvccStore();
    int x = MvccStore.register(2);
    Version v1 = new Version(0, 1, 10, new long[0]);
    Version v3 = new Version(1, 3, 11, new long[0]);
    store.install(x, v1);
    store.install(x, v3);

    assertThat(store.registerValues(2)).containsExactly(10L, 11L);
    assertThat(store.registerValues(0)).isEmpty();
    assertThat(store.registerValues(9)).isEmpty();
    assertThat(store.visibleAt(x, 0)).isNull();
    assertThat(store.visibleAt(x, 1)).isSameAs(v1);
    assertThat(store.visibleAt(x, 2)).isSameAs(v1);
    assertThat(store.visibleAt(x, 3)).isSameAs(v3);
    assertThat(store.latest(x)).isSameAs(v3);
    assertThat(store.latest(MvccStore.register(7))).isNull();
    assertThat((java.util.List<Version>) store.newerThan(x, 1)).containsExactly(v3);
    assertThat((java.util.List<Version>) store.newerThan(x, 3)).isEmpty();
  }

  @Test
  void registerAndListOfOneKeyAreTwoObjects() {
    MvccStore store = new MvccStore();
    int l = MvccStore.list(1);
    store.install(l, new Version(4, 1, History.NIL, new long[] {5, 6}));

    assertThat(MvccStore.register(1)).isEqualTo(2);
    assertThat(l).isEqualTo(3);
    assertThat(MvccStore.isList(l)).isTrue();
    assertThat(MvccStore.isList(MvccStore.register(1))).isFalse();
    assertThat(store.latestList(l)).containsExactly(5L, 6L);
    assertThat(store.latestList(MvccStore.list(0))).isEmpty();
    assertThat(store.latest(MvccStore.register(1))).isNull();
  }

  @Test
  void anInstallNotNewerThanTheNewestIsRefused() {
    MvccStore store = new MvccStore();
    store.install(0, new Version(0, 2, 1, new long[0]));

    assertThatThrownBy(() -> store.install(0, new Version(1, 2, 2, new long[0])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("version at 2 is not newer than 2");
  }
}
