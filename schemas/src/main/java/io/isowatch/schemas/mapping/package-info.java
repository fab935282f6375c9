/**
 * The one mapping between each Avro record of {@code schemas/} and the checker's model, used by
 * every module that needs it: {@link io.isowatch.schemas.mapping.ViolationMapping} (a violation
 * and its witness, both directions), {@link io.isowatch.schemas.mapping.StatusMapping}.
 */
package io.isowatch.schemas.mapping;
