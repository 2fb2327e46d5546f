"""``paiju spec``: the part of api_spec.yaml made from the event catalogue, checked or
rewritten (service/openapi.py)."""
from __future__ import annotations

import sys
from pathlib import Path


def add(commands) -> None:
    spec = commands.add_parser("spec", help="check, or rewrite, the part of api_spec.yaml made "
                                            "from the event catalogue (service/openapi.py)")
    spec_action = spec.add_mutually_exclusive_group(required=True)
    spec_action.add_argument("--check", action="store_true",
                             help="exit 1 naming every difference: the generated block, and each "
                                  "data schema against its marshmallow schema")
    spec_action.add_argument("--write", action="store_true",
                             help="rewrite the generated block only (the hand-written routes and "
                                  "data schemas stay as they are), then check")
    spec.add_argument("--file", type=Path, default=None, help="default: the api_spec.yaml of paiju")
    spec.set_defaults(run=_spec)


def _spec(args) -> int:
    from events import default_catalogue

    from .. import openapi
    from ..app import DEFAULTS

    path = args.file or openapi.SPEC_PATH
    text = path.read_text(encoding="utf-8")
    catalogue, max_batch = default_catalogue(), DEFAULTS["MAX_BATCH"]
    try:
        if args.write:
            made = openapi.rewritten(text, catalogue, max_batch)
            if made != text:
                path.write_text(made, encoding="utf-8")
                print(f"{path}: generated block rewritten")
            text = made
        problems = openapi.check(text, catalogue, max_batch)
    except openapi.SpecMarkersMissing as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 1
    for problem in problems:
        print(f"{path}: {problem}", file=sys.stderr)
    if not problems:
        print(f"{path}: in step with the event catalogue and the routes' request schemas")
    return 1 if problems else 0
