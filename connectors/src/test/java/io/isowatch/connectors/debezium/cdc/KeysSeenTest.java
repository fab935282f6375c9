package io.isowatch.connectors.debezium.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file form of {@link KeysSeen}; the topic form runs in {@code CdcCaptureEndToEndTest}. */
class KeysSeenTest {
  @Test
  void keysAddedByOneRunAreLoadedByTheNextWhateverTheirCharacters(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("offsets.dat.keys");
    KeysSeen.File first = new KeysSeen.File(file);
    assertThat(first.load()).isEmpty();
    first.add(List.of("k1", "with\nnewline", "a,b%20 c"));
    first.add(List.of());
    first.add(List.of("é"));
    assertThat(new KeysSeen.File(file).load()).isEqualTo(Set.of("k1", "with\nnewline", "a,b%20 c", "é"));
    assertThat(Files.readAllLines(file)).containsExactly("k1", "with%0Anewline", "a%2Cb%2520+c", "%C3%A9");
  }

  @Test
  void aFileThatCannotBeWrittenFailsTheBatch(@TempDir Path dir) {
    KeysSeen.File keys = new KeysSeen.File(dir.resolve("missing").resolve("keys"));
    assertThatThrownBy(() -> keys.add(List.of("k"))).isInstanceOf(UncheckedIOException.class)
        .hasMessageStartingWith("cannot store the keys seen in " + dir.resolve("missing").resolve("keys") + ": ");
  }
}
