package io.isowatch.checker.window;

import java.nio.charset.StandardCharsets;

/**
 * 64-bit fingerprints of written (key, value) pairs, stable across processes (they are stored in
 * changelogs and compared after a restart): FNV-1a over the key's UTF-8 bytes, mixed with the value
 * by the SplitMix64 finaliser (Steele, Lea &amp; Flood, OOPSLA 2014). Two different writes share a
 * fingerprint with probability about 2^-64 per pair; the consequence is documented where they are
 * used.
 */
final class Fingerprints {
  private Fingerprints() {}

  /** @return the key's 64-bit hash */
  static long ofKey(String key) {
    long h = 0xcbf29ce484222325L;
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    for (byte b : bytes) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  /** @return the fingerprint of {@code value} written to the key whose hash is {@code keyHash} */
  static long of(long keyHash, long value) {
    long z = keyHash + 0x9e3779b97f4a7c15L * (value + 0x632be59bd9b4e019L);
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
