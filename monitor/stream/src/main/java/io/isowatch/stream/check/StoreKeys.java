package io.isowatch.stream.check;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * Keys of the checker's stores: every key starts with the history's prefix (4-byte big-endian
 * length, then the historyId in UTF-8), so that one history's entries are one prefix scan, and
 * entries with a big-endian non-negative number after the prefix come back in numeric order (the
 * stores order keys by unsigned bytes).
 */
final class StoreKeys {
  private StoreKeys() {}

  /** @return the history's prefix */
  static byte[] prefix(String historyId) {
    byte[] id = historyId.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(4 + id.length).putInt(id.length).put(id).array();
  }

  /** @return the prefix followed by {@code n}, 8 bytes big-endian */
  static Bytes withLong(byte[] prefix, long n) {
    return Bytes.wrap(ByteBuffer.allocate(prefix.length + 8).put(prefix).putLong(n).array());
  }

  /** @return the prefix followed by {@code n}, 4 bytes big-endian */
  static Bytes withInt(byte[] prefix, int n) {
    return Bytes.wrap(ByteBuffer.allocate(prefix.length + 4).put(prefix).putInt(n).array());
  }

  /** @return the prefix followed by {@code s} in UTF-8 */
  static Bytes withString(byte[] prefix, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return Bytes.wrap(ByteBuffer.allocate(prefix.length + b.length).put(prefix).put(b).array());
  }

  /** @return the historyId of a key that starts with a prefix */
  static String historyId(byte[] key) {
    ByteBuffer b = ByteBuffer.wrap(key);
    int n = b.getInt();
    return new String(key, 4, n, StandardCharsets.UTF_8);
  }

  /** @return the 8-byte number after the prefix */
  static long longAfter(byte[] key, int prefixLength) {
    return ByteBuffer.wrap(key, prefixLength, 8).getLong();
  }

  /** @return the 4-byte number after the prefix */
  static int intAfter(byte[] key, int prefixLength) {
    return ByteBuffer.wrap(key, prefixLength, 4).getInt();
  }

  /** @return the UTF-8 string after the prefix */
  static String stringAfter(byte[] key, int prefixLength) {
    return new String(key, prefixLength, key.length - prefixLength, StandardCharsets.UTF_8);
  }

  /** @return {@code n} as 8 bytes big-endian */
  static byte[] longBytes(long n) {
    return ByteBuffer.allocate(8).putLong(n).array();
  }

  /** @return the 8-byte big-endian number */
  static long longOf(byte[] b) {
    return ByteBuffer.wrap(b).getLong();
  }
}
