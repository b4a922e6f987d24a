/**
 * The composition root: reads the environment, wires the adapters into the use cases, and runs the
 * server or an operator command. The only package that sees every module; nothing depends on it.
 */
package org.donordata.bootstrap;
