package dev.meshbench.charts.html;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An HTML element: a checked tag name, attributes in the order they were set (values escaped when written), and
 * children. Void elements ({@code br}, {@code img}, {@code meta}, ...) are written without an end tag and refuse
 * children. Block elements end with a line break so the page's source stays readable.
 */
public final class Element implements Node {
    private static final Pattern TAG = Pattern.compile("[a-z][a-z0-9]*");
    private static final Pattern ATTRIBUTE = Pattern.compile("[a-z][a-z0-9-]*");
    private static final Set<String> VOID = Set.of("area", "base", "br", "col", "embed", "hr", "img", "input", "link",
            "meta", "source", "track", "wbr");
    /** Elements followed by a line break in the source. */
    private static final Set<String> BLOCK = Set.of("html", "head", "body", "meta", "title", "style", "h1", "h2", "h3",
            "p", "div", "table", "tr", "ul", "li", "figure", "img");
    /** Elements whose start tag is followed by a line break too. */
    private static final Set<String> OPENS_BLOCK = Set.of("html", "head", "body", "style", "table", "ul");

    private final String tag;
    private final Map<String, String> attributes = new LinkedHashMap<>();
    private final List<Node> children = new ArrayList<>();

    Element(String tag) {
        if (!TAG.matcher(tag).matches()) {
            throw new IllegalArgumentException("element name \"" + tag + "\" is not [a-z][a-z0-9]*");
        }
        this.tag = tag;
    }

    /** The tag name. */
    public String tag() {
        return tag;
    }

    /** Sets attribute {@code name} to {@code value} (escaped when written); a {@code null} value leaves it out. */
    public Element attr(String name, String value) {
        if (!ATTRIBUTE.matcher(name).matches()) {
            throw new IllegalArgumentException("attribute name \"" + name + "\" is not [a-z][a-z0-9-]*");
        }
        if (value == null) {
            attributes.remove(name);
        } else {
            attributes.put(name, value);
        }
        return this;
    }

    /** As {@link #attr} with a number. */
    public Element attr(String name, long value) {
        return attr(name, Long.toString(value));
    }

    /** Sets the {@code class} attribute; {@code null} or blank leaves it out. */
    public Element cls(String classes) {
        return attr("class", classes == null || classes.isBlank() ? null : classes.strip());
    }

    /** Appends children. */
    public Element add(Node... nodes) {
        return add(Arrays.asList(nodes));
    }

    /** Appends children. */
    public Element add(List<? extends Node> nodes) {
        if (VOID.contains(tag) && !nodes.isEmpty()) {
            throw new IllegalStateException("<" + tag + "> is a void element and takes no children");
        }
        children.addAll(nodes);
        return this;
    }

    /** Appends escaped text. */
    public Element text(String text) {
        return add(Html.text(text));
    }

    @Override
    public void writeTo(StringBuilder out) {
        out.append('<').append(tag);
        for (Map.Entry<String, String> a : attributes.entrySet()) {
            out.append(' ').append(a.getKey()).append("=\"");
            Html.escapeTo(a.getValue(), out);
            out.append('"');
        }
        out.append('>');
        if (!VOID.contains(tag)) {
            if (OPENS_BLOCK.contains(tag)) {
                out.append('\n');
            }
            children.forEach(c -> c.writeTo(out));
            out.append("</").append(tag).append('>');
        }
        if (BLOCK.contains(tag)) {
            out.append('\n');
        }
    }

    @Override
    public String toString() {
        return Html.render(this);
    }
}
