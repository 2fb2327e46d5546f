"""The HTTP service: application factory, blueprints, problems, CLI."""
from .app import create_app

__all__ = ["create_app"]
