"""The installable web app and the themes: manifest, service worker, offline page, <head>, palette.

The browser side (the worker installs, a navigation without network shows the offline page, the dark
theme, the toggle, one printed page per result) is tests/e2e/test_theme_browser.py.
"""

import json
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string

from calculator import pwa

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent
STATIC = settings.STATIC_URL


def png_size(path):
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def static_file(url):
    assert url.startswith(STATIC), url
    found = finders.find(url[len(STATIC) :])
    assert found, f"{url}: no such static file"
    return found


def worker_config(body):
    match = re.search(r"const CONFIG = (\{.*?\n\});", body, re.S)
    assert match, "the worker script carries its configuration"
    return json.loads(match.group(1))


# --- the manifest -------------------------------------------------------------------------------------


def test_the_manifest_is_json_with_a_french_name_a_start_url_and_a_display(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/manifest+json")
    data = json.loads(response.content)
    assert data["name"].startswith("Estoc")
    assert data["short_name"] == "Estoc"
    assert data["lang"] == "fr"
    assert data["start_url"] == "/"
    assert data["scope"] == "/"
    assert data["display"] in {"standalone", "fullscreen", "minimal-ui"}
    assert re.fullmatch(r"#[0-9a-f]{6}", data["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", data["background_color"])
    assert "\u00a0:" in data["description"], "French typography: a no-break space before the colon"


def test_the_manifest_icons_exist_at_their_declared_sizes_one_of_them_maskable(client):
    icons = json.loads(client.get("/manifest.webmanifest").content)["icons"]
    for icon in icons:
        width, height = png_size(static_file(icon["src"]))
        assert icon["sizes"] == f"{width}x{height}"
        assert icon["type"] == "image/png"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in icons}
    assert ("192x192", "any") in sizes
    assert ("512x512", "any") in sizes
    assert ("512x512", "maskable") in sizes


def test_the_touch_icon_of_the_head_exists(client):
    html = client.get("/").content.decode()
    href = re.search(r'<link rel="apple-touch-icon"\s+href="([^"]+)"', html).group(1)
    assert png_size(static_file(href)) == (180, 180)


# --- the service worker --------------------------------------------------------------------------------


def test_the_worker_is_served_from_the_root_as_javascript_never_cached_by_http(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert "Content-Security-Policy" in response


def test_the_worker_only_answers_get(client):
    assert client.post("/sw.js").status_code == 405
    assert client.post("/manifest.webmanifest").status_code == 405
    assert client.post("/offline/").status_code == 405


def test_the_worker_precaches_every_page_asset_and_the_offline_page_never_the_api(client):
    config = worker_config(client.get("/sw.js").content.decode())
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])
    assert config["offline"] == "/offline/"
    assert config["offline"] in config["precache"]
    assert config["api"] == "/api/"
    assert config["static"] == STATIC
    assets = [url for url in config["precache"] if url != config["offline"]]
    for url in assets:
        static_file(url)
    for name in (
        "vendor/bootstrap/bootstrap.min.css",
        "css/estoc.css",
        "css/theme.css",
        "css/print.css",
        "js/theme.js",
        "js/estoc.js",
        "js/pwa.js",
        "django_htmx/htmx-2.min.js",
        "icons/icon-192.png",
    ):
        assert STATIC + name in assets, name
    assert not any(url.startswith("/api/") for url in config["precache"])
    # plain static URLs (tests, development): the network first, the cache when it fails
    assert config["staticFirst"] == "network"


def test_the_worker_leaves_posts_the_api_and_other_sites_alone():
    """Only GET is handled; the API and other origins go straight to the network, never to the cache."""
    source = (ROOT / "templates" / "pwa" / "sw.js").read_text()
    fetch = source[source.index('addEventListener("fetch"') :]
    assert 'request.method !== "GET"' in fetch
    assert "url.origin !== self.location.origin || url.pathname.startsWith(CONFIG.api)" in fetch
    # only static files are ever put in the cache, and only good same-origin answers
    assert source.count("cache.put(") == 1
    assert 'response.ok && response.type === "basic"' in source


def test_the_cache_version_follows_the_contents_of_the_precached_files(tmp_path, monkeypatch):
    asset = tmp_path / "estoc.css"
    monkeypatch.setattr(pwa.finders, "find", lambda name: str(asset))
    asset.write_text("body { color: black }")
    first = pwa._version(["/static/css/estoc.css"], ["css/estoc.css"], "<html>")
    assert first == pwa._version(["/static/css/estoc.css"], ["css/estoc.css"], "<html>")
    asset.write_text("body { color: white }")
    assert pwa._version(["/static/css/estoc.css"], ["css/estoc.css"], "<html>") != first
    assert pwa._version(["/static/css/estoc.css"], ["css/estoc.css"], "<html lang>") != first


def test_in_production_the_worker_precaches_the_hashed_names_cache_first(tmp_path):
    """With the manifest storage every precached URL carries its content hash, and exists once collected."""
    environment = {k: v for k, v in os.environ.items() if k not in {"PLAIN_STATIC", "DEBUG"}}
    environment.update(SECRET_KEY="k" * 60, DEBUG="0", STATIC_ROOT=str(tmp_path), ALLOWED_HOSTS="testserver")
    run = {"cwd": ROOT, "env": environment, "capture_output": True, "text": True, "timeout": 180}
    done = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], check=False, **run)
    assert done.returncode == 0, done.stderr
    script = "import json; from calculator import pwa; print(json.dumps(pwa.worker_config()))"
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], check=False, **run)
    assert done.returncode == 0, done.stderr
    config = json.loads(done.stdout.strip().splitlines()[-1])
    assert config["staticFirst"] == "cache"
    assets = [url for url in config["precache"] if url != config["offline"]]
    assert any(url.startswith(f"{STATIC}css/theme.") for url in assets)
    for url in assets:
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", url), url
        assert (tmp_path / url[len(STATIC) :]).is_file(), url


