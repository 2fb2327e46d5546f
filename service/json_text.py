"""The JSON text the node sends (answers and stream frames), made by orjson: about ten times
faster than the standard library's encoder, which took a tenth of a move's CPU in the paced
tables' profile (bench/paced_tables.py) for the four seats' views and the referee's read.

The bytes are those the standard library makes with ``ensure_ascii=False`` and compact
separators (tests/unit/test_json_text.py holds them equal over every view of the simulated
logs of the five games). Where orjson would say a value otherwise or not at all, the standard
library says it: dates and dataclasses go to ``default`` as they did (orjson's own forms
are passed over), and what orjson refuses — keys that are not strings, an integer wider than
64 bits, a nesting deeper than it goes — is made by ``json.dumps``, in the same bytes as before.
One difference is left: a float whose shortest form has an exponent (``1e-05``) is written
``1e-5``, the same number; the views hold no such float."""
from __future__ import annotations

import json
from typing import Any, Callable

import orjson

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(value: Any, sort_keys: bool = False,
          default: Callable[[Any], Any] | None = None) -> bytes:
    """``value`` as compact JSON in UTF-8, keys in their order or sorted."""
    try:
        return orjson.dumps(value, default=default,
                            option=_OPTIONS | (orjson.OPT_SORT_KEYS if sort_keys else 0))
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                          sort_keys=sort_keys, default=default).encode()
