/**
 * The monitor's violations page: {@link io.isowatch.stream.web.RecentViolations} keeps the last
 * violations read from the violations topic, {@link io.isowatch.stream.web.ViolationPages} serves
 * them as HTML (a filtered list and one witness page each) on the metrics endpoint.
 */
package io.isowatch.stream.web;
