package dev.meshbench.charts.html;

import static dev.meshbench.charts.html.Html.el;
import static dev.meshbench.charts.html.Html.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HtmlTest {
    private static final String NASTY = "<b>\"Tom\" & 'Jerry'</b>";
    private static final String ESCAPED = "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;";

    @Test
    @DisplayName("text with < & \" ' > comes out escaped")
    void textEscaped() {
        assertEquals(ESCAPED, Html.render(text(NASTY)));
        assertEquals("<span>" + ESCAPED + "</span>", Html.render(el("span").text(NASTY)));
    }

    @Test
    @DisplayName("an attribute value with < & \" ' > comes out escaped inside double quotes")
    void attributeEscaped() {
        assertEquals("<td title=\"" + ESCAPED + "\"></td>", Html.render(el("td").attr("title", NASTY)));
        assertEquals("<a href=\"x?a=1&amp;b=2\">x</a>", Html.render(el("a").attr("href", "x?a=1&b=2").text("x")));
    }

    @Test
    @DisplayName("a no-break space is written as &nbsp; in text and attributes")
    void noBreakSpace() {
        assertEquals("<td title=\"5&nbsp;%\">5&nbsp;%</td>", Html.render(el("td").attr("title", "5\u00a0%")
                .text("5\u00a0%")));
    }

    @Test
    @DisplayName("elements nest, attributes keep their order, a null attribute or blank class is left out")
    void nesting() {
        Element row = el("tr").cls("first base").add(el("td").cls("l").attr("title", null).add(el("code").text("a<b")),
                el("td").cls(" ").text("1"));
        assertEquals("<tr class=\"first base\"><td class=\"l\"><code>a&lt;b</code></td><td>1</td></tr>\n",
                Html.render(row));
        assertEquals("<table>\n<tr><td>x</td></tr>\n</table>\n",
                Html.render(el("table").add(el("tr").add(el("td").text("x")))));
    }

    @Test
    @DisplayName("void elements have no end tag and refuse children")
    void voidElements() {
        assertEquals("a<br>b", Html.render(Html.fragment(text("a"), el("br"), text("b"))));
        assertEquals("<img src=\"x.png\" width=\"900\" alt=\"&lt;chart&gt;\">\n",
                Html.render(el("img").attr("src", "x.png").attr("width", 900).attr("alt", "<chart>")));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> el("br").text("x"));
        assertEquals("<br> is a void element and takes no children", e.getMessage());
    }

    @Test
    @DisplayName("names of elements, attributes and character references are checked; entities are written as named")
    void names() {
        assertEquals("&plusmn;&nbsp;1", Html.render(Html.fragment(Html.entity("plusmn"), Html.entity("nbsp"),
                text("1"))));
        assertThrows(IllegalArgumentException.class, () -> el("td onclick=x"));
        assertThrows(IllegalArgumentException.class, () -> el("td").attr("on\"x", "1"));
        assertThrows(IllegalArgumentException.class, () -> Html.entity("lt;<script>"));
    }

    @Test
    @DisplayName("code-generated markup is written as it is, and a document starts with its doctype")
    void markupAndDocument() {
        String page = Html.document(el("html").attr("lang", "en").add(el("head").add(el("style")
                .add(Html.codeGeneratedMarkup("body{font-family:\"A\",sans-serif}\n")))));
        assertEquals("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<style>\nbody{font-family:\"A\",sans-serif}\n"
                + "</style>\n</head>\n</html>\n", page);
    }
}
