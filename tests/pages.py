"""Helpers shared by the page tests."""

import html
import re


def text(response):
    """The visible text of a response: tags dropped, entities decoded, white space folded."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))
