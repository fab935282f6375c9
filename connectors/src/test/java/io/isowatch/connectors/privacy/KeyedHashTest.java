package io.isowatch.connectors.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyedHashTest {
  private static final byte[] JEFE = "Jefe".getBytes(StandardCharsets.US_ASCII);

  /**
   * RFC 4231 §4.3, test case 2: HMAC-SHA-256("Jefe", "what do ya want for nothing?") =
   * 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843; its first 64 bits.
   */
  @Test
  void keysMatchRfc4231TestCase2Truncated() {
    assertThat(KeyedHash.withSecret(JEFE).key("what do ya want for nothing?")).isEqualTo("5bdcc146bf60754e");
  }

  /**
   * Expected values computed independently with OpenSSL 3: {@code printf '\x00\x00\x00\x00\x00\x00\x00\x2a'
   * | openssl dgst -sha256 -hmac Jefe} gives 7f891fe7aa7140a6..., and {@code printf accounts/42 | openssl
   * dgst -sha256 -hmac Jefe} gives 0b1bd5a80f4851dc....
   */
  @Test
  void valuesHashTheirEightBigEndianBytes() {
    KeyedHash h = KeyedHash.withSecret(JEFE);
    assertThat(h.value(42)).isEqualTo(0x7f891fe7aa7140a6L);
    assertThat(h.key("accounts/42")).isEqualTo("0b1bd5a80f4851dc");
  }

  @Test
  void privacyHashesOrKeepsAsConfigured() {
    Privacy hashed = Privacy.hashed(JEFE);
    assertThat(hashed.isHashed()).isTrue();
    assertThat(hashed.key("accounts/42")).isEqualTo("0b1bd5a80f4851dc");
    assertThat(hashed.value(42)).isEqualTo(0x7f891fe7aa7140a6L);
    Privacy plain = Privacy.plaintext();
    assertThat(plain.isHashed()).isFalse();
    assertThat(plain.key("accounts/42")).isEqualTo("accounts/42");
    assertThat(plain.value(42)).isEqualTo(42L);
  }

  @Test
  void anEmptySecretIsRefused() {
    assertThatThrownBy(() -> Privacy.hashed(new byte[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the HMAC secret is empty");
  }
}
