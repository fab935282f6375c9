package io.isowatch.checker.format;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** Paths of the hand-written histories under {@code src/test/resources/formats}. */
final class Resources {
  private Resources() {}

  static Path path(String name) {
    try {
      return Path.of(Resources.class.getResource("/formats/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
