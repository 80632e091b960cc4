package dev.meshbench.charts.load;

/** Whether to run the JTL conversion before reading a results directory. */
public enum ConversionMode {
    /** Read results.json only (the default: conversion happened at the end of each run). */
    NONE,
    /** Convert run folders that have run.json and samples.jtl but no results.json. */
    MISSING,
    /** Convert every run folder again (after a converter fix), overwriting results.json. */
    ALL
}
