"""MkDocs hooks of the site (mkdocs.yml ``hooks:``): two fixes to the plugins, each for a pinned
version (pyproject.toml, the docs extra).

1. mkdocs-static-i18n 1.3.1 localises only files whose source lies in ``docs_dir``; any other
   page — every page gen-files generates, whose source is in gen-files' temporary directory —
   it drops with "Unhandled file case" (a warning: ``--strict`` fails), and when it makes a
   language's copy of a file it rebuilds it as ``docs_dir/<src_path>``. Two wraps fix both for
   the files gen-files made (``generated_by == "mkdocs-gen-files"``): they are localised as if
   they were in docs_dir, and each copy keeps reading its generated source. Each generated page
   is then shown under /zh/ too (``fallback_to_default``), with its language switcher, like any
   page without a translation.
2. neoteroi-mkdocs's OAD makes an example of each schema without one, with a random UUID for
   ``format: uuid`` and a random number for ``int32`` / ``int64``: the same spec would give
   another page at each build. The examples are fixed values instead, so a build is
   reproducible (and the English and 简体中文 pages of the API are the same).
3. OAD reads the spec with PyYAML's pure-Python loader: 560 KB of api_spec.yaml took a fifth
   of the build, for each language. It reads it with libyaml's (``yaml.CSafeLoader``, the
   same YAML) where PyYAML has it.
"""
from __future__ import annotations

import functools

from mkdocs.plugins import event_priority

GENERATED_BY = "mkdocs-gen-files"
EXAMPLE_UUID = "0190f4c2-7b1e-7c3a-9d2e-5f6a7b8c9d0e"  # a UUIDv7, as the server assigns
EXAMPLE_INTEGER = 1


def _generated(file) -> bool:
    return getattr(file, "generated_by", None) == GENERATED_BY


@event_priority(100)  # before the plugins' on_config (the i18n plugin's runs at -100)
def on_config(config):
    _localise_generated_pages()
    _fixed_examples()
    _fast_yaml()
    return config


def _localise_generated_pages() -> None:
    from mkdocs_static_i18n import reconfigure, suffix

    if getattr(suffix.create_i18n_file, "paiju_generated", False):
        return  # wrapped already (the i18n plugin builds each language in one process)
    create = suffix.create_i18n_file
    is_relative_to = reconfigure.is_relative_to
    generated_sources: set[str] = set()

    @functools.wraps(create)
    def create_i18n_file(file, *args, **kwargs):
        made = create(file, *args, **kwargs)
        if _generated(file):
            made.src_dir = file.src_dir
            made.abs_src_path = file.abs_src_path
            made.generated_by = GENERATED_BY
        return made

    def in_docs_dir(path, docs_dir):
        return path in generated_sources or is_relative_to(path, docs_dir)

    create_i18n_file.paiju_generated = True
    create_i18n_file.generated_sources = generated_sources
    suffix.create_i18n_file = create_i18n_file
    reconfigure.is_relative_to = in_docs_dir


def _fixed_examples() -> None:
    from openapidocs.mk.v3 import examples

    examples.StringExampleHandler.formats["uuid"] = lambda: EXAMPLE_UUID
    for name in ("int32", "int64"):
        examples.IntegerExampleHandler.formats[name] = lambda: EXAMPLE_INTEGER


def _fast_yaml() -> None:
    import yaml
    from openapidocs.utils import source

    if not getattr(yaml, "__with_libyaml__", False) or getattr(
            source.read_from_yaml_file, "paiju_fast", False):
        return

    def read_from_yaml_file(file_path):
        with open(file_path, encoding="utf-8") as text:
            return yaml.load(text.read(), Loader=yaml.CSafeLoader)

    read_from_yaml_file.paiju_fast = True
    source.read_from_yaml_file = read_from_yaml_file


@event_priority(-50)  # after gen-files' on_files (0), before the i18n plugin's (-100)
def on_files(files, config):
    from mkdocs_static_i18n import suffix

    sources = getattr(suffix.create_i18n_file, "generated_sources", None)
    if sources is not None:
        sources.update(f.abs_src_path for f in files if _generated(f))
    return files
