"""No ``nomic serve`` started by a test outlives it, even when the test fails."""
from __future__ import annotations

import pytest

from tests.faults.daemon import Daemon


@pytest.fixture(autouse=True)
def _reap_daemons():
    yield
    Daemon.reap()
