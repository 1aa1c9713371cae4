"""Issue 19, items 2 and 3: link previews of a shared result (OpenGraph, Twitter card), HEAD on the
share and its exports, the wikitext's options (heading level or none, the [[Fichier:…]] line),
« Copier le lien »."""

import html
import re
from html.parser import HTMLParser
from urllib.parse import urlparse

import pytest
from django.core.management import call_command

from calculator import share_previews, sharing
from calculator.forms import permalink_query
from calculator.models import SharedResult
from rulesets.core import request as core_request
from rulesets.core.registry import get, load_all
from tests.test_encore_pages import ALDRIC

pytestmark = pytest.mark.django_db


class Head(HTMLParser):
    """The ``<meta>`` tags of a page: ``property``/``name`` → ``content`` (every occurrence)."""

    def __init__(self):
        super().__init__()
        self.meta = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        key = attrs.get("property") or attrs.get("name")
        if tag == "meta" and key:
            self.meta.setdefault(key, []).append(attrs.get("content"))


def meta(response):
    parser = Head()
    parser.feed(response.content.decode())
    return parser.meta


def share(client, slug, example):
    query = permalink_query({"scenario": example.request["scenario"], "dice": example.request.get("dice", {})}, 7)
    response = client.post("/r/", {"ruleset": slug, "q": query.urlencode()})
    assert response.status_code == 303, re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode().split("<main", 1)[-1])
    )[:600]
    return SharedResult.objects.get(pk=response["Location"].rsplit("/", 1)[1])


def example(slug, key=None):
    examples = get(slug).examples()
    return next(e for e in examples if e.key == key) if key else examples[0]


@pytest.fixture
def shared(client):
    call_command("loaddata", "fixtures/encore.json", verbosity=0)
    link = client.post("/encore/", ALDRIC)["Location"]
    response = client.post("/r/", {"ruleset": "encore", "q": urlparse(link).query})
    assert response.status_code == 303
    return SharedResult.objects.get(pk=response["Location"].rsplit("/", 1)[1])


# --- link previews --------------------------------------------------------------------------------


def test_the_share_page_has_opengraph_and_twitter_tags_with_absolute_urls(client, shared):
    tags = meta(client.get(f"/r/{shared.id}"))
    one = {k: v[0] for k, v in tags.items()}
    assert all(len(v) == 1 for k, v in tags.items() if k.startswith(("og:", "twitter:"))), tags
    assert one["og:type"] == "website"
    assert one["og:site_name"] == "Estoc"
    assert one["og:locale"] == "fr_FR"
    assert one["og:url"] == f"http://testserver/r/{shared.id}"
    assert one["og:image"] == f"http://testserver/r/{shared.id}.png"
    assert one["og:image:width"] == "1440"
    assert "og:image:height" not in one  # the image's height follows the story: not known here
    assert one["og:title"] == "Aldric contre Arbalétrier\u202f: Réussite partielle"  # typed without a grammar
    assert one["og:description"] == shared.story[0]
    assert one["twitter:card"] == "summary_large_image"
    assert one["twitter:image"] == one["og:image"]
    image = client.get(urlparse(one["og:image"]).path)  # the image the preview shows is served
    assert image.status_code == 200
    assert image["Content-Type"] == "image/png"
    for key in ("og:url", "og:image", "twitter:image"):
        assert urlparse(one[key]).scheme == "http", key
        assert urlparse(one[key]).netloc == "testserver", key


def test_the_preview_urls_follow_the_request_scheme(client, shared):
    one = {k: v[0] for k, v in meta(client.get(f"/r/{shared.id}", secure=True)).items()}
    assert one["og:url"] == f"https://testserver/r/{shared.id}"
    assert one["og:image"] == f"https://testserver/r/{shared.id}.png"


# who faces whom in each ruleset's first worked example (read from its scene); the outcome follows
FIRST_EXAMPLE_SIDES = {
    "aventuriers": "Elwen contre le Gobelin",
    "encore": "Aldric contre l'Arbalétrier",
    "feerie": "Le Wichtln contre le Lutin",
    "feerie-action": "Rübezahl et le Serpent à Sornettes",
    "nephilim": "Sahar contre le Garde du corps",
    "quadrature": "Le Chacal des cendres contre le personnage",
}


def test_every_ruleset_has_its_title_checked():
    assert set(FIRST_EXAMPLE_SIDES) == set(load_all())


@pytest.mark.parametrize("slug", sorted(FIRST_EXAMPLE_SIDES))
def test_the_preview_names_who_faces_whom_and_the_outcome(client, slug):
    call_command("loadfixtures", verbosity=0)
    item = share(client, slug, example(slug))
    one = {k: v[0] for k, v in meta(client.get(f"/r/{item.id}")).items()}
    outcome = item.result["outcome_label"]
    assert outcome
    assert one["og:title"] == f"{FIRST_EXAMPLE_SIDES[slug]}\u202f: {outcome}"  # French spacing (issue 15)
    assert one["twitter:title"] == one["og:title"]
    assert one["og:description"] == share_previews.trimmed(item.story[0])
    assert one["og:description"].split(" ")[:4] == item.story[0].split(" ")[:4]


