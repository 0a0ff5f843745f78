"""The table's widgets: seats, the middle of the table, the hand and the log."""
