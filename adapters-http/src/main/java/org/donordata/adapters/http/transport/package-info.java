/**
 * The transport: the server's sockets and limits, and the workarounds for what Helidon 4.5.0 does not do itself
 * (connection caps, the client deadline, the request line's method, framing, path spelling, Helidon's debug log), each
 * naming the Helidon behaviour it stands in for, to be deleted once Helidon does it. Depends only on errors; what it
 * answers with and what it serves are handed in ({@link org.donordata.adapters.http.transport.HardenedServer#build}).
 */
package org.donordata.adapters.http.transport;
