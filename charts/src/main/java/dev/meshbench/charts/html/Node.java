package dev.meshbench.charts.html;

/**
 * A piece of an HTML page: an {@link Element}, escaped {@link Html#text text}, a named {@link Html#entity character
 * reference}, a {@link Html#fragment fragment} of nodes, or {@link Html#codeGeneratedMarkup markup the code itself
 * generated}. Only the last one is written as it is; everything else is escaped by construction.
 */
public sealed interface Node permits Element, Html.Text, Html.Entity, Html.Fragment, Html.CodeGeneratedMarkup {
    /** Appends this node's HTML to {@code out}. */
    void writeTo(StringBuilder out);
}
