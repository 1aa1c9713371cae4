"""``manage.py share_image_fonts``: rebuild the emoji font of the share images (issue 19, item 1).

The images draw emoji with Noto Color Emoji, but the whole font weighs 11 MB: the project ships
``calculator/fonts/NotoColorEmoji-Estoc.ttf``, the subset of the emoji the rule texts and the
bestiaries can write (every character of ``rulesets/``, ``bestiary/`` and ``fixtures/`` that a
browser would draw as an emoji), made by fontTools' subsetter. Run it after adding an emoji to a
rule text (``tests/test_share_image.py`` fails until then); the source font is Debian's
fonts-noto-color-emoji.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from calculator import share_image

SOURCE_FONT = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
SOURCES = (("rulesets", "*.py"), ("bestiary", "*.py"), ("fixtures", "*.json"))


def project_text() -> str:
    """Every text the engines, the bestiaries and the fixtures can put in a result."""
    base = Path(settings.BASE_DIR)
    return "\n".join(
        path.read_text(encoding="utf-8")
        for folder, pattern in SOURCES
        for path in sorted((base / folder).rglob(pattern))
    )


def emoji_of(text: str, emoji_cmap: set[int], sans_cmap: set[int]) -> set[int]:
    """The code points of ``text`` drawn by the emoji font (joiners and U+FE0F with them)."""
    out: set[int] = set()
    for i, ch in enumerate(text):
        following = text[i + 1 : i + 2]
        if share_image.wants_emoji(ch, following, ord(ch) in emoji_cmap, ord(ch) in sans_cmap):
            out.add(ord(ch))
            if following in ("\ufe0f", "\u200d"):
                out.add(ord(following))
    return out


class Command(BaseCommand):
    help = "Reconstruit le sous-ensemble de Noto Color Emoji des images de résultats partagés."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--source", default=str(SOURCE_FONT), help="Noto Color Emoji complète (TTF).")

    def handle(self, *args: Any, **options: Any) -> None:
        from fontTools import subset
        from fontTools.ttLib import TTFont

        source = Path(options["source"])
        if not source.is_file():
            raise CommandError(f"Police introuvable\u202f: {source} (paquet Debian fonts-noto-color-emoji).")
        sans = set(TTFont(share_image.FONT_FILES["regular"], lazy=True).getBestCmap())
        font = TTFont(source)
        wanted = emoji_of(project_text(), set(font.getBestCmap()), sans)
        opts = subset.Options()
        opts.layout_features = ["*"]  # keycap and ZWJ sequences are ligatures
        opts.name_IDs = ["*"]
        subsetter = subset.Subsetter(opts)
        subsetter.populate(unicodes=sorted(wanted))
        subsetter.subset(font)
        target = share_image.FONT_FILES["emoji"]
        font.save(target)
        self.stdout.write(f"{len(wanted)} caractères, {target.stat().st_size} octets\u202f: {target}")
