"""WhiteNoise's compressed manifest storage, minus the source-map references (load test only).

The vendored ``bootstrap.min.css`` ends with ``/*# sourceMappingURL=bootstrap.min.css.map */``
but the map is not vendored, so the production ``collectstatic`` stops on it (reported in
docs/reliability.md). This storage keeps everything else — hashed names, gzip/brotli copies,
``url()`` and ``@import`` rewriting — and leaves source-map comments as they are.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


def _without_source_maps(patterns):
    def keep(pattern):
        text = pattern[0] if isinstance(pattern, tuple | list) else pattern
        return "sourceMappingURL" not in text

    return tuple((ext, tuple(p for p in group if keep(p))) for ext, group in patterns)


class SourceMapTolerantStorage(CompressedManifestStaticFilesStorage):
    patterns = _without_source_maps(CompressedManifestStaticFilesStorage.patterns)
