/**
 * Export of simulated histories in the isowatch JSON-lines format, Plume text and Elle EDN ({@link
 * io.isowatch.enginesim.export.SimExport}), so that other checkers can judge the same runs.
 */
package io.isowatch.enginesim.export;
