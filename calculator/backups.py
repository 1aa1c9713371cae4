"""Backups of the whole site's data, and their restoration (issue 17, finding 7).

``dumpdata`` → ``flush`` → ``loaddata`` stopped on an ``auth.Permission`` duplicate: ``flush``
recreates content types and permissions under new ids, and the dump carried the old ones. A backup
therefore leaves out what the migrations rebuild or what is only transient:

- content types and permissions (rebuilt by ``migrate``; groups and users refer to permissions by
  natural key, ``[codename, app_label, model]``);
- sessions and django-axes' login attempts (transient: a restore logs everyone out anyway);
- the admin log: its ``object_id`` is a raw primary key, and accounts do not keep theirs (below),
  so restored entries could point at the wrong account; it is an audit trail, not data the site
  needs to run.

Everything else is written with natural keys where a model has one (``--natural-foreign
--natural-primary``): users by username, groups by name. The other models keep their primary
keys, which URLs (``/encounters/<pk>/``, ``/r/<id>``) and the encounter log's JSON
(``changes[].combatant``) refer to. Datetimes are written with their microseconds (Django's JSON
encoder cuts them to milliseconds), so auto timestamps come back exactly.

The file is one JSON object: ``{"format": "estoc-backup", "version": 1, "created": …, "count": …,
"objects": […]}``, gzip-compressed when its name ends in ``.gz``. A restore checks that header,
then loads every object in one transaction: any failure leaves the database as it was.
"""

from __future__ import annotations

import datetime
import gzip
import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterator
from graphlib import TopologicalSorter
from pathlib import Path
from typing import IO, Any

from django.apps import apps
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, connections, router, transaction
from django.db.models import Model
from django.utils import timezone

FORMAT = "estoc-backup"
VERSION = 1
EXCLUDED_APPS = frozenset({"admin", "axes", "contenttypes", "sessions"})
EXCLUDED_MODELS = frozenset({"auth.permission"})
GZIP_MAGIC = b"\x1f\x8b"


class BackupError(Exception):
    """A backup cannot be written or restored; the message is French, for the operator."""


def _os_reason(exc: OSError) -> str:
    """An OS error in French (``strerror`` follows the C locale, English here)."""
    if isinstance(exc, FileNotFoundError):
        return "fichier ou dossier introuvable"
    if isinstance(exc, PermissionError):
        return "permission refusée"
    if isinstance(exc, IsADirectoryError):
        return "c'est un dossier"
    return f"erreur système ({exc.strerror or exc})"


class _Encoder(DjangoJSONEncoder):
    """Django's encoder, but datetimes and times keep their microseconds."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


def backed_up_models(using: str = DEFAULT_DB_ALIAS) -> list[type[Model]]:
    """Every concrete model a backup holds, in the order it is written (natural-key targets first)."""
    app_list = []
    for config in apps.get_app_configs():
        if config.label in EXCLUDED_APPS:
            continue
        models = [
            model
            for model in config.get_models()
            if not model._meta.proxy
            and model._meta.label_lower not in EXCLUDED_MODELS
            and router.allow_migrate_model(using, model)
        ]
        if models:
            app_list.append((config, models))
    ordered: list[type[Model]] = serializers.sort_dependencies(app_list, allow_cycles=True)
    return ordered


def _objects(models: list[type[Model]], using: str) -> Iterator[Model]:
    for model in models:
        yield from model._base_manager.using(using).order_by(model._meta.pk.name).iterator()


def dump(using: str = DEFAULT_DB_ALIAS) -> dict[str, Any]:
    """The backup document of the database ``using``, read from one snapshot.

    On PostgreSQL, outside any transaction already open, the read runs in REPEATABLE READ: rows
    written meanwhile (an encounter created between its table and its log's) cannot make the backup
    inconsistent. SQLite's read transaction already sees one snapshot."""
    connection = connections[using]
    outermost = not connection.in_atomic_block
    created = timezone.now()
    with transaction.atomic(using=using):
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        objects = serializers.serialize(
            "python",
            _objects(backed_up_models(using), using),
            use_natural_foreign_keys=True,
            use_natural_primary_keys=True,
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "created": created.isoformat(),
        "count": len(objects),
        "objects": objects,
    }


def encode(document: dict[str, Any]) -> str:
    return json.dumps(document, cls=_Encoder, ensure_ascii=False, indent=1)


def write(document: dict[str, Any], path: str) -> None:
    """Write ``document`` to ``path`` (gzip if it ends in ``.gz``) through a temporary file in the
    same directory, renamed at the end: a failed backup never leaves a truncated file behind. The
    file is readable by its owner only (mode 600): it holds password hashes and e-mail addresses."""
    target = Path(path)
    text = encode(document)
    try:
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise BackupError(f"Impossible d'écrire dans «\u202f{target.parent}\u202f»\u202f: {_os_reason(exc)}.") from None
    try:
        with os.fdopen(handle, "wb") as raw:
            if path.endswith(".gz"):
                with gzip.GzipFile(filename=target.name.removesuffix(".gz"), mode="wb", fileobj=raw) as zipped:
                    zipped.write(text.encode("utf-8"))
            else:
                raw.write(text.encode("utf-8"))
            raw.flush()
            os.fsync(raw.fileno())  # on disk before it takes the name: a crash never leaves half a backup
        os.replace(temporary, target)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise BackupError(f"Impossible d'écrire «\u202f{path}\u202f»\u202f: {_os_reason(exc)}.") from None


def read(path: str, stdin: IO[bytes] | None = None) -> dict[str, Any]:
    """The backup document in ``path`` (``-``: ``stdin``), gzip or not, its header checked.

    Raises :class:`BackupError` (French) for anything that is not an Estoc backup of this version."""
    name = "l'entrée standard" if path == "-" else f"«\u202f{path}\u202f»"
    try:
        if path == "-":
            if stdin is None:
                raise BackupError("Aucune entrée standard à lire.")
            data = stdin.read()
        else:
            data = Path(path).read_bytes()
    except OSError as exc:
        raise BackupError(f"Impossible de lire {name}\u202f: {_os_reason(exc)}.") from None
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError):
            raise BackupError(f"{name}\u202f: fichier gzip illisible ou tronqué.") from None
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BackupError(f"{name} n'est pas une sauvegarde d'Estoc\u202f: ce n'est pas du JSON lisible.") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(
            f"{name} n'est pas une sauvegarde d'Estoc (l'en-tête «\u202fformat\u202f: {FORMAT}\u202f» manque). "
            "Une sortie de dumpdata se charge avec loaddata, pas avec restore."
        )
    version = document.get("version")
    if version != VERSION or isinstance(version, bool):
        raise BackupError(
            f"{name}\u202f: sauvegarde de version {version!r}, que cette version d'Estoc ne sait pas lire "
            f"(elle lit la version {VERSION})."
        )
    objects = document.get("objects")
    if not isinstance(objects, list) or document.get("count") != len(objects):
        raise BackupError(
            f"{name}\u202f: sauvegarde incomplète ou altérée (le nombre d'objets ne correspond pas à l'en-tête)."
        )
    return document


