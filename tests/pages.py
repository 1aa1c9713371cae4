"""Helpers shared by the page tests."""

import html
import re


def text(response):
    """The visible text of a response: tags dropped, entities decoded, white space folded."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))


NBSP = "\u00a0"


def plain(text):
    """French typography aside (no-break spaces before « : », inside « », between a number and its
    unit): a text, or each text of a list."""
    if isinstance(text, list):
        return [plain(t) for t in text]
    return text.replace(NBSP, " ")