# --- the offline page ------------------------------------------------------------------------------------


def test_the_offline_page_is_french_and_standalone(client):
    response = client.get("/offline/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert "Le serveur d'Estoc est injoignable" in html
    assert "Réessayer" in html
    # standalone: no navigation, no form, nothing of a session, nothing from elsewhere
    for absent in ("<form", "<nav", "csrfmiddlewaretoken", "Connexion", "nav-links", "style="):
        assert absent not in html, absent
    for url in re.findall(r'(?:href|src)="([^"]*)"', html):
        assert url == "" or url.startswith("/"), url
    # its own assets are precached: it must show with the server gone
    precache = worker_config(client.get("/sw.js").content.decode())["precache"]
    for url in re.findall(r'<(?:link rel="stylesheet"|script)[^>]*?(?:href|src)="([^"]+)"', html):
        assert url in precache, url
    assert re.search(r"<script>", html) is None, "no inline script (CSP)"


# --- the <head> of every page ------------------------------------------------------------------------------


def test_every_page_links_the_themes_the_manifest_and_the_worker(client):
    html = client.get("/").content.decode()
    head = html[: html.index("</head>")]
    assert '<link rel="manifest" href="/manifest.webmanifest">' in head
    assert '<meta name="theme-color" content="#2b211c">' in head
    theme = re.search(r'<link rel="stylesheet"\s+id="theme-css"\s+href="([^"]+)"\s+media="([^"]+)">', head)
    assert theme, "the dark theme's sheet, with the id theme.js rewrites"
    assert theme.group(1) == f"{STATIC}css/theme.css"
    assert theme.group(2) == "screen and (prefers-color-scheme: dark)", "without JavaScript the system decides"
    assert f'<link rel="stylesheet" href="{STATIC}css/print.css" media="print">' in head
    # theme.js blocks the parser (no defer, no async), right after the sheet it switches: no flash
    script = re.search(rf'<script src="{STATIC}js/theme.js"([^>]*)></script>', head)
    assert script
    assert script.group(1) == ""
    assert head.index('id="theme-css"') < script.start()
    assert re.search(
        rf'<script src="{STATIC}js/pwa.js"\s+data-worker="/sw.js"\s+data-scope="/"\s+defer></script>', head
    )


def test_the_theme_toggle_is_a_french_pressed_state_button_hidden_until_javascript():
    html = render_to_string("_theme_toggle.html")
    assert '<button type="button"' in html
    assert "data-theme-toggle" in html
    assert 'aria-pressed="false"' in html
    assert 'title="Thème sombre"' in html
    assert '<span class="visually-hidden">Thème sombre</span>' in html
    assert re.search(r"\shidden>", html), "it does nothing without JavaScript, so it is not shown"
    assert "style=" not in html


# --- the dark palette ---------------------------------------------------------------------------------------


def luminance(colour):
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def dark_tokens():
    css = (ROOT / "static" / "css" / "theme.css").read_text()
    root = css[css.index(":root {") : css.index("}", css.index(":root {"))]
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", root))


@pytest.mark.parametrize(
    ("text", "background"),
    [
        ("estoc-ink", "estoc-surface"),
        ("estoc-ink", "estoc-paper"),
        ("estoc-ink", "estoc-surface-2"),
        ("estoc-muted", "estoc-surface"),
        ("estoc-muted", "estoc-paper"),
        ("estoc-accent-text", "estoc-surface"),
        ("estoc-attacker", "estoc-surface"),
        ("estoc-defender", "estoc-surface"),
        ("bs-link-color", "estoc-surface"),
        ("bs-secondary-color", "estoc-surface"),
        ("bs-body-color", "bs-body-bg"),
    ],
)
def test_dark_text_reads_at_wcag_aa_on_its_backgrounds(text, background):
    tokens = dark_tokens()
    assert contrast(tokens[text], tokens[background]) >= 4.5, (text, background)


@pytest.mark.parametrize(
    "badge", ["estoc-success", "estoc-partial", "estoc-failure", "estoc-phys", "estoc-mag", "estoc-accent"]
)
def test_white_badge_text_reads_at_wcag_aa_in_the_dark_theme(badge):
    assert contrast("#ffffff", dark_tokens()[badge]) >= 4.5, badge


def test_the_three_outcome_tones_stay_apart_in_the_dark_theme():
    tokens = dark_tokens()
    tones = [tokens["estoc-success"], tokens["estoc-partial"], tokens["estoc-failure"]]
    assert len(set(tones)) == 3
    hues = []
    for colour in tones:
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        hues.append((r, g, b).index(max(r, g, b)) if max(r, g, b) - min(r, g, b) > 40 else None)
    assert hues[0] == 1, "success is green"
    assert hues[1] == hues[2] == 0, "partial and failure are warm"
    assert abs(luminance(tones[1]) - luminance(tones[2])) > 0.02, "partial (amber) is not failure (red)"