@pytest.mark.parametrize(
    ("slug", "key", "expected"),
    [
        # Quadrature's pc_attack: the character acts, so comes first
        ("quadrature", "light_wounds_armour", "Le personnage contre le Chacal des cendres\u202f: Touché"),
        # a test with no target: the defender the scenario carries is not in the scene
        ("aventuriers", "test_de_reussite_deux_eclairs", "Elwen\u202f: Deux éclairs"),
        ("nephilim", "rafale_trois_cibles", "Le Mercenaire contre le Vigile, l'Initiée et le Nephilim\u202f: "),
        ("feerie-action", "ogre_sylphes_action", "L'Ogre, le Sylphe 1, le Sylphe 2 et 14\u00a0autres\u202f: "),
    ],
)
def test_the_title_orders_and_lists_the_sides(slug, key, expected):
    keys = [e.key for e in get(slug).examples()]
    request = example(slug, next(k for k in keys if k.startswith(key))).request
    result = core_request.result_data(core_request.resolve(get(slug), request))
    item = SharedResult(ruleset=slug, request=request, result=result)  # as frozen, unsaved
    title = share_previews.title(item, get(slug).name)
    assert title.startswith(expected), title
    assert title.endswith(item.result["outcome_label"])


def test_without_names_the_title_is_the_ruleset_and_the_outcome(shared):
    shared.result["scenario"] = {"action": "attaque"}
    assert share_previews.title(shared, "enCORE — conflits") == "enCORE — conflits\u202f: Réussite partielle"


def test_a_long_first_line_is_cut_at_a_word_with_an_ellipsis():
    line = "Le coup porte " + "très " * 60 + "loin."
    out = share_previews.trimmed(line)
    assert len(out) <= 200
    assert out.endswith("très…")
    assert line.startswith(out[:-1])
    assert share_previews.trimmed("Court  et\nnet.") == "Court et net."


def test_a_typed_name_stays_text_in_the_tags(client, shared):
    shared.result["scenario"]["pc"]["name"] = 'Al"><script>x</script>'
    shared.result["narrative"]["scene"] = shared.scene.replace("Aldric", 'Al"><script>x</script>', 1)
    shared.save()
    body = client.get(f"/r/{shared.id}").content.decode()
    assert "<script>x" not in body
    one = {k: v[0] for k, v in meta(client.get(f"/r/{shared.id}")).items()}
    assert one["og:title"].startswith('Al"><script>x</script> contre Arbalétrier')


# --- HEAD -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["", "/wiki.txt", "/wiki.txt?titres=2&image=fichier", "/markdown.md"])
def test_head_is_answered_on_the_share_and_its_exports(client, shared, suffix):
    get_response = client.get(f"/r/{shared.id}{suffix}")
    response = client.head(f"/r/{shared.id}{suffix}")
    assert response.status_code == 200
    assert response["Content-Type"] == get_response["Content-Type"]
    assert response.content == b""


# --- wikitext options -----------------------------------------------------------------------------


def headings(wiki):
    return [line for line in wiki.splitlines() if line.startswith("=")]


def test_the_wikitext_headings_are_level_3_by_default(client, shared):
    wiki = client.get(f"/r/{shared.id}/wiki.txt").content.decode()
    assert headings(wiki) == [
        "=== La scène ===",
        "=== Le récit ===",
        "=== Résolution technique ===",
        "=== Résultat final ===",
    ]


@pytest.mark.parametrize("level", [2, 3, 4, 5, 6])
def test_the_wikitext_heading_level_is_chosen(client, shared, level):
    response = client.get(f"/r/{shared.id}/wiki.txt?titres={level}")
    assert response.status_code == 200
    marks = "=" * level
    assert headings(response.content.decode()) == [
        f"{marks} {name} {marks}" for name in ("La scène", "Le récit", "Résolution technique", "Résultat final")
    ]


@pytest.mark.parametrize("value", ["0", "aucun"])
def test_no_headings_gives_bold_lines_in_their_own_paragraph(client, shared, value):
    wiki = client.get(f"/r/{shared.id}/wiki.txt?titres={value}").content.decode()
    assert headings(wiki) == []
    for name in ("La scène", "Le récit", "Résolution technique", "Résultat final"):
        assert f"\n'''{name}'''\n\n" in f"\n{wiki}"
    assert wiki.count('{| class="wikitable"') == 2


@pytest.mark.parametrize("value", ["1", "7", "deux", "3.0", " 3", "²", "\x00"])
def test_a_bad_heading_level_is_a_french_400_naming_the_parameter(client, shared, value):
    response = client.get(f"/r/{shared.id}/wiki.txt", {"titres": value})
    assert response.status_code == 400
    body = response.content.decode()
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert body.startswith("Paramètre «\u202ftitres\u202f»\u202f: ")
    assert "choisissez de 2 à 6, ou «\u202faucun\u202f» (ou 0)" in body


