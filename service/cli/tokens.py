"""Who may act: ``paiju token create|list|revoke`` (bearer tokens) and ``paiju keys init`` (the
deployment's export signing key)."""
from __future__ import annotations

import argparse
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from rules.messages import Message

from ..tokens import ROLES
from .common import add_db, key_path, no_database, open_existing, opened, said, shown


def add(commands) -> None:
    token = commands.add_parser("token", help="create, list and revoke bearer tokens")
    token_commands = token.add_subparsers(dest="token_command", required=True)
    _add_create(token_commands)
    _add_list(token_commands)
    _add_revoke(token_commands)
    _add_sign_in(token_commands)

    keys = commands.add_parser("keys", help="the deployment's export signing key")
    key_commands = keys.add_subparsers(dest="keys_command", required=True)
    init = key_commands.add_parser("init", help="make the key if there is none (never replaces "
                                                "one) and print its public half")
    add_db(init)
    init.add_argument("--key", help="the key file (default: paiju-signing.key beside --db)")
    init.set_defaults(run=_keys_init)


def _add_create(token_commands) -> None:
    create = token_commands.add_parser("create", help="a new token; its secret is printed once")
    create.add_argument("--role", required=True, choices=list(ROLES))
    create.add_argument("--tournament", help="the tournament it acts in (all roles but admin)")
    create.add_argument("--match", help="the match of a table or player token")
    create.add_argument("--seat", type=int, help="the seat of a player token (0-3)")
    create.add_argument("--name", help="who holds it (recorded as meta.actor of what it posts)")
    create.add_argument("--expires-in", type=_duration, metavar="DURATION",
                        help="e.g. 90m, 12h, 3d (default: until revoked)")
    add_db(create)
    create.set_defaults(run=_token_create)


def _add_list(token_commands) -> None:
    listing = token_commands.add_parser("list", help="every token, without its secret")
    add_db(listing)
    listing.set_defaults(run=_token_list)


def _add_revoke(token_commands) -> None:
    revoke = token_commands.add_parser("revoke", help="revoke a token at once")
    revoke.add_argument("token_id")
    add_db(revoke)
    revoke.set_defaults(run=_token_revoke)


def _add_sign_in(token_commands) -> None:
    from ..sessions import CLI_CODE_ROLES, CODE_MINUTES

    sign_in = token_commands.add_parser(
        "sign-in", help="a one-time sign-in code for the desk (and its link), shown once")
    sign_in.add_argument("--role", required=True, choices=list(CLI_CODE_ROLES))
    sign_in.add_argument("--tournament", required=True,
                         help="the tournament the session acts in (an organiser's may be yet "
                              "to create)")
    sign_in.add_argument("--name", help="who signs in (recorded as meta.actor of what they post)")
    sign_in.add_argument("--match", help="the match of a table or player code")
    sign_in.add_argument("--seat", type=int, help="the seat of a player code (0-3)")
    sign_in.add_argument("--minutes", type=int, default=CODE_MINUTES,
                         help=f"how long the code works (default: {CODE_MINUTES})")
    sign_in.add_argument("--base-url", default="http://127.0.0.1:8000",
                         help="where the desk is served, for the link (default: %(default)s)")
    add_db(sign_in)
    sign_in.set_defaults(run=_token_sign_in)


def _token_sign_in(args) -> int:
    """Print a new code, then its link (stdout); what it allows and until when (stderr)."""
    from ..sessions import issue_sign_in_code, issued_note
    from ..tokens import TokenError

    say = args.say
    deployment = deployment_at(args.db, say, create=True)
    if deployment is None:
        return 2
    try:
        issued = issue_sign_in_code(deployment.tokens, args.role, args.tournament, args.name,
                                    args.match, args.seat, args.minutes)
    except (TokenError, ValueError) as error:
        print(f"paiju token sign-in: {said(error, say)}", file=sys.stderr)
        return 2
    finally:
        deployment.close()
    print(issued.code)
    print(issued.link(args.base_url))
    print(f"paiju: {say(issued_note(issued))}", file=sys.stderr)
    return 0


def _duration(text: str) -> timedelta:
    units = {"m": "minutes", "h": "hours", "d": "days"}
    if len(text) < 2 or text[-1] not in units or not text[:-1].isascii() \
            or not text[:-1].isdigit() or int(text[:-1]) == 0:
        raise argparse.ArgumentTypeError("a whole number and m, h or d, e.g. 90m, 12h, 3d")
    return timedelta(**{units[text[-1]]: int(text[:-1])})


