/**
 * A real schema registry for tests: {@link io.isowatch.registry.RegistryServer} runs Apicurio
 * Registry 2.6.13.Final (the release's own Quarkus build, unpacked by this module's Maven build
 * from Maven Central's {@code io.apicurio:apicurio-registry-app:2.6.13.Final:all:tar.gz}) as a
 * child JVM with in-memory storage, and gives the URLs of its v2 REST API (Apicurio serdes) and of
 * its Confluent-compatible API.
 */
package io.isowatch.registry;
