"""Hypothesis fuzzes the loader: no input makes it raise anything but SaveError."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from match_driver import played

from unotable.store import saves
from unotable.store.matches import list_matches, match_path, new_match_id
from unotable.store.saves import SaveError

RECORD, _ = played("uno", 3, seed=4, until=25)
GOOD = saves.record_to_dict(RECORD)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def load_and_rebuild(text: str | bytes) -> None:
    """What start-up does with a file: parse it, then replay it. Only SaveError may escape."""
    try:
        record = saves.loads(text)
    except SaveError:
        return
    with contextlib.suppress(SaveError):
        saves.rebuild_match(record)


@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bytes(raw):
    load_and_rebuild(raw)


@FUZZ
@given(st.binary(max_size=60), st.integers(min_value=0))
def test_good_save_with_bytes_spliced_in(junk, at):
    good = saves.dumps(RECORD).encode()
    at %= len(good)
    load_and_rebuild(good[:at] + junk + good[at:])


@FUZZ
@given(json_values)
def test_arbitrary_json(value):
    load_and_rebuild(json.dumps(value))


@FUZZ
@given(st.sampled_from(sorted(GOOD)), json_values)
def test_one_field_of_a_good_save_replaced(key, value):
    data = dict(GOOD, **{key: value})
    load_and_rebuild(json.dumps(data))


@FUZZ
@given(st.lists(st.tuples(st.integers(min_value=0, max_value=2), st.text(max_size=10)), max_size=6))
def test_arbitrary_actions_appended(extra):
    data = dict(GOOD, actions=[*GOOD["actions"], *[list(pair) for pair in extra]])
    load_and_rebuild(json.dumps(data))


def test_deeply_nested_json():
    load_and_rebuild("[" * 100_000 + "]" * 100_000)
    load_and_rebuild('{"format": "unotable-save", "options": ' + "[" * 50_000)


def test_huge_number():
    load_and_rebuild('{"seed": ' + "9" * 10_000 + "}")


@FUZZ
@given(st.binary(max_size=200))
def test_listing_any_bytes_sets_them_aside_and_keeps_them(raw):
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder)
        path = match_path(data_dir, new_match_id())
        path.parent.mkdir()
        path.write_bytes(raw)
        saved = list_matches(data_dir)
        assert saved.matches == [] and len(saved.notices) == 1
        (moved,) = os.listdir(path.parent)
        assert (path.parent / moved).read_bytes() == raw
