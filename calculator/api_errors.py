"""Every error of ``/api/`` in the API's JSON format, ``{"message": str, "errors": {field: str}}``,
in French, whatever raised it (issue 17, finding 6).

django-ninja answers its own operations; the rest came back as Django's HTML: an unknown path (404),
a method an operation does not take (405, ninja's plain text), a body too large (Django's 400, raised
when the body is read), a server error (500). :class:`ApiErrorsMiddleware` turns any such answer of an
``/api/`` path into JSON, and answers HEAD wherever GET is allowed (as GET, without the body);
:func:`install` gives the ninja API handlers that answer the same way from inside an operation.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import HttpError, ValidationError

from rulesets.core.french import typography

API_PREFIX = "/api/"
JSON = "application/json"
logger = logging.getLogger("calculator.api")

ERROR_BAD_REQUEST = "Requête invalide."
ERROR_FORBIDDEN = "Accès refusé."
ERROR_NOT_FOUND = "Adresse inconnue de l'API\u202f: la liste des adresses est dans /api/openapi.json."
ERROR_NOT_ALLOWED = "Méthode {method} refusée à cette adresse (acceptées\u202f: {allowed})."
ERROR_TOO_LARGE = "Corps de la requête trop volumineux\u202f: {n}\u00a0octets au plus."
ERROR_UNPROCESSABLE = "Requête illisible\u202f: voir les messages par champ."
ERROR_FIELD = "Valeur refusée."
ERROR_THROTTLED = "Trop de requêtes\u202f: patientez un peu, puis recommencez."
ERROR_SERVER = (
    "Erreur interne du serveur\u202f: la requête n'a pas abouti. L'incident est consigné\u202f; réessayez plus tard."
)
ERROR_OTHER = "Erreur {status}."
# headers an error answer keeps when it becomes JSON
KEPT_HEADERS = ("Allow", "Retry-After")


def error_body(message: str, errors: dict[str, str] | None = None) -> dict[str, Any]:
    """The API's error format; ``errors`` defaults to the message on ``__all__``. Every message in
    French typography (issue 15), whoever wrote it."""
    message = typography(message)
    shown = {k: typography(v) if isinstance(v, str) else v for k, v in errors.items()} if errors is not None else None
    return {"message": message, "errors": shown if shown is not None else {"__all__": message}}


def json_error(status: int, message: str, errors: dict[str, str] | None = None) -> HttpResponse:
    body = json.dumps(error_body(message, errors), ensure_ascii=False)
    return HttpResponse(body, status=status, content_type=f"{JSON}; charset=utf-8")


def too_large_message() -> str:
    return ERROR_TOO_LARGE.format(n=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


def _too_large(request: HttpRequest) -> bool:
    """Django refuses a body past ``DATA_UPLOAD_MAX_MEMORY_SIZE`` with a 400: tell it from other 400s."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return limit is not None and length > limit


def message_for(request: HttpRequest, response: HttpResponse) -> tuple[int, str]:
    """The status and the French message of an error answer that is not JSON yet."""
    status = response.status_code
    if status == 400 and _too_large(request):
        return 413, too_large_message()
    if status == 405:
        allowed = response.get("Allow", "")
        return status, ERROR_NOT_ALLOWED.format(method=request.method, allowed=allowed or "aucune")
    messages = {
        400: ERROR_BAD_REQUEST,
        403: ERROR_FORBIDDEN,
        404: ERROR_NOT_FOUND,
        413: too_large_message(),
        422: ERROR_UNPROCESSABLE,
        429: ERROR_THROTTLED,
    }
    if status >= 500:
        return status, ERROR_SERVER
    return status, messages.get(status, ERROR_OTHER.format(status=status))


def _is_api_json(response: HttpResponse) -> bool:
    """Already in the API's error format (an operation's own answer)."""
    if not response.get("Content-Type", "").startswith(JSON) or getattr(response, "streaming", False):
        return False
    try:
        body = json.loads(response.content)
    except ValueError:
        return False
    return isinstance(body, dict) and isinstance(body.get("message"), str) and isinstance(body.get("errors"), dict)


class ApiErrorsMiddleware:
    """For ``/api/`` paths: an error answer in any other form becomes the API's JSON (same status,
    413 for a body too large, ``Allow`` and ``Retry-After`` kept), and HEAD is answered as GET
    without the body. Placed before :class:`calculator.http.FormBodyMiddleware`, which reads the
    body (and may refuse it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        head = request.method == "HEAD"
        if head:  # what Django's class-based views do: HEAD is GET without the body
            request.method = "GET"
        response = self.get_response(request)
        if head:
            request.method = "HEAD"
        if response.status_code >= 400 and not _is_api_json(response):
            status, message = message_for(request, response)
            converted = json_error(status, message)
            for header in KEPT_HEADERS:
                if header in response:
                    converted[header] = response[header]
            response = converted
        if head and not getattr(response, "streaming", False):
            response["Content-Length"] = str(len(response.content))
            response.content = b""
        return response


def install(api: NinjaAPI) -> None:
    """The ninja API's exception handlers, in the API's error format: a body too large (413, Django
    raises when the operation reads it), a 404, ninja's own HTTP errors and validation errors, and
    any other exception (500, logged with its traceback)."""

    def too_big(request: HttpRequest, exc: Any) -> HttpResponse:
        return json_error(413, too_large_message())

    def not_found(request: HttpRequest, exc: Any) -> HttpResponse:
        return json_error(404, ERROR_NOT_FOUND)

    def http_error(request: HttpRequest, exc: Any) -> HttpResponse:
        status = exc.status_code if isinstance(exc, HttpError) else 400
        message = ERROR_BAD_REQUEST if status == 400 else message_for(request, HttpResponse(status=status))[1]
        return json_error(status, message)

    def invalid(request: HttpRequest, exc: Any) -> HttpResponse:
        found = exc.errors if isinstance(exc, ValidationError) else []
        errors = {".".join(str(p) for p in e.get("loc", ())) or "__all__": ERROR_FIELD for e in found}
        return json_error(422, ERROR_UNPROCESSABLE, errors or None)

    def server_error(request: HttpRequest, exc: Any) -> HttpResponse:
        logger.error("Internal Server Error: %s", request.path, exc_info=exc)
        return json_error(500, ERROR_SERVER)

    api.add_exception_handler(RequestDataTooBig, too_big)
    api.add_exception_handler(Http404, not_found)
    api.add_exception_handler(HttpError, http_error)
    api.add_exception_handler(ValidationError, invalid)
    api.add_exception_handler(Exception, server_error)
