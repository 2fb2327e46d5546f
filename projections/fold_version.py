"""The version of the folds' output, which keys the checkpoints' validity
(projections/checkpoints.py): a checkpoint written under another version is never read.

Bump ``FOLD_VERSION`` whenever a fold may produce another state from the same log — a rule
that scores differently, a field added to a state, a catalogue upcaster that reads old events
otherwise, a state's class renamed or moved to another module (the text names it), a change
of the checkpoints' text (projections/state_codec.py) — and record the new digest under it. Nothing else invalidates a checkpoint: an edited comment, a function moved or
made faster keeps every checkpoint of the file, and a restart after it folds from them.

``FOLD_DIGESTS`` is how a forgotten bump is caught: the digest, under each version, of the
folds of the simulated logs of all five games (tests/fixtures/fold-logs.jsonl.xz) — every stream's
state at each version a checkpoint is written and at its end, as written by
:func:`projections.state_codec.canonical`. tests/unit/test_fold_version.py folds them again and
fails if the digest is not the one recorded under ``FOLD_VERSION``. Versions only move
forwards; each keeps the digest it had, so that a change can be told from the one before.
"""
from __future__ import annotations

FOLD_VERSION = 2

# version -> the digest of the folds' output at that version (sha256, hex)
FOLD_DIGESTS = {
    1: "19c18694f9b8972aac7edfc789b43645287abd7c60e56cf50a56a01b45512088",
    # 2: the rules' words kept in states (flags, penalties' reasons, details, void reasons) as
    # Sentences, their messages kept to be said in each reader's language; 1 kept the English
    2: "f1a78e31bbc6d7e06192bb6869f07f0dfa221066495b87659c5eb63fe4ebbc66",
}
