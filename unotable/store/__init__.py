"""Saving: autosaved matches, finished-match history, settings. Files only; no UI."""
