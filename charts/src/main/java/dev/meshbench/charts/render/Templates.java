package dev.meshbench.charts.render;

import io.pebbletemplates.pebble.PebbleEngine;
import io.pebbletemplates.pebble.loader.ClasspathLoader;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;

/**
 * The report pages' Pebble templates, {@code dev/meshbench/charts/templates/*.peb} on the class path. Every value a
 * template prints is HTML-escaped ({@code & < > " '}) unless the template itself wrote it, and a variable or attribute
 * the context does not have fails the page instead of printing nothing, so a typo in a template cannot go unnoticed.
 * The templates hold the pages' markup and prose; the renderers only hand them their rows, numbers already formatted.
 */
public final class Templates {
    /** Where the templates are on the class path. */
    static final String FOLDER = "dev/meshbench/charts/templates";

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'",
            Locale.ROOT).withZone(ZoneOffset.UTC);

    private static final PebbleEngine ENGINE = engine();

    private Templates() {
    }

    private static PebbleEngine engine() {
        ClasspathLoader loader = new ClasspathLoader(Templates.class.getClassLoader());
        loader.setPrefix(FOLDER);
        loader.setSuffix(".peb");
        return new PebbleEngine.Builder().loader(loader).autoEscaping(true).defaultEscapingStrategy("html")
                .strictVariables(true).build();
    }

    /** Template {@code name} ({@code report} is {@code report.peb}) evaluated with {@code context}. */
    public static String render(String name, Map<String, Object> context) {
        StringWriter out = new StringWriter(64 * 1024);
        try {
            ENGINE.getTemplate(name).evaluate(out, context, Locale.ROOT);
        } catch (IOException e) {
            throw new UncheckedIOException("rendering template " + name + " failed", e);
        }
        return out.toString();
    }

    /** When a page was generated, as the pages say it: {@code 2026-11-21 12:00:00 UTC}. */
    public static String time(Instant instant) {
        return TIME.format(instant);
    }
}
