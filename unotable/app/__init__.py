"""The Textual app: lobby, table, scoreboard and help."""