def deployment_at(db: str, say, create: bool = False):
    """The deployment at ``db`` (its ``tokens`` for the token commands); None (and why, on
    stderr) if there is no database there, unless a token is being created (which may make the
    deployment's file)."""
    from ..deployment import exists, open_deployment

    if not create and not exists(db):
        no_database(db, say)
        return None
    return opened(say, lambda: open_deployment(db))


def _token_create(args) -> int:
    from events.envelope import utc_timestamp

    from ..tokens import TokenError, check_scope

    say = args.say
    try:
        check_scope(args.role, args.tournament, args.match, args.seat)
    except TokenError as error:
        print(f"paiju token create: {said(error, say)}", file=sys.stderr)
        return 2
    if args.tournament and args.role != "organiser" and not _tournament_exists(args):
        refused = say(Message("no tournament {tournament!r} in {db} (only an organiser token may "
                              "name a tournament it is yet to create)",
                              tournament=args.tournament, db=shown(args.db)))
        print(f"paiju token create: {refused}", file=sys.stderr)
        return 2
    expires = (utc_timestamp(datetime.now(timezone.utc) + args.expires_in)
               if args.expires_in else None)
    deployment = deployment_at(args.db, say, create=True)
    if deployment is None:
        return 2
    try:
        secret, token = deployment.tokens.create(args.role, args.tournament, args.match,
                                                 args.seat, args.name, expires)
    finally:
        deployment.close()
    print(secret)
    made = say(Message("token {token_id} ({scope}) — shown this once; keep it secret",
                       token_id=token.token_id, scope=scope(token, say)))
    print(f"paiju: {made}", file=sys.stderr)
    return 0


def _tournament_exists(args) -> bool:
    from events.catalogue import tournament_stream

    store = open_existing(args.db, args.say)
    if store is None:
        return False
    try:
        return store.stream_head(tournament_stream(args.tournament)) is not None
    finally:
        store.close()


def scope(token, say) -> str:
    """What a token may act on, as a person reads it: its role (as ``--role`` writes it), then
    the tournament, match and seat it is bound to and when it expires."""
    parts = [token.role]
    if token.tournament_id:
        parts.append(say(Message("tournament {tournament}", tournament=token.tournament_id)))
    if token.match_id:
        parts.append(say(Message("match {match}", match=token.match_id)))
    if token.seat is not None:
        parts.append(say(Message("seat {seat}", seat=token.seat)))
    if token.expires_at:
        parts.append(say(Message("expires {at}", at=token.expires_at)))
    return ", ".join(parts)


def _token_list(args) -> int:
    """A token a line: its id first (what ``paiju token revoke`` takes), then its scope, its
    holder, when it was made and whether it still works."""
    say = args.say
    deployment = deployment_at(args.db, say)
    if deployment is None:
        return 2
    try:
        for token in deployment.tokens.all():
            if token.revoked_at:
                state = say(Message("revoked {at}", at=token.revoked_at))
            else:
                state = say("active")
            created = say(Message("created {at}", at=token.created_at))
            print(f"{token.token_id}  {scope(token, say)}  {token.name or '-'}  {created}  "
                  f"{state}")
    finally:
        deployment.close()
    return 0


def _token_revoke(args) -> int:
    say = args.say
    deployment = deployment_at(args.db, say)
    if deployment is None:
        return 2
    try:
        token = deployment.tokens.revoke(args.token_id)
    finally:
        deployment.close()
    if token is None:
        unknown = say(Message("no token {token_id}", token_id=args.token_id))
        print(f"paiju token revoke: {unknown}", file=sys.stderr)
        return 2
    revoked = say(Message("token {token_id} revoked at {at}", token_id=token.token_id,
                          at=token.revoked_at))
    print(f"paiju: {revoked}")
    return 0


def _keys_init(args) -> int:
    from ..signing import init_key

    path = Path(args.key) if args.key else key_path(args.db)
    signer, made = init_key(path)
    key_id = signer.public_key_document()["key_id"]
    if made:
        told = Message("export key {key_id} made: {path}; public key {path}.pub",
                       key_id=key_id, path=path)
    else:
        told = Message("export key {key_id} already there (kept): {path}; public key "
                       "{path}.pub", key_id=key_id, path=path)
    print(f"paiju: {args.say(told)}", file=sys.stderr)
    return 0
