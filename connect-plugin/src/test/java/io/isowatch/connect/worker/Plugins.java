package io.isowatch.connect.worker;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Test fixture: the plugins a Kafka Connect worker loads in these tests, laid out as on a
 * deployment's {@code plugin.path}, and the class path of the worker itself.
 *
 * <p>The isowatch plugin is the packaged zip, {@code deploy/connect/isowatch-connect-plugin.zip},
 * written by {@code package}: tests reading it run in the {@code integration-test} phase (tag
 * {@code plugin-package}, see the pom). Debezium's PostgreSQL connector is not bundled (its own
 * plugin archive is what a deployment unzips); here its directory holds the jars of this test's
 * class path that it needs and the worker lacks: group {@code io.debezium}, the PostgreSQL driver
 * and protobuf. A class it needs beyond them (Jackson, for instance) comes from the worker's
 * class path, as Connect's isolating class loader delegates what a plugin does not hold.
 */
public final class Plugins {
  /** The packaged plugin. */
  public static final Path ZIP = Path.of(System.getProperty("user.dir"))
      .resolve("../deploy/connect/isowatch-connect-plugin.zip");
  /** Path fragments (Maven repository layout) of the jars that form Debezium's PostgreSQL plugin. */
  private static final List<String> DEBEZIUM = List.of("/io/debezium/", "/org/postgresql/", "/com/google/protobuf/");

  private Plugins() {}

  /**
   * Lays out a plugin path: {@code isowatch-connect-plugin/} from the zip and {@code
   * debezium-connector-postgres/} from this class path.
   *
   * @param into an empty directory, which becomes the {@code plugin.path}
   * @return {@code into}
   * @throws IllegalStateException if this class path lacks Debezium's PostgreSQL connector
   */
  public static Path prepare(Path into) throws IOException {
    unzip(ZIP, into);
    Path debezium = Files.createDirectories(into.resolve("debezium-connector-postgres"));
    List<String> copied = new ArrayList<>();
    for (String entry : classPath()) {
      if (isDebezium(entry)) {
        Path jar = Path.of(entry);
        Files.copy(jar, debezium.resolve(jar.getFileName()));
        copied.add(jar.getFileName().toString());
      }
    }
    if (copied.stream().noneMatch(j -> j.startsWith("debezium-connector-postgres-"))) {
      throw new IllegalStateException("no debezium-connector-postgres jar on the class path: " + classPath());
    }
    return into;
  }

  /**
   * @return the worker's class path: this test's class path without what {@link #prepare} puts on
   *     the plugin path (Debezium) and without isowatch's own classes (this build's {@code
   *     target/classes} and {@code target/test-classes} directories, and {@code isowatch-*} jars),
   *     so that the transform can only come from the zip
   * @throws IllegalStateException if this class path lacks the Connect runtime (it is the one
   *     surefire gives, in {@code java.class.path}, not a manifest-only jar pointing to it)
   */
  public static List<String> workerClassPath() {
    Path build = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    List<String> worker = new ArrayList<>();
    for (String entry : classPath()) {
      Path p = Path.of(entry).toAbsolutePath();
      if (!isDebezium(entry) && !p.startsWith(build) && !p.getFileName().toString().startsWith("isowatch-")) {
        worker.add(entry);
      }
    }
    if (worker.stream().noneMatch(e -> Path.of(e).getFileName().toString().startsWith("connect-runtime-"))) {
      throw new IllegalStateException("no connect-runtime jar on the class path: " + classPath());
    }
    return worker;
  }

  /**
   * Extracts a zip's files.
   *
   * @param zip the archive
   * @param into the directory to extract into
   * @return the zip's file entries (directories left out), in the archive's order
   * @throws IOException if an entry would land outside {@code into}, or on a read or write error
   */
  public static List<String> unzip(Path zip, Path into) throws IOException {
    List<String> names = new ArrayList<>();
    try (InputStream in = Files.newInputStream(zip); ZipInputStream entries = new ZipInputStream(in)) {
      for (ZipEntry e = entries.getNextEntry(); e != null; e = entries.getNextEntry()) {
        Path target = into.resolve(e.getName()).normalize();
        if (!target.startsWith(into)) {
          throw new IOException(zip + ": entry " + e.getName() + " lies outside the directory it is extracted to");
        }
        if (e.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(entries, target);
          names.add(e.getName());
        }
      }
    }
    return names;
  }

  private static List<String> classPath() {
    return List.of(System.getProperty("java.class.path").split(File.pathSeparator));
  }

  private static boolean isDebezium(String entry) {
    String path = entry.replace(File.separatorChar, '/');
    return path.endsWith(".jar") && DEBEZIUM.stream().anyMatch(path::contains);
  }
}
