"""Issue 17, the threat model's « injection de balisage » row: a name typed by a visitor reaches the
calculator page, the result, the shared page, its capture and its exports as text, never as markup."""

from urllib.parse import urlparse

import markdown as markdown_lib
import pytest
from django.core.management import call_command

from calculator.forms import permalink_query
from rulesets.core.registry import get, load_all

pytestmark = pytest.mark.django_db

PAYLOAD = '<img src=x onerror="alert(1)">&'
RAW_MARKERS = ("<img src=x", 'onerror="alert')


def _with_names(data, payload):
    """Every text field whose key names a name (``name``, ``attacker_name``…) set to ``payload``
    and a number (names are unique within a scene), but a Quadrature deck's cards (their names are
    what the blocks refer to)."""
    count = 0

    def walk(node, key=""):
        nonlocal count
        if isinstance(node, dict):
            out = {}
            for k, value in node.items():
                if isinstance(value, str) and k.endswith("name"):
                    count += 1
                    out[k] = f"{payload}{count}"
                else:
                    out[k] = walk(value, k)
            return out
        if isinstance(node, list):
            return node if key == "deck" else [walk(v) for v in node]
        return node

    return walk(data), count


def _named_example(slug):
    for example in get(slug).examples():
        scenario, count = _with_names(example.request["scenario"], PAYLOAD)
        if count:
            return scenario, example.request.get("dice", {})
    pytest.skip(f"no worked example of {slug} names anyone")


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_a_typed_name_is_text_on_the_page_the_share_and_its_exports(client, slug):
    call_command("loadfixtures", verbosity=0)
    scenario, dice = _named_example(slug)
    query = permalink_query({"scenario": scenario, "dice": dice}, 7).urlencode()
    from calculator.views import page_path

    page = client.get(f"{page_path(slug)}?{query}")
    assert page.status_code == 200
    body = page.content.decode()
    assert "&lt;img src=x" in body, "the name should be shown, escaped"
    for marker in RAW_MARKERS:
        assert marker not in body

    shared = client.post("/r/", {"ruleset": slug, "q": query})
    assert shared.status_code == 303, shared.content.decode()[:300]
    path = urlparse(shared["Location"]).path
    for url in (path, f"{path}/capture"):
        body = client.get(url).content.decode()
        assert "&lt;img src=x" in body
        for marker in RAW_MARKERS:
            assert marker not in body, url
    wiki = client.get(f"{path}/wiki.txt").content.decode()
    assert "<img" not in wiki
    rendered = markdown_lib.markdown(client.get(f"{path}/markdown.md").content.decode())
    assert "&lt;img src=x" in rendered
    assert "<img" not in rendered
