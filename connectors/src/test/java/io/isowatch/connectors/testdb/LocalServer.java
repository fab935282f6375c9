package io.isowatch.connectors.testdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * What the private database fixtures share: finding the installed binaries, a free port, a
 * temporary directory the server's OS user owns, running setup commands, deciding between skipping
 * and failing when no server can be had, and removing the directory afterwards.
 */
final class LocalServer {
  private LocalServer() {}

  /** @return whether this JVM runs as root (servers then run as their own OS user) */
  static boolean root() {
    return "root".equals(System.getProperty("user.name"));
  }

  /**
   * @param candidates absolute paths, in order of preference
   * @return the first that exists and is executable
   */
  static Optional<Path> firstExecutable(List<String> candidates) {
    return candidates.stream().map(Path::of).filter(Files::isExecutable).findFirst();
  }

  /**
   * @param dir a directory holding versioned subdirectories, e.g. {@code /usr/lib/postgresql}
   * @param tail the path under each, e.g. {@code bin/initdb}
   * @return the paths {@code dir/<version>/tail}, highest version name first (empty if none)
   */
  static List<String> versioned(String dir, String tail) {
    Path d = Path.of(dir);
    if (!Files.isDirectory(d)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(d)) {
      return s.sorted(Comparator.reverseOrder()).map(p -> p.resolve(tail).toString()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** @return a TCP port on 127.0.0.1 that was free a moment ago */
  static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * @param prefix the directory name's prefix
   * @param owner the OS user to own it when running as root (the server refuses to run as root),
   *     ignored otherwise
   * @return a new temporary directory
   */
  static Path tempDir(String prefix, String owner) {
    try {
      Path dir = Files.createTempDirectory(prefix);
      if (root()) {
        UserPrincipal p = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(owner);
        Files.setOwner(dir, p);
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * @param user the OS user to run as when this JVM is root
   * @param command the program and its arguments
   * @return the command, prefixed with {@code runuser -u user --} when root
   */
  static List<String> as(String user, List<String> command) {
    if (!root()) {
      return command;
    }
    List<String> out = new ArrayList<>(List.of("runuser", "-u", user, "--"));
    out.addAll(command);
    return out;
  }

  /**
   * Runs a setup command to completion.
   *
   * @param command the program and its arguments
   * @param log where its output goes
   * @throws IllegalStateException naming the command, its exit code and the log when it fails or
   *     runs longer than two minutes
   */
  static void run(List<String> command, Path log) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!p.waitFor(2, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("timed out after 2 minutes: " + command + "; output in " + log);
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException("exit code " + p.exitValue() + ": " + command + "; output:\n"
            + Files.readString(log));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    }
  }

  /**
   * No server can be had: fails under CI ({@code CI} set in the environment), skips the test class
   * otherwise.
   *
   * @param what e.g. {@code PostgreSQL}
   * @param how what would have provided one
   * @throws IllegalStateException under CI
   * @throws org.opentest4j.TestAbortedException otherwise
   */
  static void unavailable(String what, String how) {
    String message = "no " + what + " for the tests: " + how;
    if (System.getenv("CI") != null && !System.getenv("CI").isEmpty()) {
      throw new IllegalStateException(message + " (CI is set, so this fails instead of skipping)");
    }
    Assumptions.abort(message);
  }

  /** Deletes a directory tree, ignoring files that vanish meanwhile. */
  static void deleteTree(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
