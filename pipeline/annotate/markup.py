"""An annotation's Markdown as safe HTML: rendered by Python-Markdown, then sanitised by nh3.

The only module that imports `markdown` and `nh3`. Raw HTML in a note is not passed through: Markdown's
HTML handling is switched off (a `<script>` is shown as the text it is), and nh3 (the Rust ammonia
sanitiser) then keeps only an allowlist of tags and attributes, links only to http, https and mailto:
no script, no event handler, no `javascript:` or `data:` address can reach the site from a note.
"""
from __future__ import annotations

import markdown
import nh3

TAGS = {"p", "br", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "a", "hr", "h4", "h5", "h6",
        "table", "thead", "tbody", "tr", "th", "td", "del"}
ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}}
SCHEMES = {"http", "https", "mailto"}
# A note's headings sit under the rule's own: "# Why" becomes an h4, "## ..." an h5.
HEADING_SHIFT = 3


def _markdown() -> markdown.Markdown:
    renderer = markdown.Markdown(extensions=["tables", "sane_lists"], output_format="html")
    renderer.preprocessors.deregister("html_block")     # raw HTML blocks stay text
    renderer.inlinePatterns.deregister("html")          # and so do inline tags
    return renderer


_RENDERER = _markdown()


def to_html(body: str) -> str:
    """The note's body as sanitised HTML."""
    _RENDERER.reset()
    rendered = _RENDERER.convert(body)
    for level in range(6, 0, -1):
        shifted = min(level + HEADING_SHIFT, 6)
        rendered = rendered.replace(f"<h{level}>", f"<h{shifted}>").replace(f"</h{level}>", f"</h{shifted}>")
    return sanitise(rendered)


def sanitise(html: str) -> str:
    return nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, url_schemes=SCHEMES,
                     link_rel="nofollow noopener noreferrer", strip_comments=True)
