"""The fixtures of the desk's page tests: each test runs once with a Chinese and once with an
English browser (a module that defines its own ``browser`` or ``language`` keeps it)."""
from __future__ import annotations

import pytest
from browser_harness import chromium

BROWSER_LANGUAGES = {"en": "en-US", "zh": "zh-CN"}


@pytest.fixture(params=sorted(BROWSER_LANGUAGES))
def language(request):
    """The page's language, zh or en (the browser asks for it in Accept-Language)."""
    return request.param


@pytest.fixture
def browser(language):
    """A fresh Chromium asking for ``language``, quit after the test."""
    driver = chromium(BROWSER_LANGUAGES[language])
    yield driver
    driver.quit()
