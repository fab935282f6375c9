package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines, line numbers and byte counts, across buffer boundaries and line terminators. */
class LineReaderTest {
  @Test
  void splitsLinesAndCountsBytes() throws Exception {
    String longLine = "x".repeat(70_000);
    String text = "a\r\nbé\n\n" + longLine + "\nlast";
    LineReader r = new LineReader(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), Path.of("t.txt"));
    List<String> seen = new ArrayList<>();
    String line;
    while ((line = r.next()) != null) {
      seen.add(r.lineNumber() + ":" + (line.length() > 10 ? line.length() + " chars" : line) + ":"
          + r.bytesConsumed());
    }
    assertThat(seen).containsExactly("1:a:3", "2:bé:7", "3::8", "4:70000 chars:70009",
        "5:last:70013");
  }
}
