"""The permalink's fast query string is byte for byte what urllib would write."""

from urllib.parse import parse_qsl, urlencode

from hypothesis import given
from hypothesis import strategies as st

from calculator.forms import query_string

text = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)


@given(st.lists(st.tuples(text, text), max_size=8))
def test_the_query_string_is_urlencode_s_exactly(pairs):
    assert query_string(pairs) == urlencode(pairs)


@given(st.lists(st.tuples(text.filter(bool), text), max_size=8))
def test_the_query_string_reads_back_as_the_same_pairs(pairs):
    assert parse_qsl(query_string(pairs), keep_blank_values=True) == pairs
