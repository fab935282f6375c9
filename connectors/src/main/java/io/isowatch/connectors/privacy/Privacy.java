package io.isowatch.connectors.privacy;

import java.util.Objects;

/**
 * How keys and values are written into recorded operations: as keyed hashes ({@link #hashed}, the
 * default of every isowatch configuration that publishes) or as the application gave them ({@link
 * #plaintext}, only when configured so).
 *
 * <p>Hashing keeps what the checker needs (equality of keys, uniqueness of values per key; see
 * {@link KeyedHash}) and nothing else. A hashed value may, with probability 2⁻⁶³ per value, land on
 * one of the checker's two reserved values ({@code Long.MIN_VALUE}, {@code Long.MIN_VALUE + 1});
 * the history is then refused by the checker with an error naming the value, never misread.
 * Thread-safe and immutable.
 */
public final class Privacy {
  private static final Privacy PLAINTEXT = new Privacy(null);

  private final KeyedHash hash;

  private Privacy(KeyedHash hash) {
    this.hash = hash;
  }

  /**
   * @param secret the HMAC key shared by every recorder of one history (keys hashed by different
   *     secrets are different keys to the checker); copied
   * @return keys and values replaced by their keyed hashes
   * @throws IllegalArgumentException if {@code secret} is empty
   */
  public static Privacy hashed(byte[] secret) {
    return new Privacy(KeyedHash.withSecret(secret));
  }

  /** @return keys and values kept as they are: only for histories that stay in trusted hands */
  public static Privacy plaintext() {
    return PLAINTEXT;
  }

  /** @return whether keys and values are hashed */
  public boolean isHashed() {
    return hash != null;
  }

  /**
   * @param key the application's key
   * @return the key as it is recorded: its {@link KeyedHash#key} or itself
   */
  public String key(String key) {
    Objects.requireNonNull(key, "key");
    return hash == null ? key : hash.key(key);
  }

  /**
   * @param value a register value, version token or list element
   * @return the value as it is recorded: its {@link KeyedHash#value} or itself
   */
  public long value(long value) {
    return hash == null ? value : hash.value(value);
  }

  @Override
  public String toString() {
    return hash == null ? "plaintext" : "hashed (HMAC-SHA-256/64)";
  }
}
