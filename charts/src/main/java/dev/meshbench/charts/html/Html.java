package dev.meshbench.charts.html;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A small typed HTML builder that escapes by construction: text and attribute values are always escaped
 * ({@code & < > " '}), names of elements, attributes and character references are checked against what HTML allows,
 * and the one way to write markup as it is, {@link #codeGeneratedMarkup}, says in its name that it is for markup the
 * code itself made (a style sheet constant), never for data read from a run.
 *
 * <pre>{@code
 * Element row = Html.el("tr").add(Html.el("td").cls("l").text(run.caseId()));
 * String html = Html.render(row);
 * }</pre>
 */
public final class Html {
    private static final Pattern ENTITY_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]*");

    private Html() {
    }

    /** A new element {@code <tag>}; void elements ({@code br}, {@code img}, {@code meta}, ...) take no children. */
    public static Element el(String tag) {
        return new Element(tag);
    }

    /** Text, escaped when written. {@code null} is not text: say what is missing instead. */
    public static Node text(String text) {
        return new Text(Objects.requireNonNull(text, "text"));
    }

    /** A named character reference such as {@code nbsp} or {@code plusmn}, written as {@code &name;}. */
    public static Node entity(String name) {
        if (!ENTITY_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("character reference name \"" + name + "\" is not [A-Za-z][A-Za-z0-9]*");
        }
        return new Entity(name);
    }

    /** Several nodes written one after the other, as one. */
    public static Node fragment(Node... nodes) {
        return fragment(Arrays.asList(nodes));
    }

    /** As {@link #fragment(Node...)}. */
    public static Node fragment(List<? extends Node> nodes) {
        return new Fragment(List.copyOf(nodes));
    }

    /**
     * Markup written exactly as given. Only for markup the code itself generated (a style sheet constant); never
     * pass anything read from a file or a run.
     */
    public static Node codeGeneratedMarkup(String markup) {
        return new CodeGeneratedMarkup(Objects.requireNonNull(markup, "markup"));
    }

    /** {@code <a href="href">label</a>}. */
    public static Element link(String href, String label) {
        return el("a").attr("href", href).text(label);
    }

    /** {@code <code>s</code>}. */
    public static Element code(String s) {
        return el("code").text(s);
    }

    /** A table cell, right-aligned as the report's numbers are. */
    public static Element td(String s) {
        return el("td").text(s);
    }

    /** A left-aligned table cell (class {@code l}), for names. */
    public static Element tdL(String s) {
        return el("td").cls("l").text(s);
    }

    /** A header cell. */
    public static Element th(String s) {
        return el("th").text(s);
    }

    /** A left-aligned header cell (class {@code l}). */
    public static Element thL(String s) {
        return el("th").cls("l").text(s);
    }

    /** The HTML of {@code node}. */
    public static String render(Node node) {
        StringBuilder out = new StringBuilder();
        node.writeTo(out);
        return out.toString();
    }

    /** A whole page: the doctype, then {@code html}. */
    public static String document(Element html) {
        StringBuilder out = new StringBuilder(64 * 1024).append("<!DOCTYPE html>\n");
        html.writeTo(out);
        return out.toString();
    }

    /**
     * {@code s} safe as HTML text and as a double- or single-quoted attribute value: {@code & < > " '} escaped, and a
     * no-break space written as {@code &nbsp;} so it shows in the page's source.
     */
    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        escapeTo(s, b);
        return b.toString();
    }

    static void escapeTo(String s, StringBuilder b) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                case '\u00a0' -> b.append("&nbsp;");
                default -> b.append(ch);
            }
        }
    }

    /** Text: escaped when written. */
    record Text(String text) implements Node {
        @Override
        public void writeTo(StringBuilder out) {
            escapeTo(text, out);
        }
    }

    /** A named character reference, its name checked. */
    record Entity(String name) implements Node {
        @Override
        public void writeTo(StringBuilder out) {
            out.append('&').append(name).append(';');
        }
    }

    /** Nodes one after the other. */
    record Fragment(List<Node> nodes) implements Node {
        @Override
        public void writeTo(StringBuilder out) {
            nodes.forEach(n -> n.writeTo(out));
        }
    }

    /** Markup the code generated, written as it is. */
    record CodeGeneratedMarkup(String markup) implements Node {
        @Override
        public void writeTo(StringBuilder out) {
            out.append(markup);
        }
    }
}
