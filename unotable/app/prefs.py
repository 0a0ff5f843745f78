"""The app's preferences: the store's Settings, held in a mutable form for the screens."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
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
    last_setup: dict[str, Any] = field(default_factory=dict)


def load_prefs(data_dir: Path | None) -> tuple[Prefs, str | None]:
    """The saved preferences and a notice to show (a damaged settings file), if any."""
    if data_dir is None:
        return Prefs(), None
    from unotable.store.settings import load_settings  # not before the lobby's first frame

    settings, notice = load_settings(settings_folder(data_dir))
    prefs = Prefs(settings.theme, settings.speed, settings.card_style, dict(settings.last_setup))
    if prefs.theme not in THEMES:
        prefs.theme = "standard"
    if prefs.card_style not in CARD_STYLES:
        prefs.card_style = "unicode"
    if not isinstance(prefs.last_setup, dict):
        prefs.last_setup = {}
    return prefs, notice


def save_prefs(prefs: Prefs, data_dir: Path | None) -> str | None:
    """Save what changed (an unreadable file stays untouched until something does).

    Returns a notice if saving failed; the game goes on either way.
    """
    if data_dir is None:
        return None
    from unotable.store.settings import change_settings, load_settings

    try:
        folder = settings_folder(data_dir)
        current, _ = load_settings(folder)
        change_settings(current, folder, **asdict(prefs))
    except OSError as error:
        return f"Settings could not be saved: {error}"
    return None


def settings_folder(data_dir: Path) -> Path:
    """Where the settings for ``data_dir`` are read and written (store.paths.config_dir),
    after moving there, once, a settings file an older unotable left in the data folder."""
    from unotable.store.paths import config_dir
    from unotable.store.settings import migrate_settings

    folder = config_dir(data_dir)
    try:
        migrate_settings(data_dir, folder)
    except OSError:
        return data_dir  # it stays where it is, and is still used; moved another time
    return folder
