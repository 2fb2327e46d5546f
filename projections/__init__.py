"""Folds that rebuild state from the log. The same fold serves live reads, ``?at=`` replay and
rebuilds; nothing here writes anything."""
