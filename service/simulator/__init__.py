"""``paiju simulate``: random legal bots play a whole tournament through the HTTP API."""
