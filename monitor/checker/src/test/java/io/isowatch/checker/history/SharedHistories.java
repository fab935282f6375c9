package io.isowatch.checker.history;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real histories in {@code ../shared/histories/real/} (system property {@code
 * isowatch.shared.histories}, set by surefire). A test that needs one is skipped, with a message
 * saying what is missing, when the folder is absent on a developer's machine; under {@code CI=true}
 * it fails instead, so that CI never passes without running it.
 */
public final class SharedHistories {
  private SharedHistories() {}

  /**
   * @param name a file or directory name in {@code real/}
   * @return its path, which exists
   */
  public static Path real(String name) {
    return shared("real/" + name);
  }

  /**
   * @param relative a path below the shared histories folder, e.g. {@code polysi/rubis-10000/hist-00000}
   * @return its path, which exists
   */
  public static Path shared(String relative) {
    String name = relative;
    String shared = System.getProperty("isowatch.shared.histories");
    Path path = shared == null ? null : Path.of(shared).resolve(relative);
    boolean present = path != null && Files.exists(path);
    String why = "shared history " + name + " absent (system property isowatch.shared.histories = "
        + shared + ")";
    if (!present && "true".equalsIgnoreCase(System.getenv("CI"))) {
      fail(why + "; CI=true, so this is a failure, not a skip");
    }
    assumeTrue(present, why + ": skipping");
    return path;
  }
}
