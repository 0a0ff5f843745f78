"""The app's screens; each module holds one screen and its own small widgets."""