def _check_models(objects: list[Any], using: str) -> None:
    """Refuse, before touching the database, an object of a model a backup never holds (a
    permission, a session…) or that this installation does not have."""
    allowed = {model._meta.label_lower for model in backed_up_models(using)}
    for number, item in enumerate(objects, start=1):
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("model"), str)
            or not isinstance(item.get("fields"), dict)
        ):
            raise BackupError(
                f"Objet n° {number} illisible\u202f: il lui faut «\u202fmodel\u202f» et «\u202ffields\u202f»."
            )
        if item["model"].lower() not in allowed:
            raise BackupError(
                f"Objet n° {number}\u202f: le modèle «\u202f{item['model']}\u202f» n'est pas de ceux qu'une sauvegarde contient "
                "(inconnu ici, ou reconstruit par les migrations)."
            )


def _deletion_order(models: list[type[Model]]) -> list[type[Model]]:
    """``models`` with every model before the ones its foreign keys point to (PROTECT included)."""
    chosen = set(models)
    graph = {
        model: {
            field.related_model
            for field in model._meta.get_fields()
            if field.concrete
            and field.many_to_one
            and field.related_model in chosen
            and field.related_model is not model
        }
        for model in models
    }
    return list(reversed(list(TopologicalSorter(graph).static_order())))


def restore(document: dict[str, Any], *, replace: bool = False, using: str = DEFAULT_DB_ALIAS) -> Counter[str]:
    """Load a checked backup ``document`` in one transaction; the count of objects per model.

    Without ``replace``, objects of the backup overwrite the rows with the same key (primary key, or
    username and group name) and the other rows stay. With ``replace``, the data of every backed-up
    model is deleted first, in the same transaction (the admin log's entries of the deleted accounts
    go with them). Any failure rolls everything back and raises :class:`BackupError`."""
    from django.contrib.contenttypes.models import ContentType

    from calculator import bestiary_cache

    objects: list[Any] = document["objects"]
    _check_models(objects, using)
    ContentType.objects.clear_cache()  # permissions are found by natural key: never through stale ids
    connection = connections[using]
    counts: Counter[str] = Counter()
    loaded: set[type[Model]] = set()
    current: list[Any] = [0, ""]  # the object being loaded, for the error message

    def tracked() -> Iterator[dict[str, Any]]:
        for number, item in enumerate(objects, start=1):
            current[:] = [number, item["model"]]
            yield item
        current[:] = [0, ""]

    try:
        with transaction.atomic(using=using):
            if replace:
                for model in _deletion_order(backed_up_models(using)):
                    model._base_manager.using(using).all().delete()
            deferred = []
            with connection.constraint_checks_disabled():
                for obj in serializers.deserialize("python", tracked(), using=using, handle_forward_references=True):
                    obj.save(using=using)
                    loaded.add(type(obj.object))
                    counts[obj.object._meta.label] += 1
                    if obj.deferred_fields:
                        deferred.append(obj)
                for obj in deferred:
                    obj.save_deferred_fields(using=using)
            connection.check_constraints(table_names=[model._meta.db_table for model in loaded])
            sequences = connection.ops.sequence_reset_sql(no_style(), list(loaded))
            if sequences:
                with connection.cursor() as cursor:
                    for statement in sequences:
                        cursor.execute(statement)
    except Exception as exc:
        where = f" à l'objet n° {current[0]} ({current[1]})" if current[0] else ""
        raise BackupError(
            f"Restauration annulée{where}, la base n'a pas été modifiée. Détail technique\u202f: {type(exc).__name__}\u202f: {exc}"
        ) from exc
    finally:
        bestiary_cache.invalidate()  # after the transaction: no process may cache the rows it replaced
    return counts
