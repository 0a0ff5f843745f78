"""The app's remembered preferences, kept through ``unotable.store.settings`` when present."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

THEMES: tuple[str, ...] = ("standard", "colour-blind", "monochrome")
CARD_STYLES: tuple[str, ...] = ("unicode", "ascii")


@dataclass
class Prefs:
    theme: str = "standard"
    speed: str = "normal"
    card_style: str = "unicode"
    # the last lobby setup: {"game": id, "seats": [[name, kind], ...], "options": {game: {...}}}
    lobby: dict[str, Any] = field(default_factory=dict)


def load_prefs(data_dir: Path | None) -> tuple[Prefs, str | None]:
    """The saved preferences and a notice to show (a damaged settings file), if any."""
    if data_dir is None:
        return Prefs(), None
    try:
        from unotable.store.settings import load_settings
    except ImportError:
        return Prefs(), None
    try:
        settings, notice = load_settings(data_dir)
    except Exception as error:  # a broken settings file must never stop the app
        return Prefs(), f"Settings could not be read ({error}); using defaults."
    return _from_settings(settings), notice


def save_prefs(prefs: Prefs, data_dir: Path | None) -> str | None:
    """Save; returns a notice if that failed (the game goes on either way)."""
    if data_dir is None:
        return None
    try:
        from unotable.store import settings as store
    except ImportError:
        return None
    try:
        current, _ = store.load_settings(data_dir)
        store.save_settings(_to_settings(prefs, current), data_dir)
    except Exception as error:
        return f"Settings could not be saved: {error}"
    return None


# Prefs field -> the store's Settings field, where the names differ
_STORE_NAMES = {"lobby": "last_setup"}


def _from_settings(settings: Any) -> Prefs:
    values = settings if isinstance(settings, dict) else _as_dict(settings)
    values = {k: values.get(v, values.get(k)) for k, v in _STORE_NAMES.items()} | {
        k: v for k, v in values.items() if k not in _STORE_NAMES.values()
    }
    prefs = Prefs()
    for f in fields(Prefs):
        if f.name in values and values[f.name] is not None:
            setattr(prefs, f.name, values[f.name])
    if prefs.theme not in THEMES:
        prefs.theme = "standard"
    if prefs.card_style not in CARD_STYLES:
        prefs.card_style = "unicode"
    if not isinstance(prefs.lobby, dict):
        prefs.lobby = {}
    return prefs


def _as_dict(settings: Any) -> dict[str, Any]:
    try:
        return asdict(settings)
    except TypeError:
        return dict(getattr(settings, "__dict__", {}))


def _to_settings(prefs: Prefs, current: Any) -> Any:
    values = {_STORE_NAMES.get(k, k): v for k, v in asdict(prefs).items()}
    if isinstance(current, dict):
        return {**current, **values}
    from dataclasses import replace

    known = {f.name for f in fields(current)}
    return replace(current, **{k: v for k, v in values.items() if k in known})
