/**
 * Privacy of recorded histories: {@link io.isowatch.connectors.privacy.KeyedHash} (HMAC-SHA-256
 * truncated to 64 bits) and {@link io.isowatch.connectors.privacy.Privacy}, the choice between
 * hashed (the default of every configuration) and plaintext keys and values.
 */
package io.isowatch.connectors.privacy;
