"""calculator.html gives exactly what Django's format_html / format_html_join / conditional_escape give."""

from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st

from calculator.html import esc, fmt, fmt_join

values = st.one_of(
    st.text(),
    st.integers(),
    st.none(),
    st.booleans(),
    st.text().map(mark_safe),
)


@given(values)
def test_esc_is_conditional_escape(value):
    assert esc(value) == conditional_escape(value)


@given(st.lists(values, min_size=1, max_size=4))
def test_fmt_is_format_html(args):
    template = "<p>" + "".join(f'<span title="{{{i}}}">{{{i}}}</span>' for i in range(len(args))) + "</p>"
    got = fmt(template, *args)
    assert got == format_html(template, *args)
    assert isinstance(got, SafeString)


@given(st.lists(st.tuples(values, values), max_size=5), st.sampled_from(["", "\n", " · ", "<br>"]))
def test_fmt_join_is_format_html_join(rows, sep):
    assert fmt_join(sep, "<li>{}={}</li>", rows) == format_html_join(sep, "<li>{}={}</li>", rows)
    mappings = [{"a": a, "b": b} for a, b in rows]
    assert fmt_join(sep, "<li>{a}={b}</li>", mappings) == format_html_join(sep, "<li>{a}={b}</li>", mappings)


def test_lazy_text_is_translated_and_escaped():
    label = gettext_lazy("Graine")
    assert fmt("<b>{}</b>", label) == format_html("<b>{}</b>", label)
