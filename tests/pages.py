"""Helpers shared by the page tests."""

import html
import re
from html.parser import HTMLParser


def text(response):
    """The visible text of a response: tags dropped, entities decoded, white space folded (the
    no-break spaces of French typography too: compare a message with :func:`folded`)."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))


def folded(message):
    """A message as :func:`text` shows it: every run of white space, no-break ones included, one
    space (« onglet\u202f?\u202f: » → « onglet ? : »)."""
    return re.sub(r"\s+", " ", message)


NBSP = "\u00a0"


def plain(text):
    """French typography aside (no-break spaces before « : », inside « », between a number and its
    unit): a text, or each text of a list."""
    if isinstance(text, list):
        return [plain(t) for t in text]
    return text.replace(NBSP, " ")


# Elements whose text is one paragraph of the page; the others (span, code, strong, a…) are inline:
# their text joins the paragraph around them, as a reader sees it.
_BLOCKS = frozenset(
    {
        *("address", "article", "aside", "blockquote", "body", "br", "button", "caption", "dd", "details"),
        *("div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4"),
        *("h5", "h6", "header", "hr", "li", "label", "legend", "main", "nav", "ol", "optgroup", "option"),
        *("p", "pre", "section", "select", "summary", "table", "tbody", "td", "tfoot", "th", "thead"),
        *("title", "tr", "ul"),
    }
)
_SKIPPED = frozenset({"script", "style", "template", "textarea"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"})
# inline elements drawn as boxes of their own (Bootstrap's buttons and badges, the site's « *-badge »
# spans): a row of them is a list, not one sentence
_BOXED = frozenset({"btn", "badge"})
_LINTED_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
_LINTED_META = frozenset({"description", "og:title", "og:description", "og:image:alt", "twitter:title"})


class _VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[tuple[str, str]] = []
        self._current: list[str] = []
        self._path: list[tuple[str, bool]] = []  # (tag, is a block)
        self._skipping = 0

    def _flush(self) -> None:
        text = re.sub(r"[ \t\r\n]+", " ", "".join(self._current)).strip()
        if text:
            self.texts.append(("/".join(tag for tag, _block in self._path[-3:]) or "page", text))
        self._current = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in _LINTED_ATTRIBUTES:
            if values.get(name):
                self.texts.append((f"{tag}[{name}]", str(values[name])))
        meta = values.get("name") or values.get("property")
        if tag == "meta" and meta in _LINTED_META and values.get("content"):
            self.texts.append((f"meta[{meta}]", str(values["content"])))
        classes = str(values.get("class") or "").split()
        block = tag in _BLOCKS or any(c in _BOXED or c.endswith("-badge") for c in classes)
        if block:
            self._flush()
        if tag in _VOID:
            return
        if tag in _SKIPPED:
            self._skipping += 1
        self._path.append((tag, block))

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID or all(t != tag for t, _block in self._path):
            return
        while self._path:
            open_tag, block = self._path[-1]
            if block:
                self._flush()
            if open_tag in _SKIPPED:
                self._skipping = max(0, self._skipping - 1)
            self._path.pop()
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self._current.append(data)

    def close(self) -> None:
        super().close()
        self._flush()


def visible_texts(page):
    """What a reader of an HTML page (a response or its body) sees, as ``(where, text)`` pairs for
    ``tests.french_lint.assert_clean`` (issue 15, « Proof »): each paragraph's text (block
    elements; inline ones join it), scripts, styles and text areas left out, and the ``title``,
    ``placeholder``, ``aria-label`` and ``alt`` attributes and the link-preview ``meta`` tags."""
    body = page if isinstance(page, str) else page.content.decode()
    parser = _VisibleText()
    parser.feed(body)
    parser.close()
    return parser.texts
