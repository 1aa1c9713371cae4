"""calculator.http: a form's body read into the very QueryDict Django builds, and refused as Django refuses it."""

import pytest
from django.core.exceptions import TooManyFieldsSent
from django.http import QueryDict
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st

from calculator.http import form_query_dict

pieces = st.sampled_from(["a", "b", "pc.name", "é", "%C3%A9", "%ZZ", "+", "%20", "=", "&", ";", "%", "x%00", "«»", ""])
bodies = st.one_of(
    st.lists(pieces, max_size=30).map(lambda parts: "".join(parts).encode()),
    st.binary(max_size=80),
)


@given(bodies)
def test_the_same_query_dict_as_django(body):
    mine, django = form_query_dict(body), QueryDict(body, encoding="utf-8")
    assert list(mine.lists()) == list(django.lists())
    assert mine.encoding == django.encoding == "utf-8"
    assert not mine._mutable


def test_too_many_fields_is_refused_as_django_refuses_it():
    body = "&".join(f"f{i}=1" for i in range(30)).encode()
    with override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=10):
        for build in (form_query_dict, lambda b: QueryDict(b, encoding="utf-8")):
            try:
                build(body)
            except TooManyFieldsSent:
                continue
            raise AssertionError(f"{build} accepted 30 fields")


@override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=10)
def test_a_form_with_too_many_fields_answers_400(client):
    body = "&".join(f"f{i}=1" for i in range(30))
    response = client.post("/encore/", body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400


@pytest.mark.django_db
def test_a_posted_form_reads_as_before(client):
    response = client.post(
        "/encore/",
        "_f=1&pc.name=Ald%C3%A9ric+le+Brave&seed=5",
        content_type="application/x-www-form-urlencoded",
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "Aldéric le Brave" in response.content.decode()


@pytest.mark.parametrize("body", ["f=1&" * 9 + "f=1", "f=1&" * 10, "f=1&" * 10 + "f=1", "&&&&&&&&&&", "a"])
def test_the_field_limit_counts_as_django_counts(body):
    def outcome(build):
        try:
            return list(build(body.encode()).lists())
        except TooManyFieldsSent:
            return "refused"

    with override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=10):
        assert outcome(form_query_dict) == outcome(lambda b: QueryDict(b, encoding="utf-8"))
