/**
 * The kit's facts, each in one place and with no dependencies: the egress cases and their hops, the names of
 * components and listeners, the services with their call graph and readiness paths, the airports and the original
 * driver's lists, the dataset and workload defaults, and the catalogue of every {@code meshbench.*} setting. Every
 * other module reads them from here (the JMeter plugin shades this jar), so no test has to keep two copies equal.
 */
package dev.meshbench.model;
