"""The deployment's Ed25519 key, which signs the manifests of exports.

``paiju keys init`` writes the private key (PEM, readable by its owner only) and the public key
beside it (``<file>.pub``, PEM). The public key is also served at
``/.well-known/paiju-export-key``, and is what ``paiju verify-export --public-key`` takes.
"""
from __future__ import annotations

import base64
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from events.export_file import Signature, public_key_id


class SigningKeyError(Exception):
    """A key file that is missing or not an Ed25519 key."""


def _raw(public_key: Ed25519PublicKey) -> bytes:
    return public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def public_pem(public_key: Ed25519PublicKey) -> str:
    return public_key.public_bytes(serialization.Encoding.PEM,
                                   serialization.PublicFormat.SubjectPublicKeyInfo).decode()


@dataclass(frozen=True)
class Signer:
    private_key: Ed25519PrivateKey

    @property
    def public_key(self) -> Ed25519PublicKey:
        return self.private_key.public_key()

    def sign(self, message: bytes) -> Signature:
        value = base64.b64encode(self.private_key.sign(message)).decode()
        return Signature("Ed25519", public_key_id(self.public_key), value)

    def public_key_document(self) -> dict:
        """What the well-known endpoint serves."""
        return {"algorithm": "Ed25519", "key_id": public_key_id(self.public_key),
                "public_key": base64.b64encode(_raw(self.public_key)).decode(),
                "pem": public_pem(self.public_key)}


def init_key(path: str | Path) -> tuple[Signer, bool]:
    """The key at ``path``, made if there is none; True if it was made now. An existing key is
    never replaced: exports signed with it must stay verifiable."""
    path = Path(path)
    if path.exists():
        return load_signer(path), False
    path.parent.mkdir(parents=True, exist_ok=True)
    private_key = Ed25519PrivateKey.generate()
    pem = private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(pem)
    Path(f"{path}.pub").write_text(public_pem(private_key.public_key()))
    return Signer(private_key), True


def load_signer(path: str | Path) -> Signer:
    try:
        key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
    except FileNotFoundError:
        raise SigningKeyError(f"no signing key at {path}: run `paiju keys init`") from None
    except ValueError as error:
        raise SigningKeyError(f"{path} is not a PEM private key: {error}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{path} is not an Ed25519 key")
    return Signer(key)


def load_public_key(text: str) -> Ed25519PublicKey:
    """A public key as PEM, or as the base64 of its 32 raw bytes (as the endpoint serves it)."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_public_key(text.encode())
        else:
            key = Ed25519PublicKey.from_public_bytes(base64.b64decode(text, validate=True))
    except ValueError as error:
        raise SigningKeyError(f"not an Ed25519 public key: {error}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise SigningKeyError("not an Ed25519 public key")
    return key
