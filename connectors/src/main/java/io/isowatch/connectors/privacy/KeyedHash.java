package io.isowatch.connectors.privacy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Keyed hashing of keys and values before they leave the application: HMAC-SHA-256 (RFC 2104 with
 * SHA-256, test vectors in RFC 4231) truncated to its first 64 bits (RFC 2104 §5 allows truncating
 * to the leftmost bits; 64 bits keeps collisions among a history's values negligible, about
 * n²/2⁶⁵ for n values).
 *
 * <p>Without the secret the hashes reveal nothing of the keys and values, yet equal inputs give equal
 * hashes and distinct ones distinct hashes (with the probability above), which is all the checker
 * needs: {@code wr} is recovered from equal values, and keys only need telling apart.
 *
 * <ul>
 *   <li>a key (a string) hashes its UTF-8 bytes and is rendered as 16 lowercase hex digits;
 *   <li>a value (a long) hashes its 8 bytes, big-endian, and is the first 8 bytes of the MAC read
 *       as a big-endian long.
 * </ul>
 *
 * <p>Thread-safe: each thread uses its own {@link Mac} instance.
 */
public final class KeyedHash {
  private static final String ALGORITHM = "HmacSHA256";

  private final SecretKeySpec secret;
  private final ThreadLocal<Mac> macs;

  private KeyedHash(byte[] secret) {
    this.secret = new SecretKeySpec(secret.clone(), ALGORITHM);
    this.macs = ThreadLocal.withInitial(this::newMac);
    newMac();
  }

  /**
   * @param secret the HMAC key, at least 1 byte; RFC 2104 §3 recommends at least 32 bytes for
   *     SHA-256. Copied.
   * @return a hasher with that key
   * @throws IllegalArgumentException if {@code secret} is empty
   */
  public static KeyedHash withSecret(byte[] secret) {
    if (secret.length == 0) {
      throw new IllegalArgumentException("the HMAC secret is empty");
    }
    return new KeyedHash(secret);
  }

  /**
   * @param key a key as the application names it, e.g. {@code accounts/42}
   * @return the first 64 bits of HMAC-SHA-256(secret, UTF-8 of key), as 16 lowercase hex digits
   */
  public String key(String key) {
    return String.format("%016x", first64(key.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * @param value a value or version token
   * @return the first 64 bits of HMAC-SHA-256(secret, value as 8 big-endian bytes), as a long
   */
  public long value(long value) {
    return first64(ByteBuffer.allocate(Long.BYTES).putLong(value).array());
  }

  private long first64(byte[] data) {
    return ByteBuffer.wrap(macs.get().doFinal(data)).getLong();
  }

  private Mac newMac() {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(secret);
      return mac;
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("this JVM cannot compute " + ALGORITHM + ": " + e.getMessage(), e);
    }
  }
}