def test_a_bad_image_choice_is_a_french_400_naming_the_parameter(client, shared):
    response = client.get(f"/r/{shared.id}/wiki.txt?image=oui")
    assert response.status_code == 400
    assert response.content.decode().startswith(
        "Paramètre «\u202fimage\u202f»\u202f: «\u202foui\u202f» n'est pas un choix"
    )
    nul = client.get(f"/r/{shared.id}/wiki.txt?image=a%00")
    assert nul.status_code == 400
    assert nul.content.decode().startswith(
        "Paramètre «\u202fimage\u202f»\u202f: «\u202fa\\x00\u202f» n'est pas un choix"
    )


def test_a_bad_option_on_the_share_page_is_a_400_that_says_why(client, shared):
    response = client.get(f"/r/{shared.id}?titres=9")
    assert response.status_code == 400
    body = html.unescape(response.content.decode())
    assert 'id="wiki-errors"' in body
    assert "Paramètre «\u202ftitres\u202f»\u202f: «\u202f9\u202f» n'est pas un niveau de titre" in body


def test_the_file_line_names_the_image_to_upload(client, shared):
    wiki = client.get(f"/r/{shared.id}/wiki.txt?image=fichier").content.decode()
    assert wiki.splitlines()[0] == (
        f"[[Fichier:Estoc-{shared.id}.png|720px|Aldric contre Arbalétrier\u202f: Réussite partielle]]"
    )
    assert "[[Fichier:" not in client.get(f"/r/{shared.id}/wiki.txt").content.decode()


def test_the_external_image_line_is_the_png_address(client, shared):
    wiki = client.get(f"/r/{shared.id}/wiki.txt?image=externe").content.decode()
    assert wiki.splitlines()[0] == f"http://testserver/r/{shared.id}.png"
    assert "[[Fichier:" not in wiki


def test_the_file_caption_cannot_become_a_parameter_or_a_link(shared):
    wiki = sharing.wikitext(shared, "https://estoc.example/r/x", image="fichier", caption="link=x|y]]")
    assert wiki.splitlines()[0] == f"[[Fichier:Estoc-{shared.id}.png|720px|link&#61;x&#124;y&#93;&#93;]]"


def test_the_share_page_offers_the_options_as_a_get_form(client, shared):
    body = client.get(f"/r/{shared.id}").content.decode()
    form = re.search(r'<form method="get"\s+action="/r/' + shared.id + r'"\s+id="wiki-options".*?</form>', body, re.S)
    assert form, "the options form"
    assert re.search(r'<select[^>]*name="titres"', form.group(0))
    assert re.search(r'<option value="3"\s+selected>', form.group(0))
    assert re.search(r'<option value="aucun"', form.group(0))
    assert re.search(r'type="radio"\s+name="image"[^>]*value="fichier"', form.group(0))
    assert "=== La scène ===" in html.unescape(body)
    assert f'href="/r/{shared.id}/wiki.txt"' in body


def test_the_share_page_reloaded_with_options_shows_them(client, shared):
    body = client.get(f"/r/{shared.id}?titres=2&image=fichier").content.decode()
    text = html.unescape(body)
    assert "\n== La scène ==\n" in text
    assert f"[[Fichier:Estoc-{shared.id}.png|720px|" in text
    assert re.search(r'<option value="2"\s+selected>', body)
    assert re.search(r'value="fichier"\s+checked', body)
    assert f'href="/r/{shared.id}/wiki.txt?titres=2&amp;image=fichier"' in body


def test_the_share_page_tells_how_to_upload_the_image(client, shared):
    body = html.unescape(client.get(f"/r/{shared.id}").content.decode())
    assert f'href="http://testserver/r/{shared.id}.png" download="Estoc-{shared.id}.png"' in body
    assert f"sous le nom <code>Estoc-{shared.id}.png</code>" in body
    assert "$wgAllowExternalImages" in body


# --- « Copier le lien » ---------------------------------------------------------------------------


def test_the_copy_link_button_sits_with_the_others_and_the_link_is_in_a_read_only_input(client, shared):
    body = client.get(f"/r/{shared.id}").content.decode()
    button = re.search(r'<button[^>]*id="copy-link"[^>]*>([^<]*)</button>', body)
    assert button
    assert button.group(1) == "Copier le lien"
    assert 'data-link="#share-url"' in button.group(0)
    assert re.search(rf'<input[^>]*id="share-url"[^>]*readonly[^>]*value="http://testserver/r/{shared.id}"', body)
    assert re.search(r'id="link-status"\s+role="status"\s+aria-live="polite"', body)
    row = re.search(r'<p class="d-flex flex-wrap gap-2">(.*?)</p>', body, re.S).group(1)
    assert 'id="copy-link"' in row
    assert 'id="download-png"' in row
    assert "Copier le wikitexte" in body


def test_default_role_names_are_told_as_common_nouns_in_the_title():
    """The page's default names (« Attaquant », « Défenseur ») are said « l'attaquant », « le
    défenseur » in the scene: the title finds them there and says them the same way (issue 15)."""
    request = {"scenario": {}, "seed": 7}
    result = core_request.result_data(core_request.resolve(get("nephilim"), request))
    item = SharedResult(ruleset="nephilim", request=request, result=result)
    assert share_previews.title(item, get("nephilim").name).startswith("L'attaquant contre le défenseur\u202f: ")
